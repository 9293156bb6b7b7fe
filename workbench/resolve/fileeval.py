"""Evaluating files one at a time (a unit of evaluation, see `memo`): each file's imports
rows, then its edges in order (`_evaluate`), into the rows evaluation keeps (`rows`).

An edge's row (dst_id, dst_qualname, resolution, candidates) comes from what the
evaluator (`Resolver`) found for it (`_resolve_edge`): its targets (`_target_row`), an
imports row's values (`resolve_import`, `_import_edge_row`), or, when evaluation found
nothing, the definitions of that name (`_fallback`, `_fallback_class`; never for a name
an import binds). Candidate lists are capped at `MAX_CANDIDATES`.

A call of a builtin or outside function that calls a function handed to it
(`sorted(xs, key=f)`: `Language.callback_params`) also gives the file's *callback rows*
(`_callbacks`): one per argument that evaluates to functions of the repository, a `calls`
edge of resolution `callback` from the call's scope, written as the argument, on the
call's line, its target as for a call of those functions (`_target_row`: one, or
several as `candidates`). The calls the code makes without a call expression (an operator
running a method of the operand's class, a `with`, a `for`, `len(x)`:
`Language.implicit_sites`, `Language.implicit_calls`) give its *implicit rows* the same
way, resolution `implicit` (`_implicit_sites`), in a run that adds them (`setting`; a class
raised without a call, `raise E`, in every run). Neither is a call expression of the file:
the write adds them to the edges table (`writeback`), and evaluation never reads them back.
"""
from __future__ import annotations

from array import array

from .bindings import IMPLICIT_SITES
from .evaluate import Resolver
from .exprs import alternatives, parse_chain
from .kinds import CLASS_KINDS
from .lang import rules_of
from .model import Model
from .rows import _Reads, _Rows
from .values import BOUND, BUILTIN, EXT, INST, MODULE, OUTSIDE, SYM, ordered, rank_of

MAX_CANDIDATES = 25


def _evaluate(m: Model, res: Resolver, part_rows, spans: dict, imports_of: dict, paths, tick):
    """Evaluate the imports rows and edges of `paths`, one file (unit) at a time, in order
    (`part_rows(k)`: the edges of part k, `spans`: path -> part, start, end): (rows, imports
    rows whose resolved path changed as (row ids, paths), reads)."""
    out, imp_rows, reads = _Rows(m.qual), (array("q"), []), _Reads()
    add_file = out.add_file
    names = ("edge_id", "src_id", "kind", "dst_name", "line", "dst_id", "dst_qualname", "resolution",
             "candidates")
    found: list = []                    # a file's implicit rows (`raise E`: whatever the setting)
    imps: list | None = found if res.implicit else None     # those of its calls (`setting`)
    for path in paths:
        res.memo.begin_unit()
        imp_edge: dict[tuple, tuple] = {}
        for row in imports_of.get(path, ()):
            vals, how, rpath = resolve_import(res, row)
            if rpath != row["resolved_path"]:      # the rows to write back: row id, new path
                imp_rows[0].append(row["rid"])
                imp_rows[1].append(rpath)
            imp_edge[(row["line"], _import_target_text(row["module"], row["name"]))] = (vals, how)
        k, a, b = spans.get(path, (0, 0, 0))
        if b > a:
            part = part_rows(k).slice(a, b - a)
            cbs: list = []
            eids, srcs, kinds, dst_names, lines, *old = (part.column(n).to_pylist() for n in names)
            add_file(eids, *old, [_resolve_edge(m, res, src, kind, dst_name, line, imp_edge, cbs, imps)
                                  for src, kind, dst_name, line in zip(srcs, kinds, dst_names, lines)])
            if cbs:
                _callback_rows(m, res, path, cbs, out)
        _implicit_sites(m, res, path, found)
        if found:
            _added_rows(m, res, path, found, out, "implicit")
            found.clear()
        reads.add(path, *res.memo.end_unit())
        if tick is not None:
            tick(b - a)
    out.flush()
    return out, imp_rows, reads


def _resolve_edge(m: Model, res: Resolver, src, kind: str, dst_name: str, line, imp_edge: dict,
                  cbs: list | None = None, imps: list | None = None):
    """(dst_id, dst_qualname, resolution, candidates) of one edge; the callback rows of a
    call (`_callbacks`) are added to `cbs`, the calls it makes implicitly
    (`Language.implicit_calls`: `len(p)` runs `p.__len__`) to `imps`."""
    fam = m.fam.get(src) if src in m.kind else None
    if fam is None:
        return None, None, "unresolved", None
    if kind == "imports":
        got = imp_edge.get((line, dst_name))
        if got is None:
            return None, None, "unresolved", None
        return _import_edge_row(m, res, *got)
    if kind in ("inherits", "implements"):
        vals, how = res.resolve_base(src, dst_name)
        new = _target_row(m, list(ordered(vals)), how, fam, dst_name, res)
        if new[2] == "unresolved":
            new = _fallback_class(m, res, fam, dst_name)
        return new
    try:
        targets, how = res.resolve_call(src, dst_name, line)
    except RecursionError:
        targets, how = [], "unresolved"
    if imps is not None:
        try:
            got = res.rules(fam).implicit_calls(res, m.ns(src), m.path.get(src), dst_name, line, targets)
        except RecursionError:
            got = ()
        imps.extend((src, text, at, t, fam) for text, at, t in got)
    if targets:
        if cbs is not None and (len(targets) > 1 or targets[0][0] != SYM):    # (not for one symbol)
            _callbacks(res, fam, src, dst_name, line, targets, cbs)
        return _target_row(m, targets, how, fam, dst_name, res)
    if how == "known-receiver":
        return None, None, "unresolved", None
    return _fallback(m, res, fam, res.callee_text(src, dst_name, line), src)


def _callbacks(res: Resolver, fam: str, src, text: str, line, targets: list, into: list) -> None:
    """The repository functions a call written `text` hands to an outside target that
    calls them (`Flows.passed_callbacks`): (src, argument as written, line, (SYM, id),
    family) added to `into`."""
    table = res.rules(fam).callback_params
    if not table:
        return
    for t in targets:
        if t[0] in OUTSIDE and t[1] in table:
            try:
                got = res.passed_callbacks(src, text, line, t[1])
            except RecursionError:
                continue
            into.extend((src, arg, line, c, fam) for arg, c in got)


def _implicit_sites(m: Model, res: Resolver, path: str, into: list) -> None:
    """The calls the code of file `path` makes without a call expression, from the
    implicit sites of each of its scopes (`Language.implicit_sites`: `p / "lib"` runs
    `Path.__truediv__`): (scope, text, line, (SYM, id), family) added to `into`."""
    if m.lazy:
        m.ensure_bindings(path)
    binds, ns, fam_of = m.binds, m.ns, m.fam
    for s in m.symbols_in((path,)):
        if ns(s) != s:
            continue
        got = binds.get(s)
        rows = got.get(IMPLICIT_SITES) if got else None
        if not rows:
            continue
        fam = fam_of.get(s)
        try:
            found = res.rules(fam).implicit_sites(res, s, rows)
        except RecursionError:
            continue
        into.extend((s, text, line, t, fam) for text, line, t in found)


def _callback_rows(m: Model, res: Resolver, path: str, found: list, out: _Rows) -> None:
    """A file's callback rows from what `_callbacks` found: `_added_rows`."""
    _added_rows(m, res, path, found, out, "callback")


def _added_rows(m: Model, res: Resolver, path: str, found: list, out: _Rows, how: str) -> None:
    """A file's rows of resolution `how` (`callback`, `implicit`) from what evaluation
    found: one per (scope, text, line: two calls written alike on one line share their
    arguments' rows), its functions as the targets of a call (`_target_row`; several:
    `candidates`)."""
    by_arg: dict[tuple, list] = {}
    fams = {}
    for src, arg, line, t, fam in found:
        got = by_arg.setdefault((src, arg, line), [])
        if t not in got:
            got.append(t)
        fams[(src, arg, line)] = fam
    for (src, arg, line), targets in by_arg.items():
        dst_id, _q, _how, cands = _target_row(m, targets, how, fams[(src, arg, line)], arg, res)
        out.add_callback(path, src, arg, line, dst_id, cands, how)


def resolve_import(res: Resolver, row: dict) -> tuple[set, str, str | None]:
    """(values, how, resolved_path) of one imports row."""
    return res.rules(row["family"]).resolve_import(res, row)


def _import_target_text(module: str | None, name: str | None) -> str:
    target = module or ""
    if name:
        sep = "" if target.endswith(".") or not target else "."
        target = f"{target}{sep}{name}"
    return target[:200]


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


def _target_row(m: Model, targets: list, how: str, fam: str, name: str, res: Resolver):
    """(dst_id, dst_qualname, resolution, candidates) for the targets of one edge."""
    if len(targets) == 1 and targets[0][0] == SYM:      # one symbol (most edges)
        sid = targets[0][1]
        if how in _NOT_INFERRED:
            how = "inferred"
        return sid, m.qual[sid], how, None
    syms = [t[1] for t in targets if t[0] == SYM]
    others = [t for t in targets if t[0] != SYM]
    if len(targets) > 1:
        quals = sorted({m.qual[s] for s in syms}) + sorted({t[1] for t in others})
        if len(quals) == 1 and syms:    # one name defined twice (`if`/`else`, a redefinition):
            return max(syms, key=rank_of), quals[0], how, None   # the later definition, as at run time
        if not syms:      # outside the repository for sure; which one is not evident
            kind = "builtin" if all(t[0] == BUILTIN for t in others) else "external"
            return None, None, kind, _cap(quals)
        return None, None, "ambiguous", _cap(quals)
    if others:
        t = others[0]
        return None, t[1], "builtin" if t[0] == BUILTIN else "external", None
    return None, None, "unresolved", None


#: how an edge's evaluation says it found its one target, read as `inferred` (`_target_row`)
_NOT_INFERRED = frozenset({"builtin", "external", "unresolved", "name-unique", "ambiguous"})


def _cap(quals: list[str]) -> list[str]:
    if len(quals) <= MAX_CANDIDATES:
        return quals
    return quals[:MAX_CANDIDATES] + [f"... {len(quals) - MAX_CANDIDATES} more"]


def _fallback(m: Model, res: Resolver, fam: str, text: str, src_id: int):
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
    res.read_name(f"b:{fam}:{last[1]}")
    key = (fam, last[0], last[1])               # from here on the answer depends on the name only
    got = m.fallback_cache.get(key)
    if got is None:
        got = m.fallback_cache[key] = _name_candidates(m, fam, last[0], last[1])
    return got


def _import_bound(m: Model, scope: int | None, name: str) -> bool:
    """Whether `name` is bound by an import in `scope` or an enclosing scope."""
    while scope is not None:
        if name in m.imports_by_scope.get(scope, {}):
            return True
        scope = m.ns(m.parent.get(scope))
    return False


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


def _fallback_class(m: Model, res: Resolver, fam: str, text: str):
    name = text.split("<", 1)[0].strip().rsplit(".", 1)[-1]
    res.read_name(f"b:{fam}:{name}")
    cands = [c for c in m.by_name.get((fam, name), ()) if m.kind.get(c) in CLASS_KINDS]
    if not cands:
        cands = [c for c in m.by_qual.get(text, ()) if m.kind.get(c) in CLASS_KINDS]
    if len(cands) == 1:
        return cands[0], m.qual[cands[0]], "name-unique", None
    if len(cands) > 1:
        return None, None, "ambiguous", _cap(sorted({m.qual[c] for c in cands}))
    return None, None, "unresolved", None

