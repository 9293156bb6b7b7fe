"""The passes that read edges, evaluate them and write the results back.

`resolve_edges(con, changed_paths)` fills `edges.dst_id`, `dst_qualname`, `resolution`
and `candidates`, `imports.resolved_path` and `call_candidates`. Resolution works on the
whole set at once: the needed columns are loaded into a `Model`, every edge is evaluated
by a `Resolver` (the edges read from the table a part at a time, in path order), and only
changed rows are written back, kept as Arrow tables meanwhile: a full run writes the
edges table anew in one pass and swaps it in (`_rebuild_edges`), an incremental one uses
an `UPDATE ... FROM` per table. (An `UPDATE` that sets the list column `candidates` writes
whole new row versions; over every edge, the old ones stayed in the file as free blocks,
a third of the database of the standard library.)

Incremental runs (`changed_paths` given) re-resolve the edges of the changed files, the
edges that pointed into them (their `dst_id` no longer exists and no single symbol has
their target's qualname now: `deps.rebind`), and the edges whose target name or class
hierarchy the change may affect (not those of files that only read an edited file whose
edit added nothing they can reach: `deps.quiet`). They turn
bindings into Python objects only for the files evaluation reaches (argument rows: only
for the callee names it asks about), from the same bulk query kept as Arrow, and rebuild
`call_candidates` only for the edges they touched (plus rows a change made stale). When
the process still holds the model of the run that wrote the database (`kept`), an
incremental run refreshes that model for the changed files instead of loading it.

A full run over many edges (`PARALLEL_MIN_EDGES`) evaluates in two processes (`processes`):
this one takes the files from the front, a forked helper from the back
(`_evaluate_in_two`). A file's edges get the same values whichever files are evaluated
with it and in whatever order (`memo`), so the rows are those of one process evaluating
everything.
"""
from __future__ import annotations

import gc
import os
import pickle
import signal
import struct
import time
import warnings
from array import array
from collections import defaultdict
from dataclasses import dataclass, field

import pyarrow as pa

from .. import schema, store
from ..gcpause import collector_runs, gc_paused, release_unused_memory
from ..versions import resolver_version
from .evaluate import Resolver
from .exprs import alternatives, clear_caches, parse_chain
from .kinds import CLASS_KINDS
from . import deps, kept
from .lang import rules_of
from .model import Model
from .values import BOUND, BUILTIN, EXT, INST, MODULE, SYM, clear_order_keys, ordered, rank_of

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
    model_kept: bool = False        # the model of an earlier run in this process, refreshed
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
            return max(syms, key=rank_of), quals[0], how, None   # the later definition, as at run time
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
                  progress: bool = False, before: deps.Before | None = None,
                  processes: int | None = None, private: bool = False) -> ResolveStats:
    """Resolve calls/imports/inherits/implements edges and imports.resolved_path.

    `changed_paths=None` (or a database never resolved by this version) resolves
    everything; a list of changed/added/removed paths resolves only what they can affect;
    an empty list does nothing. `progress` shows a bar (tqdm.auto) when there are more
    than `PROGRESS_MIN_EDGES` edges to evaluate. `before`: the changed files as they were
    before the edit (`deps.before_edit`, taken by the indexer before it replaced their
    rows): the files that read one of them are left alone when its edit added only what no
    other file can reach (`deps.quiet`), and what is gone is looked up by id.
    `processes`: at most this many processes evaluate a full run's edges (default: 2 on a
    machine with 2 cores or more; see `PARALLEL_MIN_EDGES`). `private`: nobody else can
    open the database before the run ends (a new file or a snapshot, `snapshot.is_private`;
    a failed run discards it): a full run may then commit part-way (after writing the edges
    table anew, to let its old blocks be reused by the rows written after it).
    """
    with gc_paused():                 # millions of small tuples, no cycles: skip the collector
        return _resolve_edges(con, changed_paths, full, progress, before,
                              processes if processes is not None else min(2, os.cpu_count() or 1), private)


PROGRESS_MIN_EDGES = 20_000


def _resolve_edges(con, changed_paths, full, progress: bool = False,
                   before: deps.Before | None = None, processes: int | None = None,
                   private: bool = False) -> ResolveStats:
    t0 = time.perf_counter()
    stats = ResolveStats()
    version = store.get_meta(con, "resolver_version")
    if full is None:
        full = (changed_paths is None or version != RESOLVER_VERSION
                or deps.needs_full(con, list(changed_paths)))
    if not full and not changed_paths:
        stats.full = False
        stats.seconds = time.perf_counter() - t0
        return stats
    stats.full = full
    # the model an earlier run in this process left for this state of the database: refreshed
    # for the changed files in an incremental run, let go before a full one builds its own
    model = kept.take(store.get_meta(con, "resolve_token"))
    if model is not None and not full:
        try:
            model.refresh(con, changed_paths)
            stats.model_kept = True
        except Exception as exc:        # never worse than no kept model: build it afresh
            warnings.warn(f"the kept resolution model could not be refreshed ({exc!r}); loading it again")
            model = None
    if not stats.model_kept:
        model = None
        model = Model(con, bulk_bindings=full)
    scope_paths = None if full else deps.affected(con, model, list(changed_paths), before)
    if scope_paths is not None:
        model.prefetch(*deps.previous_reads(con, scope_paths), resolving=len(scope_paths))
    res = Resolver(model)
    rows, imp_rows, reads = _resolve_set(con, model, res, scope_paths, progress, processes)
    # evaluation is done: let its memo and the bindings go before the writes need memory
    # (and its caches: what outlives evaluation keeps the allocator's arenas it sits in)
    del res
    if full:        # a kept model loads them again per file, as later runs reach them
        clear_caches()
        clear_order_keys()
        model.fallback_cache = {}       # a refresh starts it afresh anyway
        model.release_bindings()
    stats.files = len(reads)
    stats.edges = rows.n
    stats.by_resolution = rows.by_resolution
    stats.updated = _write_back(con, rows, imp_rows, rebuild=full)
    if full and private and stats.updated >= _WRITE_BATCH:
        # the old edges table's blocks become free at a checkpoint: taken now, before the
        # candidates, dependencies and meta rows are written, those go into them instead of
        # growing the file (the database file of the standard library: ~6 MB less)
        store.run(con, "COMMIT")
        store.run(con, "CHECKPOINT")
        store.run(con, "BEGIN TRANSACTION")
        release_unused_memory()
    if full:
        release_unused_memory()     # the update's join, before the candidates' join
        _write_candidates(con)
        release_unused_memory()
    else:
        if before is not None and before.paths != sorted(set(changed_paths)):
            before = None
        _write_candidates(con, list(rows.edge_ids), sorted(changed_paths), before)
    del rows
    deps.write(con, model, dict(reads.items()), full)
    token = kept.new_token()
    store.set_meta(con, resolver_version=RESOLVER_VERSION, resolve_token=token)
    kept.put(token, model)
    if not stats.model_kept and collector_runs():
        # a model built afresh: millions of new objects, all in the collector's youngest
        # generation (it is paused). One full pass now takes the survivors to the oldest;
        # left to the collector, its passes over the younger generations would each walk
        # them again in whatever runs next (the first incremental run after a full index
        # paid ~0.15 s for one). The oldest generation is walked again only when the
        # objects added since reach a quarter of it. Skipped where the collector is off
        # for good (the CLI ends the process after the run).
        gc.collect()
    stats.seconds = time.perf_counter() - t0
    return stats


class _Rows:
    """The evaluated edges: how many, the resolutions counted, all their ids, and the
    rows whose result differs from what the table holds (the only rows written back).

    The rows outlive evaluation, so they are kept out of Python objects: edge ids as
    machine integers (`array`), the changed rows as Arrow tables of `_WRITE_BATCH` rows
    each (a tuple per edge would hold ~80 MB on the standard library; as Python lists
    ~40 MB), a target's own qualname left out (`_write_back` joins it back). Small
    objects made during evaluation and kept past it (strings of external names,
    candidate lists, ids) would also sit among the bindings and the memo and keep the
    allocator's arenas those leave empty from being handed back."""

    __slots__ = ("n", "by_resolution", "edge_ids", "tables", "_ids", "_cols", "_qual")

    def __init__(self, qual: dict | None = None):
        self._qual = qual if qual is not None else {}    # symbol id -> qualname (`Model.qual`)
        self.n = 0
        self.by_resolution: dict[str, int] = {}
        self.edge_ids = array("q")
        self.tables: list[pa.Table] = []    # the changed rows: edge_id, dst_id, dst_qualname, ...
        self._ids = array("q")
        self._cols: tuple[list, list, list, list] = ([], [], [], [])

    def add(self, eid, old_id, old_q, old_res, old_c, dst_id, dst_q, how, cands) -> None:
        self.n += 1
        self.by_resolution[how] = self.by_resolution.get(how, 0) + 1
        self.edge_ids.append(eid)
        if (dst_id, dst_q, how, cands and list(cands) or None) != (old_id, old_q, old_res, old_c):
            self._ids.append(eid)
            c = self._cols
            c[0].append(dst_id)
            # a symbol's own qualname is left to the write's join with `symbols` (`_write_back`)
            c[1].append(None if dst_id is not None and dst_q is self._qual.get(dst_id) else dst_q)
            c[2].append(how)
            c[3].append(cands)
            if len(self._ids) >= _WRITE_BATCH:
                self.flush()

    def flush(self) -> None:
        """The pending changed rows into an Arrow table: the qualname only where it is not
        that of `dst_id`, the resolution dictionary-encoded."""
        if not self._ids:
            return
        import numpy as np
        dst_id, dst_q, how, cands = self._cols
        self.tables.append(pa.table({
            "edge_id": store.arrow_array(np.array(self._ids, dtype=np.int64), pa.int64()),
            "dst_id": store.arrow_array(dst_id, pa.int64()),
            "dst_qualname": store.arrow_array(dst_q, pa.string()),
            "resolution": _dictionary(how),
            "candidates": store.arrow_array(cands, pa.list_(pa.string())),
        }))
        self._ids = array("q")
        self._cols = ([], [], [], [])

    def extend(self, other: "_Rows") -> None:
        """`other`'s rows after these (the evaluation of later files)."""
        self.flush()
        other.flush()
        self.n += other.n
        for how, k in other.by_resolution.items():
            self.by_resolution[how] = self.by_resolution.get(how, 0) + k
        self.edge_ids.extend(other.edge_ids)
        self.tables.extend(other.tables)

    def __getstate__(self):             # sent by the helper process: without the qualnames
        self.flush()
        return self.n, self.by_resolution, self.edge_ids, self.tables

    def __setstate__(self, state) -> None:
        self.n, self.by_resolution, self.edge_ids, self.tables = state
        self._qual, self._ids, self._cols = {}, array("q"), ([], [], [], [])


def _dictionary(texts: list[str]) -> pa.DictionaryArray:
    """`texts` (a dozen distinct ones) dictionary-encoded, without `pyarrow.compute`
    (`Array.dictionary_encode` imports it: slow to import for a small run)."""
    import numpy as np
    codes: dict[str, int] = {}
    idx = np.fromiter((codes.setdefault(t, len(codes)) for t in texts), dtype=np.int32, count=len(texts))
    return pa.DictionaryArray.from_arrays(store.arrow_array(idx, pa.int32()),
                                          store.arrow_array(list(codes), pa.string()))


class _Reads:
    """What each file's evaluation read (`memo.Memo.end_unit`: file bits and name tokens),
    packed into one buffer as evaluation goes: the tokens are strings made during
    evaluation, and kept as such they would hold on to the memory the memo lets go (see
    `_Rows`). `items` gives them back as (bits, set of tokens)."""

    __slots__ = ("paths", "_buf", "_ends")

    def __init__(self):
        self.paths: list[str] = []
        self._buf = bytearray()
        self._ends = array("q")         # per file: end of its bits, end of its tokens

    def add(self, path: str, bits: int, names) -> None:
        self.paths.append(path)
        self._buf += bits.to_bytes((bits.bit_length() + 8) // 8, "little", signed=True)
        self._ends.append(len(self._buf))
        self._buf += "\0".join(names).encode("utf-8", "surrogatepass")
        self._ends.append(len(self._buf))

    def extend(self, other: "_Reads") -> None:
        """`other`'s files after these."""
        base = len(self._buf)
        self.paths.extend(other.paths)
        self._buf += other._buf
        self._ends.extend(end + base for end in other._ends)

    def __len__(self) -> int:
        return len(self.paths)

    def items(self):
        buf, ends, start = self._buf, self._ends, 0
        for k, path in enumerate(self.paths):
            mid, end = ends[2 * k], ends[2 * k + 1]
            bits = int.from_bytes(buf[start:mid], "little", signed=True)
            text = buf[mid:end].decode("utf-8", "surrogatepass")
            yield path, (bits, set(text.split("\0")) if text else set())
            start = end


def _resolve_set(con, m: Model, res: Resolver, scope_paths: set[str] | None, progress: bool = False,
                 processes: int = 1):
    """Evaluate the edges and imports rows of `scope_paths` (None: every file), one file
    at a time (a unit of evaluation, see `memo`): its imports rows first (matched to its
    `imports` edges by line and text), then its edges in order. Returns the new edge
    rows (`_Rows`: the changed ones), the imports rows whose resolved path changed (row
    ids, paths), and what each file's evaluation read (`_Reads`)."""
    where = "WHERE kind IN ('calls', 'imports', 'inherits', 'implements')"
    prm: dict | None = None
    if scope_paths is None:
        paths = sorted(m.paths)
    else:
        where += " AND path IN (SELECT unnest($p::VARCHAR[]))"
        prm = {"p": sorted(scope_paths)}
        paths = sorted(scope_paths & m.paths)
    counts = con.sql(f"SELECT path, count(*) FROM edges {where} GROUP BY path ORDER BY path",
                     params=prm).fetchall()
    total = sum(n for _, n in counts)
    in_two = (scope_paths is None and processes > 1 and total >= PARALLEL_MIN_EDGES
              and len(paths) > 1 and hasattr(os, "fork"))
    # each file's rows, sorted, are one span of its part's; a part (files in path order,
    # about `_EDGE_PART` rows) is read when evaluation reaches it, kept as Arrow and made
    # Python objects a file at a time (all edges at once as Arrow: ~40 MB, as objects
    # ~150 MB). Evaluating in two processes, all edges are one part, read before the fork
    # (the helper does not touch the database).
    part_max = total if in_two else _EDGE_PART
    spans: dict[str, tuple[int, int, int]] = {}     # path -> part, start, end
    parts: list[tuple[str, str]] = []               # first and last path of each part
    start = 0
    for p, n in counts:
        if not parts or start + n > part_max and start:
            parts.append((p, p))
            start = 0
        parts[-1] = (parts[-1][0], p)
        spans[p] = (len(parts) - 1, start, start + n)
        start += n
    cols = "edge_id, src_id, kind, dst_name, line, dst_id, dst_qualname, resolution, candidates"
    loaded: list = [None, None]                     # the part read last, its rows

    def part_rows(k: int):
        if loaded[0] != k:
            loaded[:] = [None, None]
            lo, hi = parts[k]
            loaded[:] = [k, con.sql(f"""SELECT {cols} FROM edges {where} AND path BETWEEN $lo AND $hi
                                        ORDER BY path, edge_id""",
                                    params={**(prm or {}), "lo": lo, "hi": hi}
                                    ).to_arrow_table()]
            release_unused_memory()     # what DuckDB's sort for the query freed
        return loaded[1]

    imports_of: dict[str, list[dict]] = defaultdict(list)
    for row in m.imports:
        if scope_paths is None or row["path"] in scope_paths:
            imports_of[row["path"]].append(row)
    bar = None
    if progress and total > PROGRESS_MIN_EDGES:
        from tqdm.auto import tqdm
        bar = tqdm(total=total, desc="resolving", unit="edge", unit_scale=True, leave=False)
    tick = bar.update if bar is not None else None
    got = None
    if in_two and parts:
        part_rows(0)
        got = _evaluate_in_two(m, res, part_rows, spans, imports_of, paths, tick)
    if got is None:
        got = _evaluate(m, res, part_rows, spans, imports_of, paths, tick)
    loaded.clear()
    if bar is not None:
        bar.close()
    return got


#: a full run with at least this many edges evaluates them in two processes (`processes`)
PARALLEL_MIN_EDGES = 50_000


def _evaluate(m: Model, res: Resolver, part_rows, spans: dict, imports_of: dict, paths, tick):
    """Evaluate the imports rows and edges of `paths`, one file (unit) at a time, in order
    (`part_rows(k)`: the edges of part k, `spans`: path -> part, start, end): (rows, imports
    rows whose resolved path changed as (row ids, paths), reads)."""
    out, imp_rows, reads = _Rows(m.qual), (array("q"), []), _Reads()
    add = out.add
    names = ("edge_id", "src_id", "kind", "dst_name", "line", "dst_id", "dst_qualname", "resolution",
             "candidates")
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
            for eid, src, kind, dst_name, line, old_id, old_q, old_res, old_c in zip(
                    *(part.column(n).to_pylist() for n in names)):
                add(eid, old_id, old_q, old_res, old_c, *_resolve_edge(m, res, src, kind, dst_name, line, imp_edge))
        reads.add(path, *res.memo.end_unit())
        if tick is not None:
            tick(b - a)
    out.flush()
    return out, imp_rows, reads


def _evaluate_in_two(m: Model, res: Resolver, part_rows, spans: dict, imports_of: dict, paths: list,
                     tick):
    """`_evaluate(..., paths, ...)` by this process and a forked helper: this one takes the
    files from the front, the helper from the back, one at a time, until they meet (so
    neither waits long for the other), and the helper sends its rows back through a pipe.
    A file's edges get the same values whichever files are evaluated with it and in
    whatever order (`memo`), so the rows are those of one process evaluating everything.
    None when no helper could be started; a helper that fails leaves its files to this
    process, and so does one that hangs: once this process is done with its files, it
    waits for the helper's result only while the helper shows progress (a file evaluated,
    bytes of the result; `HELPER_STALL_SECONDS`, `_helper_result`). The helper only
    evaluates (a full run's model holds everything evaluation reads, and `part_rows` has
    its one part already: no database access) and ends without running any exit handler."""
    for fam in sorted({f for f in m.fam.values() if f is not None}):
        rules_of(fam).before_helper(m)          # what it would read from the database later
    try:
        meet = _Meet(len(paths))
        r, w = os.pipe()
    except (OSError, ImportError):
        return None
    try:
        with warnings.catch_warnings():
            # Python 3.12 warns on forking a process with threads (DuckDB's): the helper
            # touches neither the database nor any lock but the one in `_Meet`
            warnings.simplefilter("ignore", DeprecationWarning)
            pid = os.fork()
    except OSError:
        os.close(r)
        os.close(w)
        return None
    if pid == 0:                                    # the helper
        code = 1
        try:
            os.close(r)
            # the database is not the helper's to touch (the parent's connection, forked):
            # should evaluation reach for it, the helper fails and the parent does its files
            m.con = None

            def taken():                            # from the back, as evaluated
                while (i := meet.take(front=False)) is not None:
                    yield paths[i]
            # each file it evaluates is a beat of progress the main process watches
            got = _evaluate(m, res, part_rows, spans, imports_of, taken(), meet.beat)
            data = pickle.dumps(got, protocol=pickle.HIGHEST_PROTOCOL)
            meet.beat()
            with os.fdopen(w, "wb") as fh:
                fh.write(data)
            code = 0
        except BaseException:       # noqa: BLE001 (the main process evaluates these files itself)
            pass
        finally:
            os._exit(code)
    os.close(w)
    mine = []
    helper_progress = _BackProgress(paths, spans, tick)

    def claimed():                                  # this process's files, taken as evaluated
        while (i := meet.take(front=True, helper=pid)) is not None:
            mine.append(i)
            helper_progress(meet.back())
            yield paths[i]
    try:
        out, imp_rows, reads = _evaluate(m, res, part_rows, spans, imports_of, claimed(), tick)
        res.memo.clear()                            # before the helper's rows arrive
    except BaseException:                           # (an interrupt): the helper ends too
        os.close(r)
        _kill(pid)
        raise
    got = _helper_result(pid, r, meet)
    if got is None:         # the helper failed or hung: its files evaluated here, as without it
        how = (f"made no progress for {HELPER_STALL_SECONDS:g} s" if meet.stalled else "failed")
        warnings.warn(f"the resolution helper process {how}; its files are evaluated in this one")
        got = _evaluate(m, res, part_rows, spans, imports_of, paths[len(mine):], None)
    helper_progress(len(mine))
    rows, imps, rd = got
    out.extend(rows)
    imp_rows[0].extend(imps[0])
    imp_rows[1].extend(imps[1])
    reads.extend(rd)
    return out, imp_rows, reads


class _BackProgress:
    """Shows on the progress bar (`tick`) the files taken from the back of `paths`, as
    their count grows: calling it with `upto` counts `paths[upto:]`, each file's edges once."""

    def __init__(self, paths: list, spans: dict, tick):
        self.paths, self.spans, self.tick = paths, spans, tick
        self.counted = len(paths)           # paths[counted:] are on the bar already

    def __call__(self, upto: int) -> None:
        if upto < self.counted:
            if self.tick is not None:
                self.tick(sum(self.spans[p][2] - self.spans[p][1]
                              for p in self.paths[upto:self.counted] if p in self.spans))
            self.counted = upto


#: a resolution helper that shows no progress for this long is taken as hung (a deadlock,
#: say, on a lock another thread held when it was forked): killed, and its files evaluated
#: by the main process. Progress is a file evaluated (`_Meet.beat`) or bytes of its result
#: arriving; one file of the standard library takes well under a second to evaluate, so a
#: minute leaves room for a slow file on a loaded machine.
HELPER_STALL_SECONDS = 60.0


class _Meet:
    """Indexes 0..n-1 handed out from both ends, one at a time, until the ends meet: two
    processes (this one and a forked helper) share the counters in shared memory, with
    the helper's heartbeat (`beat`), which the main process watches (`_helper_result`)."""

    def __init__(self, n: int):
        import mmap
        import multiprocessing
        self.buf = mmap.mmap(-1, 24)                # anonymous and shared with forked processes
        struct.pack_into("qqq", self.buf, 0, 0, n, 0)   # front, back, beats
        self.lock = multiprocessing.get_context("fork").Lock()
        self.stalled = False                        # the main process gave up on the helper

    def back(self) -> int:
        """The lowest index taken from the back so far (n when none was)."""
        return struct.unpack_from("q", self.buf, 8)[0]

    def beat(self, _edges: int = 0) -> None:
        """The helper shows progress (one more file evaluated; a `tick` of `_evaluate`).
        Only the helper writes the counter, so no lock."""
        struct.pack_into("q", self.buf, 16, struct.unpack_from("q", self.buf, 16)[0] + 1)

    def beats(self) -> int:
        return struct.unpack_from("q", self.buf, 16)[0]

    def take(self, front: bool, helper: int | None = None) -> int | None:
        """The next index from the front (or the back), None when none is left - or, for
        the process that started `helper`, when the helper is gone while holding the lock,
        or has held it for `HELPER_STALL_SECONDS` (hung: then it is killed, `stalled`)."""
        waited = 0.0
        while not self.lock.acquire(timeout=1.0):
            if helper is not None:
                if os.waitpid(helper, os.WNOHANG)[0] != 0:
                    return None
                waited += 1.0
                if waited >= HELPER_STALL_SECONDS:
                    self.stalled = True
                    _kill(helper, reap=False)
                    return None
        try:
            a, b = struct.unpack_from("qq", self.buf, 0)
            if a >= b:
                return None
            if front:
                struct.pack_into("q", self.buf, 0, a + 1)
                return a
            struct.pack_into("q", self.buf, 8, b - 1)
            return b - 1
        finally:
            self.lock.release()


def _kill(pid: int, reap: bool = True) -> None:
    """Kill the helper `pid` (and reap it, unless its result pipe will show it gone)."""
    try:
        os.kill(pid, signal.SIGKILL)
        if reap:
            os.waitpid(pid, 0)
    except (ChildProcessError, ProcessLookupError):
        pass


def _helper_result(pid: int, r: int, meet: _Meet):
    """What the helper sent (the `_evaluate` result of its files), or None if it failed -
    or hung: the pipe is read as the result arrives (a large one fills the pipe, and the
    helper waits for room), and while nothing arrives the helper's beats are watched;
    neither for `HELPER_STALL_SECONDS` and the helper is killed (`meet.stalled`)."""
    import select
    data = bytearray()
    try:
        waiting = select.poll()             # (not `select.select`: no limit on the fd's number)
        waiting.register(r, select.POLLIN)
        last, seen = time.monotonic(), meet.beats()
        while True:
            if waiting.poll(int(min(1.0, HELPER_STALL_SECONDS) * 1000)):   # data, or the end
                chunk = os.read(r, 1 << 20)
                if not chunk:                   # the helper closed the pipe: done, or gone
                    break
                data += chunk
                last = time.monotonic()
                continue
            now, beats = time.monotonic(), meet.beats()
            if beats != seen:
                last, seen = now, beats
            elif now - last >= HELPER_STALL_SECONDS:
                meet.stalled = True
                _kill(pid, reap=False)          # its end of the pipe closes: EOF next
    except BaseException:                       # (an interrupt): the helper ends too
        _kill(pid)
        raise
    finally:
        os.close(r)
    try:
        status = os.waitpid(pid, 0)[1]
    except ChildProcessError:           # reaped already: `_Meet.take` saw it end
        status = None
    if (meet.stalled or not data or status is None or not os.WIFEXITED(status)
            or os.WEXITSTATUS(status) != 0):
        return None
    return pickle.loads(data)


def _resolve_edge(m: Model, res: Resolver, src, kind: str, dst_name: str, line, imp_edge: dict):
    """(dst_id, dst_qualname, resolution, candidates) of one edge."""
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
    if targets:
        return _target_row(m, targets, how, fam, dst_name, res)
    if how == "known-receiver":
        return None, None, "unresolved", None
    return _fallback(m, res, fam, res.callee_text(src, dst_name, line), src)


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


def _write_candidates(con, edge_ids: list[int] | None = None, changed: list[str] | None = None,
                      before: deps.Before | None = None) -> None:
    """Rebuild `call_candidates` (one row per candidate of an ambiguous edge, with the
    candidate's symbol id) from `edges.candidates`: one set-wise statement, so it never
    drifts from the edges or from re-created symbols.

    Incremental runs (`edge_ids`: the edges just re-resolved, `changed`: the changed
    paths) rebuild the rows of those edges only, plus the rows a change can make wrong
    elsewhere: rows of edges that are gone (or have no candidates now), rows whose symbol
    is gone, and rows naming a qualname defined in a changed file. The result is the same
    as a full rebuild. `before` (`deps.Before` of every changed file) names the edges and
    symbols that are gone: looked up by id instead of scanned for (an edge that has no
    candidates now and is not gone was re-resolved, so it is among `edge_ids`)."""
    if edge_ids is None:
        store.run(con, "DELETE FROM call_candidates")
        store.run(con, """
            INSERT INTO call_candidates
            SELECT c.edge_id, c.q, s.symbol_id
            FROM (SELECT edge_id, unnest(candidates) AS q FROM edges WHERE candidates IS NOT NULL) c
            LEFT JOIN symbols s ON s.qualname = c.q""")
        return
    if before is not None:
        gone = """
            UNION SELECT edge_id FROM call_candidates WHERE edge_id IN (SELECT unnest($gone_e::BIGINT[]))
            UNION SELECT edge_id FROM call_candidates WHERE symbol_id IN (SELECT unnest($gone_s::BIGINT[]))"""
        prm = {"gone_e": before.edge_ids, "gone_s": before.symbol_ids}
    else:
        gone = """
            UNION SELECT c.edge_id FROM (SELECT DISTINCT edge_id FROM call_candidates) c
                  ANTI JOIN (SELECT edge_id FROM edges WHERE candidates IS NOT NULL) e
                    ON e.edge_id = c.edge_id
            UNION SELECT c.edge_id FROM call_candidates c
                  WHERE c.symbol_id IS NOT NULL
                    AND NOT EXISTS (SELECT 1 FROM symbols s WHERE s.symbol_id = c.symbol_id)"""
        prm = {}
    # the edges to redo into Python (no temporary table), then their rows deleted and rebuilt
    redo = [r[0] for r in store.run_over(con, pa.table({"edge_id": store.arrow_array(edge_ids, pa.int64())}), f"""
            SELECT edge_id FROM _wb_rows{gone}
            UNION SELECT c.edge_id FROM call_candidates c
                  JOIN (SELECT DISTINCT qualname FROM symbols WHERE list_contains($chg, path)) q
                    ON q.qualname = c.qualname""", {"chg": changed or [], **prm})]
    if not redo:
        return
    ids = {"ids": sorted(redo)}
    store.run(con, "DELETE FROM call_candidates WHERE edge_id IN (SELECT unnest($ids::BIGINT[]))", ids)
    store.run(con, """
        INSERT INTO call_candidates
        SELECT c.edge_id, c.q, s.symbol_id
        FROM (SELECT edge_id, unnest(candidates) AS q FROM edges
              WHERE candidates IS NOT NULL AND edge_id IN (SELECT unnest($ids::BIGINT[]))) c
        LEFT JOIN symbols s ON s.qualname = c.q""", ids)


_WRITE_BATCH = 50_000
_EDGE_PART = 25_000             # edges read from the table at a time (`_resolve_set`)


def _write_back(con, rows: _Rows, imp_rows: tuple[array, list], rebuild: bool = False) -> int:
    """Write the changed edge rows (`_Rows.tables`; a target's qualname from `symbols`)
    and the imports rows whose resolved path changed (row ids, paths); returns how many
    rows. The edge rows go in with an `UPDATE` per table (a smaller join each), or, with
    `rebuild` (a full run: most rows change), into the edges table written anew
    (`_rebuild_edges`)."""
    n = 0
    if rebuild and rows.tables:
        n = _rebuild_edges(con, rows)
    while rows.tables:
        tbl = rows.tables.pop(0)
        store.run_over(con, tbl, """
            UPDATE edges SET dst_id = t.dst_id, dst_qualname = t.dst_qualname,
                             resolution = t.resolution, candidates = t.candidates
            FROM (SELECT w.edge_id, w.dst_id, coalesce(w.dst_qualname, s.qualname) AS dst_qualname,
                         w.resolution, w.candidates
                  FROM _wb_rows w LEFT JOIN symbols s ON s.symbol_id = w.dst_id) t
            WHERE edges.edge_id = t.edge_id""")
        n += tbl.num_rows
        del tbl
    rids, rpaths = imp_rows
    if rids:
        import numpy as np
        tbl = pa.table({"rid": store.arrow_array(np.array(rids, dtype=np.int64), pa.int64()),
                        "resolved_path": store.arrow_array(rpaths, pa.string())})
        store.run_over(con, tbl, """UPDATE imports SET resolved_path = t.resolved_path
                                    FROM _wb_rows t WHERE imports.rowid = t.rid""")
        n += len(rids)
    return n


def _rebuild_edges(con, rows: _Rows) -> int:
    """The edges table written anew with the changed rows (`rows.tables`, let go) in place
    of theirs, in one pass (the old table left join the changed rows, a target's qualname
    from `symbols`), then swapped in under the old name: the same columns, constraints and
    rows as the `UPDATE` would leave. Returns how many rows changed."""
    tbl = pa.concat_tables(rows.tables)
    rows.tables.clear()
    cols = schema.columns("edges")
    new = {"dst_id": "t.dst_id", "dst_qualname": "coalesce(t.dst_qualname, s.qualname)",
           "resolution": "t.resolution", "candidates": "t.candidates"}
    pick = ", ".join(f"CASE WHEN t.edge_id IS NULL THEN e.{c} ELSE {new[c]} END" if c in new else f"e.{c}"
                     for c in cols)
    # one thread, and each row group written out as it fills: else DuckDB buffers up to
    # five row groups per thread (the whole table of the standard library, ~60 MB more at
    # the write, next to the resolver's model)
    saved = store.one(con, "SELECT current_setting('threads'), current_setting('write_buffer_row_group_count')")
    store.run(con, "SET threads = 1")
    store.run(con, "SET write_buffer_row_group_count = 1")
    try:
        store.run(con, "DROP TABLE IF EXISTS _wb_edges")
        store.run(con, schema.create_sql("edges", "_wb_edges"))
        store.run_over(con, tbl, f"""
            INSERT INTO _wb_edges
            SELECT {pick}
            FROM edges e LEFT JOIN _wb_rows t ON t.edge_id = e.edge_id
            LEFT JOIN symbols s ON s.symbol_id = t.dst_id""")
    finally:
        store.run(con, f"SET threads = {int(saved[0])}")
        store.run(con, f"SET write_buffer_row_group_count = {int(saved[1])}")
    store.run(con, "DROP TABLE edges")
    store.run(con, "ALTER TABLE _wb_edges RENAME TO edges")
    return tbl.num_rows


__all__ = ["resolve_edges", "resolve_import", "ResolveStats", "RESOLUTIONS", "RESOLVER_VERSION"]
