"""The passes that read edges, evaluate them and write the results back.

`resolve_edges(con, changed_paths)` fills `edges.dst_id`, `dst_qualname`, `resolution`
and `candidates`, `imports.resolved_path` and `call_candidates`. Resolution works on the
whole set at once: the needed columns are loaded into a `Model`, every edge is evaluated
by a `Resolver`, and only changed rows are written back with one `UPDATE ... FROM` over an
Arrow table.

Incremental runs (`changed_paths` given) re-resolve the edges of the changed files, the
edges that pointed into them (their `dst_id` no longer exists, or a candidate vanished),
and the edges whose target name or class hierarchy the change may affect. They turn
bindings into Python objects only for the files evaluation reaches (argument rows: only
for the callee names it asks about), from the same bulk query kept as Arrow, and rebuild
`call_candidates` only for the edges they touched (plus rows a change made stale).
"""
from __future__ import annotations

import posixpath
import time
from collections import defaultdict
from dataclasses import dataclass, field

import pyarrow as pa

from .. import store
from ..gcpause import gc_paused
from ..versions import resolver_version
from .evaluate import Resolver
from .exprs import alternatives, parse_chain
from .kinds import CLASS_KINDS
from .lang import family_of, rules_of
from .model import Model, cols
from .values import BOUND, BUILTIN, EXT, INST, MODULE, SYM, ordered

RESOLVER_VERSION = resolver_version()      # a database resolved by other code is resolved again in full
RESOLUTIONS = ("local", "self", "super", "import", "alias", "reexport", "inferred",
               "name-unique", "ambiguous", "builtin", "external", "unresolved")
MAX_CANDIDATES = 25


@dataclass
class ResolveStats:
    edges: int = 0                  # edges evaluated
    updated: int = 0                # rows written back
    files: int = 0                  # source files whose edges were evaluated
    full: bool = True
    seconds: float = 0.0
    by_resolution: dict = field(default_factory=dict)

    def __str__(self) -> str:
        kinds = ", ".join(f"{k} {v}" for k, v in sorted(self.by_resolution.items(), key=lambda kv: -kv[1]))
        return (f"resolved {self.edges} edges of {self.files} files "
                f"({'full' if self.full else 'incremental'}) in {self.seconds:.2f}s, "
                f"{self.updated} rows updated: {kinds}")


# ====================================================================== driving

def _target_row(m: Model, targets: list, how: str, fam: str, name: str, res: Resolver):
    """(dst_id, dst_qualname, resolution, candidates) for the targets of one edge."""
    syms = [t[1] for t in targets if t[0] == SYM]
    others = [t for t in targets if t[0] != SYM]
    if len(syms) == 1 and not others:
        sid = syms[0]
        if how in ("builtin", "external", "unresolved", "name-unique", "ambiguous"):
            how = "inferred"
        return sid, m.qual[sid], how, None
    if len(targets) > 1:
        quals = sorted({m.qual[s] for s in syms}) + sorted({t[1] for t in others})
        if len(quals) == 1 and syms:    # one name defined twice (`if`/`else`, a redefinition):
            return max(syms), quals[0], how, None       # the later definition, as at run time
        if not syms:      # outside the repository for sure; which one is not evident
            kind = "builtin" if all(t[0] == BUILTIN for t in others) else "external"
            return None, None, kind, _cap(quals)
        return None, None, "ambiguous", _cap(quals)
    if others:
        t = others[0]
        return None, t[1], "builtin" if t[0] == BUILTIN else "external", None
    return None, None, "unresolved", None


def _cap(quals: list[str]) -> list[str]:
    if len(quals) <= MAX_CANDIDATES:
        return quals
    return quals[:MAX_CANDIDATES] + [f"... {len(quals) - MAX_CANDIDATES} more"]


def _import_bound(m: Model, scope: int | None, name: str) -> bool:
    """Whether `name` is bound by an import in `scope` or an enclosing scope."""
    while scope is not None:
        if name in m.imports_by_scope.get(scope, {}):
            return True
        scope = m.ns(m.parent.get(scope))
    return False


def _fallback(m: Model, fam: str, text: str, src_id: int):
    """Name-based candidates when evaluation found nothing: (dst_id, qual, resolution, cands).

    Not for names an import binds: an import that does not resolve (a missing module or
    name) makes the call unresolved, never a guess among same-named definitions."""
    parsed = parse_chain(text)
    if parsed is None:
        return None, None, "unresolved", None
    steps = parsed[0]
    if steps[0][0] == "name" and _import_bound(m, m.ns(src_id), steps[0][1]):
        return None, None, "unresolved", None
    last = steps[-1]
    if last[0] not in ("name", "attr") or len(alternatives(text)) > 1:
        return None, None, "unresolved", None
    if last[0] == "name" and rules_of(fam).unbound_names_raise:
        return None, None, "unresolved", None   # an unbound bare name: NameError, not a guess
    key = (fam, last[0], last[1])               # from here on the answer depends on the name only
    got = m.fallback_cache.get(key)
    if got is None:
        got = m.fallback_cache[key] = _name_candidates(m, fam, last[0], last[1])
    return got


def _name_candidates(m: Model, fam: str, how: str, name: str):
    cands = m.by_name.get((fam, name), ())
    if how == "attr":
        cands = [c for c in cands if m.kind.get(c) in ("method", "function", "constructor", "class")]
    else:
        methods_too = rules_of(fam).bare_names_reach_methods
        cands = [c for c in cands if methods_too or m.kind.get(c) != "method"]
    if not cands:
        return None, None, "unresolved", None
    if len(cands) == 1:
        return cands[0], m.qual[cands[0]], "name-unique", None
    return None, None, "ambiguous", _cap(sorted({m.qual[c] for c in cands}))


def _import_target_text(module: str | None, name: str | None) -> str:
    target = module or ""
    if name:
        sep = "" if target.endswith(".") or not target else "."
        target = f"{target}{sep}{name}"
    return target[:200]


def resolve_edges(con, changed_paths=None, *, full: bool | None = None,
                  progress: bool = False) -> ResolveStats:
    """Resolve calls/imports/inherits/implements edges and imports.resolved_path.

    `changed_paths=None` (or a database never resolved by this version) resolves
    everything; a list of changed/added/removed paths resolves only what they can affect;
    an empty list does nothing. `progress` shows a bar (tqdm.auto) when there are more
    than `PROGRESS_MIN_EDGES` edges to evaluate.
    """
    with gc_paused():                 # millions of small tuples, no cycles: skip the collector
        return _resolve_edges(con, changed_paths, full, progress)


PROGRESS_MIN_EDGES = 20_000


def _resolve_edges(con, changed_paths, full, progress: bool = False) -> ResolveStats:
    t0 = time.perf_counter()
    stats = ResolveStats()
    version = store.get_meta(con, "resolver_version")
    if full is None:
        full = changed_paths is None or version != RESOLVER_VERSION
    if not full and not changed_paths:
        stats.full = False
        stats.seconds = time.perf_counter() - t0
        return stats
    stats.full = full
    model = Model(con, bulk_bindings=full)
    scope_paths = None if full else _affected_paths(con, model, list(changed_paths))
    res = Resolver(model)
    rows, imp_rows, files = _resolve_set(con, model, res, scope_paths, progress)
    stats.files = files
    stats.edges = len(rows)
    stats.updated = _write_back(con, rows, imp_rows)
    if full:
        _write_candidates(con)
    else:
        _write_candidates(con, [r[0] for r in rows], sorted(changed_paths))
    for r in rows:
        stats.by_resolution[r[7]] = stats.by_resolution.get(r[7], 0) + 1
    store.set_meta(con, resolver_version=RESOLVER_VERSION)
    stats.seconds = time.perf_counter() - t0
    return stats


_LAST_NAME_SQL = "regexp_extract(e.dst_name, '([A-Za-z_$][A-Za-z0-9_$]*)[^A-Za-z0-9_$]*$', 1)"


def _affected_paths(con, m: Model, changed: list[str]) -> set[str]:
    """Source files whose edges a change to `changed` (added, edited, removed files) can
    affect:

    * the changed files themselves;
    * files with an edge into them that went stale (its `dst_id` is gone) or that lists a
      candidate that no longer exists;
    * files importing a changed module, and along re-export chains (`__init__.py`,
      barrels) the importers of the names re-exported from it (importers of a module by
      plain `import m` only when one of their calls names such a name);
    * the files the changed files import (arguments flow into their functions);
    * the other files of a changed file's directory (Java / Go packages);
    * files defining subclasses of classes in the changed files (their MROs changed);
    * files whose name-based edges (`name-unique`, `ambiguous`, `unresolved`) name a
      definition of the changed files.
    """
    chg = set(changed)
    out = {p for p in chg if p in m.paths}
    rows = store.run(con, """
        SELECT DISTINCT e.path FROM edges e LEFT JOIN symbols s ON s.symbol_id = e.dst_id
        WHERE e.dst_id IS NOT NULL AND s.symbol_id IS NULL""")
    out |= {r[0] for r in rows}
    # candidates that vanished (call_candidates keeps the symbol id each one had)
    rows = store.run(con, """
        SELECT DISTINCT e.path FROM call_candidates c JOIN edges e USING (edge_id)
        WHERE c.symbol_id IS NOT NULL
          AND NOT EXISTS (SELECT 1 FROM symbols s WHERE s.symbol_id = c.symbol_id)""")
    out |= {r[0] for r in rows}
    # names defined in the changed files (module level for re-exports; all for name-based)
    top: dict[str, set[str]] = defaultdict(set)
    all_names: set[str] = set()
    chg_syms = [sid for sid, path in m.path.items() if path in chg]
    for sid in chg_syms:
        path = m.path[sid]
        all_names.add(m.name[sid])
        if m.parent.get(sid) == m.file_module.get(path):
            top[path].add(m.name[sid])
    if all_names:
        # a name-based label changes when the set of same-named definitions changes: a
        # definition something already points at (by qualname) existed before the change
        quals = sorted({q for q in (m.qual.get(sid) for sid in chg_syms) if q is not None})
        known = {r[0] for r in store.run(con, """
            SELECT DISTINCT dst_qualname FROM edges
            WHERE dst_qualname IS NOT NULL AND NOT list_contains($chg, path)
              AND list_contains($quals, dst_qualname)
            UNION SELECT DISTINCT qualname FROM call_candidates
            WHERE list_contains($quals, qualname)""", {"chg": sorted(chg), "quals": quals})}
        fresh = {m.name[sid] for sid in chg_syms
                 if m.qual.get(sid) not in known and m.parent.get(sid) is not None}
        if fresh:
            rows = store.run(con, f"""
                SELECT DISTINCT e.path FROM edges e
                WHERE e.kind IN ('calls', 'imports', 'inherits', 'implements')
                  AND e.resolution IN ('name-unique', 'ambiguous', 'unresolved')
                  AND list_contains($names, {_LAST_NAME_SQL})""", {"names": sorted(fresh)})
            out |= {r[0] for r in rows}
    # importers, following re-exports
    by_target: dict[str, list[dict]] = defaultdict(list)
    for row in m.imports:
        if row["resolved_path"]:
            by_target[row["resolved_path"]].append(row)
    exported: dict[str, set[str] | None] = {p: None for p in chg}      # None: every name
    pending: dict[str, set[str]] = defaultdict(set)                      # plain importers to check
    queue = list(chg)
    while queue:
        c = queue.pop()
        names = exported[c]
        for row in by_target.get(c, []) + by_target.get(posixpath.dirname(c), []):
            f = row["path"]
            nm = row["name"]
            plain = nm is None or (nm == "*" and row["alias"])
            if names is None or nm == "*" and not row["alias"]:
                out.add(f)
            elif plain:
                pending[f] |= names
                continue
            elif nm in names:
                out.add(f)
            else:
                continue
            if plain or row["scope"] != m.file_module.get(f):
                continue                      # only module-level from-imports re-export
            if nm == "*":
                grow = set(top.get(c, ())) if names is None else set(names)
            else:
                grow = {row["alias"] or nm}
            have = exported.get(f)
            if have is None and f in exported:
                continue
            new = (have or set()) | grow
            if have is None or new != have:
                exported[f] = new
                queue.append(f)
    pending = {f: n for f, n in pending.items() if f not in out}
    if pending:
        pairs = sorted((f, n) for f, names in pending.items() for n in names)
        rows = store.run(con, f"""
            SELECT DISTINCT e.path FROM edges e
            JOIN (SELECT unnest($paths) AS path, unnest($names) AS name) p
              ON p.path = e.path AND p.name = {_LAST_NAME_SQL}
            WHERE e.kind = 'calls'""", {"paths": [a for a, _ in pairs], "names": [b for _, b in pairs]})
        out |= {r[0] for r in rows}
    # what the changed files import; their package mates; subclasses' files
    dirs = {posixpath.dirname(p) for p in chg}
    for row in m.imports:
        if row["path"] in chg and row["resolved_path"]:
            rp = row["resolved_path"]
            out |= {p for p in m.paths if p == rp or posixpath.dirname(p) == rp}
    for p, lang in m.file_lang.items():
        if posixpath.dirname(p) in dirs and rules_of(family_of(lang)).package_is_directory:
            out.add(p)
    classes = [sid for sid, path in m.path.items() if path in chg and m.kind.get(sid) in CLASS_KINDS]
    seen = set(classes)
    while classes:
        c = classes.pop()
        for sub in m.subclasses_written.get(m.name[c], ()):
            if sub not in seen:
                seen.add(sub)
                classes.append(sub)
                out.add(m.path[sub])
    return out


def _resolve_set(con, m: Model, res: Resolver, scope_paths: set[str] | None, progress: bool = False):
    if scope_paths is None:
        e = cols(con, """SELECT edge_id, src_id, kind, dst_name, path, line, dst_id, dst_qualname,
                                 resolution, candidates FROM edges
                          WHERE kind IN ('calls', 'imports', 'inherits', 'implements')
                          ORDER BY path, edge_id""")
        files = len(m.file_module)
    else:
        e = cols(con, """SELECT edge_id, src_id, kind, dst_name, path, line, dst_id, dst_qualname,
                                 resolution, candidates FROM edges
                          WHERE kind IN ('calls', 'imports', 'inherits', 'implements')
                            AND path IN (SELECT unnest(?::VARCHAR[]))
                          ORDER BY path, edge_id""", [sorted(scope_paths)])
        files = len(scope_paths)
    out = []
    # imports first: rows of the imports table, matched to their edges by (path, line, text)
    imp_rows = []
    imp_edge: dict[tuple, tuple] = {}
    for row in m.imports:
        if scope_paths is not None and row["path"] not in scope_paths:
            continue
        vals, how, rpath = resolve_import(res, row)
        imp_rows.append((row["rid"], rpath, row["resolved_path"]))
        text = _import_target_text(row["module"], row["name"])
        imp_edge[(row["path"], row["line"], text)] = (vals, how)
    bar = None
    total = len(e["edge_id"])
    if progress and total > PROGRESS_MIN_EDGES:
        from tqdm.auto import tqdm
        bar = tqdm(total=total, desc="resolving", unit="edge", unit_scale=True, leave=False)
    for i, (eid, src, kind, dst_name, path, line, old_id, old_q, old_res, old_c) in enumerate(zip(
            e["edge_id"], e["src_id"], e["kind"], e["dst_name"], e["path"], e["line"],
            e["dst_id"], e["dst_qualname"], e["resolution"], e["candidates"])):
        if bar is not None and not i & 4095:
            bar.update(i - bar.n)
        fam = m.fam.get(src) if src in m.kind else None
        if fam is None:
            new = (None, None, "unresolved", None)
        elif kind == "imports":
            got = imp_edge.get((path, line, dst_name))
            if got is None:
                new = (None, None, "unresolved", None)
            else:
                vals, how = got
                new = _import_edge_row(m, res, vals, how)
        elif kind in ("inherits", "implements"):
            vals, how = res.resolve_base(src, dst_name)
            targets = [v for v in ordered(vals)]
            new = _target_row(m, targets, how, fam, dst_name, res)
            if new[2] == "unresolved":
                new = _fallback_class(m, fam, dst_name)
        else:
            try:
                targets, how = res.resolve_call(src, dst_name, line)
            except RecursionError:
                targets, how = [], "unresolved"
            if targets:
                new = _target_row(m, targets, how, fam, dst_name, res)
            elif how == "known-receiver":
                new = (None, None, "unresolved", None)
            else:
                new = _fallback(m, fam, res.callee_text(src, dst_name, line), src)
        out.append((eid, old_id, old_q, old_res, old_c) + new)
    if bar is not None:
        bar.update(total - bar.n)
        bar.close()
    return out, imp_rows, files


def _fallback_class(m: Model, fam: str, text: str):
    name = text.split("<", 1)[0].strip().rsplit(".", 1)[-1]
    cands = [c for c in m.by_name.get((fam, name), ()) if m.kind.get(c) in CLASS_KINDS]
    if not cands:
        cands = [c for c in m.by_qual.get(text, ()) if m.kind.get(c) in CLASS_KINDS]
    if len(cands) == 1:
        return cands[0], m.qual[cands[0]], "name-unique", None
    if len(cands) > 1:
        return None, None, "ambiguous", _cap(sorted({m.qual[c] for c in cands}))
    return None, None, "unresolved", None


def resolve_import(res: Resolver, row: dict) -> tuple[set, str, str | None]:
    """(values, how, resolved_path) of one imports row."""
    return res.rules(row["family"]).resolve_import(res, row)


def _import_edge_row(m: Model, res: Resolver, vals: set, how: str):
    targets = []
    for v in ordered(vals):
        if v[0] in (SYM, BOUND, MODULE, INST):
            targets.append((SYM, v[1]))
        elif v[0] in (EXT, BUILTIN):
            targets.append(v)
    if not targets:
        return None, None, "unresolved", None
    syms = [t for t in targets if t[0] == SYM]
    if len(syms) == 1:
        return syms[0][1], m.qual[syms[0][1]], how, None
    if len(syms) > 1:
        return None, None, "ambiguous", _cap(sorted({m.qual[t[1]] for t in syms}))
    t = targets[0]
    return None, t[1], "builtin" if t[0] == BUILTIN else "external", None


def _write_candidates(con, edge_ids: list[int] | None = None, changed: list[str] | None = None) -> None:
    """Rebuild `call_candidates` (one row per candidate of an ambiguous edge, with the
    candidate's symbol id) from `edges.candidates`: one set-wise statement, so it never
    drifts from the edges or from re-created symbols.

    Incremental runs (`edge_ids`: the edges just re-resolved, `changed`: the changed
    paths) rebuild the rows of those edges only, plus the rows a change can make wrong
    elsewhere: rows of edges that are gone, rows whose symbol is gone, and rows naming a
    qualname defined in a changed file. The result is the same as a full rebuild."""
    if edge_ids is None:
        store.run(con, "DELETE FROM call_candidates")
        store.run(con, """
            INSERT INTO call_candidates
            SELECT c.edge_id, c.q, s.symbol_id
            FROM (SELECT edge_id, unnest(candidates) AS q FROM edges WHERE candidates IS NOT NULL) c
            LEFT JOIN symbols s ON s.qualname = c.q""")
        return
    name = f"_wb_cand_edges_{time.monotonic_ns()}"
    redo = f"_wb_cand_redo_{time.monotonic_ns()}"
    con.register(name, pa.table({"edge_id": pa.array(edge_ids, pa.int64())}))
    try:
        store.run(con, f"""
            CREATE TEMP TABLE {redo} AS
            SELECT edge_id FROM {name}
            UNION SELECT c.edge_id FROM call_candidates c
                  WHERE NOT EXISTS (SELECT 1 FROM edges e WHERE e.edge_id = c.edge_id)
                     OR c.symbol_id IS NOT NULL
                        AND NOT EXISTS (SELECT 1 FROM symbols s WHERE s.symbol_id = c.symbol_id)
            UNION SELECT c.edge_id FROM call_candidates c
                  JOIN (SELECT DISTINCT qualname FROM symbols WHERE list_contains($chg, path)) q
                    ON q.qualname = c.qualname""", {"chg": changed or []})
    finally:
        con.unregister(name)
    try:
        store.run(con, f"DELETE FROM call_candidates WHERE edge_id IN (SELECT edge_id FROM {redo})")
        store.run(con, f"""
            INSERT INTO call_candidates
            SELECT c.edge_id, c.q, s.symbol_id
            FROM (SELECT edge_id, unnest(candidates) AS q FROM edges
                  WHERE candidates IS NOT NULL AND edge_id IN (SELECT edge_id FROM {redo})) c
            LEFT JOIN symbols s ON s.qualname = c.q""")
    finally:
        store.run(con, f"DROP TABLE IF EXISTS {redo}")


def _write_back(con, rows: list, imp_rows: list) -> int:
    changed = [r for r in rows if (r[1], r[2], r[3], r[4] and list(r[4]) or None) !=
               (r[5], r[6], r[7], r[8])]
    n = 0
    if changed:
        tbl = pa.table({
            "edge_id": pa.array([r[0] for r in changed], pa.int64()),
            "dst_id": pa.array([r[5] for r in changed], pa.int64()),
            "dst_qualname": pa.array([r[6] for r in changed], pa.string()),
            "resolution": pa.array([r[7] for r in changed], pa.string()),
            "candidates": pa.array([r[8] for r in changed], pa.list_(pa.string())),
        })
        name = f"_wb_resolved_{time.monotonic_ns()}"
        con.register(name, tbl)
        try:
            store.run(con, f"""UPDATE edges SET dst_id = t.dst_id, dst_qualname = t.dst_qualname,
                                   resolution = t.resolution, candidates = t.candidates
                               FROM {name} t WHERE edges.edge_id = t.edge_id""")
        finally:
            con.unregister(name)
        n += len(changed)
    imp_changed = [r for r in imp_rows if r[1] != r[2]]
    if imp_changed:
        tbl = pa.table({"rid": pa.array([r[0] for r in imp_changed], pa.int64()),
                        "resolved_path": pa.array([r[1] for r in imp_changed], pa.string())})
        name = f"_wb_imports_{time.monotonic_ns()}"
        con.register(name, tbl)
        try:
            store.run(con, f"""UPDATE imports SET resolved_path = t.resolved_path
                               FROM {name} t WHERE imports.rowid = t.rid""")
        finally:
            con.unregister(name)
        n += len(imp_changed)
    return n


__all__ = ["resolve_edges", "resolve_import", "ResolveStats", "RESOLUTIONS", "RESOLVER_VERSION"]
