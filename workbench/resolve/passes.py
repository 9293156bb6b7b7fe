"""The passes that read edges, evaluate them and write the results back.

`resolve_edges(con, changed_paths)` fills `edges.dst_id`, `dst_qualname`, `resolution`
and `candidates`, `imports.resolved_path` and `call_candidates`. Resolution works on the
whole set at once: the needed columns are loaded into a `Model`, every edge is evaluated
by a `Resolver` (the edges read from the table a part at a time, in path order), and only
changed rows are written back, kept as Arrow tables meanwhile: a full run writes the
edges table anew in one pass and swaps it in (`writeback._rebuild_edges`), an
incremental one uses an `UPDATE ... FROM` per table. (An `UPDATE` that sets the list
column `candidates` writes whole new row versions; over every edge, the old ones stayed
in the file as free blocks, a third of the database of the standard library.)

Incremental runs (`changed_paths` given) re-resolve the edges of the changed files, the
edges that pointed into them (their `dst_id` no longer exists and no single symbol has
their target's qualname now: `deps.rebind`), and the edges whose target name or class
hierarchy the change may affect (not those of files that only read an edited file whose
edit added nothing they can reach: `quiet.quiet`). They turn
bindings into Python objects only for the files evaluation reaches (argument rows: only
for the callee names it asks about), from the same bulk query kept as Arrow, and rebuild
`call_candidates` only for the edges they touched (plus rows a change made stale). When
the process still holds the model of the run that wrote the database (`kept`), an
incremental run refreshes that model for the changed files instead of loading it. A full
run whose model the process keeps lets its bindings go before its writes, then holds
again the rows of the files most files read (`HOLD_READ_SHARE`), which the first
incremental run's prefetch would load otherwise.

A full run over many edges (`PARALLEL_MIN_EDGES`) evaluates in two processes (`processes`):
two forked helpers, one taking the files from the front, the other from the back, while
this one waits with its memory as it was (`parallel._evaluate_in_two`); before its first
file the back helper works out what every file provides (`deps.provides_column`, from
the model alone; written with the reads by `deps.write`, which works it out after
evaluation otherwise). A file's edges get
the same values whichever files are evaluated with it and in whatever order (`memo`), so
the rows are those of one process evaluating everything.

This module holds the runs (`resolve_edges`: full or incremental, which files, the model,
the order of the steps) and the reading of edges in parts (`_resolve_set`). The steps:

=============  =====================================================================
`fileeval`     evaluating files one at a time (`_evaluate`): an edge's row from what
               evaluation found, name-based fallbacks, imports rows (`resolve_import`)
`parallel`     the evaluation in two processes: forked helpers, the files shared from
               both ends (`_Meet`), their results and heartbeats watched (`_helper_results`)
`rows`         what evaluation keeps for the write: the changed rows as Arrow tables
               (`_Rows`), what each file read packed in one buffer (`_Reads`)
`writeback`    the rows written back (`_write_back`: `UPDATE`, or the edges table
               written anew, `_rebuild_edges`) and `call_candidates` rebuilt
=============  =====================================================================
"""
from __future__ import annotations

import gc
import os
import time
import warnings
from collections import defaultdict
from dataclasses import dataclass, field
from itertools import groupby

from .. import store
from ..gcpause import collector_runs, gc_paused, release_unused_memory
from ..versions import resolver_version
from .evaluate import Resolver
from .exprs import clear_caches
from . import deps, kept, quiet, setting, stored
from .fileeval import _evaluate, resolve_import
from .model import Model
from .parallel import Meanwhile, _evaluate_in_two
from .values import clear_order_keys
from .writeback import _write_back, _write_candidates


RESOLVER_VERSION = resolver_version()      # a database resolved by other code is resolved again in full
RESOLUTIONS = ("local", "self", "super", "import", "alias", "reexport", "inferred",
               "name-unique", "ambiguous", "builtin", "external", "unresolved", "callback", "implicit")


@dataclass
class ResolveStats:
    edges: int = 0                  # edges evaluated
    updated: int = 0                # rows written back
    files: int = 0                  # source files whose edges were evaluated
    full: bool = True
    model_kept: bool = False        # the model of an earlier run in this process, refreshed
    model_stored: bool = False      # the model an earlier run stored next to the database, refreshed
    seconds: float = 0.0
    by_resolution: dict = field(default_factory=dict)
    callbacks: int = 0              # rows evaluation added for the evaluated files: callback and implicit ones
    implicit: bool = False          # the run added implicit rows (`setting`)
    wrote_meta: bool = False        # the run wrote its `meta` values (and the caller's, `meta`)

    def __str__(self) -> str:
        kinds = ", ".join(f"{k} {v}" for k, v in sorted(self.by_resolution.items(), key=lambda kv: -kv[1]))
        return (f"resolved {self.edges} edges of {self.files} files "
                f"({'full' if self.full else 'incremental'}) in {self.seconds:.2f}s, "
                f"{self.updated} rows updated: {kinds}")


def resolve_edges(con, changed_paths=None, *, full: bool | None = None,
                  progress: bool = False, before: quiet.Before | None = None,
                  processes: int | None = None, private: bool = False,
                  stored_at: str | None = None, meta: dict | None = None,
                  preloaded: tuple | None = None, prefetched=None,
                  implicit: bool | None = None) -> ResolveStats:
    """Resolve calls/imports/inherits/implements edges and imports.resolved_path.

    `changed_paths=None` (or a database never resolved by this version) resolves
    everything; a list of changed/added/removed paths resolves only what they can affect;
    an empty list does nothing. `progress` shows a bar (tqdm.auto) when there are more
    than `PROGRESS_MIN_EDGES` edges to evaluate. `before`: the changed files as they were
    before the edit (`quiet.before_edit`, taken by the indexer before it replaced their
    rows): the files that read one of them are left alone when its edit added only what no
    other file can reach (`quiet.quiet`), and what is gone is looked up by id.
    `processes`: at most this many processes evaluate a full run's edges (default: 2 on a
    machine with 2 cores or more; see `PARALLEL_MIN_EDGES`). `private`: nobody else can
    open the database before the run ends (a new file or a snapshot, `snapshot.is_private`;
    a failed run discards it): a full run may then commit part-way (after writing the edges
    table anew, to let its old blocks be reused by the rows written after it).
    `stored_at`: where the database's model is stored for the runs of other processes
    (`stored.path_for`; None: no stored model is read or written): an incremental run
    with no model kept in the process refreshes the stored one when the database's token
    leads back to it, and logs itself; a run that built its model stores it.
    `meta`: values the caller writes into `meta` in the same transaction, written with the
    run's own in one statement when the run writes those (`ResolveStats.wrote_meta`; a run
    with nothing to do writes none).
    `preloaded`: (token, what `stored.load(stored_at, token, ...)` gave), loaded by the
    caller beforehand; used in place of loading it when `token` is the database's.
    `prefetched`: the caller's prefetch for the kept model or the preloaded one
    (`readahead.Prefetch`), waited for before the model is refreshed; one that failed
    part-way lets the model go.
    `implicit`: add the calls Python makes without a call expression (rows of resolution
    `implicit`, `setting`); None keeps the database's setting (off for a new one). A run
    whose setting differs from the one the database was resolved with resolves everything.
    """
    with gc_paused():                 # millions of small tuples, no cycles: skip the collector
        return _resolve_edges(con, changed_paths, full, progress, before,
                              processes if processes is not None else min(2, os.cpu_count() or 1), private,
                              stored_at, meta, preloaded, prefetched, implicit)


PROGRESS_MIN_EDGES = 20_000

#: a private full run (`resolve_edges(private=True)`) that wrote at least this many rows
#: commits and checkpoints right after the write (the edges table written anew), so the
#: old table's blocks are free for the candidates, dependencies and meta rows written
#: next (a small repository's run stays one transaction: its old table holds few blocks)
PRIVATE_COMMIT_MIN_ROWS = 50_000


def _resolve_edges(con, changed_paths, full, progress: bool = False,
                   before: quiet.Before | None = None, processes: int | None = None,
                   private: bool = False, stored_at: str | None = None,
                   meta: dict | None = None, preloaded: tuple | None = None,
                   prefetched=None, implicit: bool | None = None) -> ResolveStats:
    t0 = time.perf_counter()
    stats = ResolveStats()
    metas = store.get_metas(con, "resolver_version", "resolve_token", setting.IMPLICIT_META)
    version = metas.get("resolver_version")
    implicit = setting.implicit_of(metas, implicit)
    stats.implicit = implicit
    want = setting.version_mark(RESOLVER_VERSION, implicit)
    if full is None:
        full = (changed_paths is None or version != want
                or deps.needs_full(con, list(changed_paths)))
    if not full and not changed_paths:
        stats.full = False
        stats.seconds = time.perf_counter() - t0
        return stats
    stats.full = full
    # the model an earlier run in this process left for this state of the database: refreshed
    # for the changed files in an incremental run, let go before a full one builds its own
    found = metas.get("resolve_token")
    model = kept.take(found)
    # the prefetch of the model loaded beforehand (`preloaded`) is waited for once the texts of
    # the files changed since it was stored are read (below), any other now
    pre = preloaded is not None and preloaded[0] == found
    got = preloaded[1] if pre and not full else None
    later = prefetched is not None and model is None and got is not None and prefetched.model is got[0]
    if prefetched is not None and not later and not prefetched.wait() and prefetched.model is model:
        model = None                    # its bindings half loaded: built afresh
    # a process keeping none (a new one): the model a run of another process stored, when the
    # database's token leads back to it, refreshed for what changed since as well
    since: set[str] = set()
    if model is None and not full:
        if not pre:
            got = stored.load(stored_at, found, want)
        if got is not None:
            model, since = got
            stats.model_stored = True
    if model is not None and not full:
        try:
            if stats.model_stored and model.row_texts is not None:
                # the stored texts lack the rows the logged runs' files hold now (this run's
                # files get theirs from their facts, `quiet.quiet`); read while the loaded
                # model's prefetch may still run (it reads none of them)
                model.row_texts.add_files(con, sorted(since - set(changed_paths)))
            if later and not prefetched.wait():
                model = None            # its bindings half loaded: built from the tables
                stats.model_stored = False
            else:
                model.refresh(con, sorted(since | set(changed_paths)))
                stats.model_kept = not stats.model_stored
        except Exception as exc:        # never worse than no kept model: build it afresh
            warnings.warn(f"the kept resolution model could not be refreshed ({exc!r}); loading it again")
            model = None
            stats.model_stored = False
    if not (stats.model_kept or stats.model_stored):
        model = None
        model = Model(con, bulk_bindings=full, implicit=implicit)
        model.names_stored = stored_at is not None      # (`Bindings.release_bindings`)
    # (the edges into the changed files' symbols, read by the prefetch's thread)
    into = prefetched.edges_into() if prefetched is not None and prefetched.model is model else None
    scope_paths = None if full else deps.affected(con, model, list(changed_paths), before, into)
    if scope_paths is not None:
        model.prefetch(*deps.previous_reads(con, scope_paths, model), resolving=len(scope_paths))
    res = Resolver(model, implicit=implicit)
    # what the files provide (`deps.provides_column`, for `deps.write`) depends on the model
    # alone, which in a full run holds every row it needs: evaluating in two processes, the
    # helper works it out before its first file, while this one evaluates
    meanwhile = (Meanwhile(lambda: deps.provides_column(None, model, model.paths))
                 if full and model.holds_every_arg_row() else None)
    rows, imp_rows, reads = _resolve_set(con, model, res, scope_paths, progress, processes, meanwhile)
    # evaluation is done: let its memo and the bindings go before the writes need memory
    # (and its caches: what outlives evaluation keeps the allocator's arenas it sits in)
    del res
    if full:        # a kept model loads them again per file, as later runs reach them
        clear_caches()
        clear_order_keys()
        model.fallback_cache = {}       # a refresh starts it afresh anyway
        model.release_bindings(arg_names=kept.KEEP > 0)
        # ... and what they held goes back to the system before the writes (the C
        # library's heap keeps it otherwise, by how the helpers' results came in: on the
        # standard library up to ~35 MiB, all of it under the write-back's peak)
        release_unused_memory()
    stats.files = len(reads)
    stats.edges = rows.n
    stats.by_resolution = rows.by_resolution
    stats.callbacks = sum(t.num_rows for t in rows.callbacks)
    # the caller's meta values and the run's, written in one statement at the end
    meta = dict(meta or {})
    stats.updated = _write_back(con, rows, imp_rows, rebuild=full,
                                paths=None if scope_paths is None else sorted(scope_paths), meta=meta)
    if full and private and stats.updated >= PRIVATE_COMMIT_MIN_ROWS:
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
        _write_candidates(con, list(rows.edge_ids), sorted(changed_paths), before, model)
    del rows
    deps.write(con, model, dict(reads.items()), full, meanwhile and meanwhile.result)
    # a model built from the tables (or refreshed for many files) is stored anew; the runs
    # of a model kept or loaded from there log themselves
    save = stored_at is not None and not (
        stats.model_kept or stats.model_stored and len(since | set(changed_paths)) <= stored.REBASE_FILES)
    if (full and kept.KEEP > 0) or (save and model.row_texts is None):
        # what the next runs' `quiet.quiet` searches, for a model that is kept or stored
        # (~0.06 s on the standard library; a process keeping none and storing none does without)
        if full:
            release_unused_memory()     # what the dependencies' write freed, below the query's peak
        model.row_texts = quiet.RowTexts.load(con)
    if full and kept.KEEP > 0 and model.first_prefetch():
        # a model the process keeps holds the rows of the files most files read: the next
        # run's prefetch (`readahead.Prefetch`) need not load them again
        try:
            model.prefetch_before(con, _most_read(model, reads), ())
        except Exception:       # never worse than holding none: the rows loaded part-way go
            model.release_bindings()
    del meanwhile
    token = kept.new_token()
    store.set_meta(con, **meta, resolver_version=want, resolve_token=token,
                   **{setting.IMPLICIT_META: setting.meta_value(implicit)})
    stats.wrote_meta = True
    kept.put(token, model)
    if save:
        stored.defer(stored_at, "save", token, model, want)
    elif stored_at is not None:
        stored.defer(stored_at, "record", found, token, sorted(set(changed_paths)))
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


#: a full run whose model the process keeps (`kept.KEEP`) loads again, once its writes are
#: done, the bindings rows of the files that at least this share of the files read (what
#: `Model.prefetch_before` holds per scope): the first incremental run's prefetch
#: (`readahead.Prefetch`) then loads only the others. Standard library: 98 files, 13% of
#: the rows a prefetch can hold (~11 MiB kept, 0.06-0.1 s of CPU); a file's last
#: resolution read a mean of 46% of its prefetch's rows from them, an edit of
#: `json/decoder.py` 84 of its 87 files (its prefetch: about half the CPU; the scan of the
#: table stays)
HOLD_READ_SHARE = 0.1


def _most_read(m: Model, reads) -> set[str]:
    """The files at least `HOLD_READ_SHARE` of the evaluated files read (`reads`,
    `rows._Reads`), and at least two of them."""
    import numpy as np
    counts = reads.readers(len(m.file_index))
    by_bit = sorted(m.file_index, key=m.file_index.__getitem__)
    need = max(2, HOLD_READ_SHARE * len(reads))
    return {by_bit[i] for i in np.flatnonzero(counts >= need).tolist()}


#: a full run with at least this many edges evaluates them in two processes (`processes`)
PARALLEL_MIN_EDGES = 50_000
_EDGE_PART = 25_000             # edges read from the table at a time (`_resolve_set`)
_TWO_PART = 100_000             # ... per query, evaluating in two processes (all read before the fork)


def _resolve_set(con, m: Model, res: Resolver, scope_paths: set[str] | None, progress: bool = False,
                 processes: int = 1, meanwhile=None):
    """Evaluate the edges and imports rows of `scope_paths` (None: every file), one file
    at a time (a unit of evaluation, see `memo`): its imports rows first (matched to its
    `imports` edges by line and text), then its edges in order. Returns the new edge
    rows (`rows._Rows`: the changed ones, and the callback rows found), the imports rows
    whose resolved path changed (row ids, paths), and what each file's evaluation read
    (`rows._Reads`). Callback rows are evaluation's output, never read as edges.
    `meanwhile` (`parallel.Meanwhile`): work a helper does before its first file (not
    done when one process evaluates)."""
    where = ("WHERE kind IN ('calls', 'imports', 'inherits', 'implements') "
             "AND resolution IS DISTINCT FROM 'callback' AND resolution IS DISTINCT FROM 'implicit'")
    prm: dict | None = None
    if scope_paths is None:
        paths = sorted(m.paths)
    else:
        where += " AND path IN (SELECT unnest($p::VARCHAR[]))"
        prm = {"p": sorted(scope_paths)}
        paths = sorted(scope_paths & m.paths)
    cols = "edge_id, src_id, kind, dst_name, line, dst_id, dst_qualname, resolution, candidates"
    # an incremental run's files: their rows read at once and counted here (one query, not
    # one to count and one to read), unless they hold more than one part's
    first = None
    if scope_paths is not None:
        first = con.sql(f"""SELECT path, {cols} FROM edges {where} ORDER BY path, edge_id
                            LIMIT {_EDGE_PART + 1}""", params=prm).to_arrow_table()
        if first.num_rows > _EDGE_PART:
            first = None
    if first is not None:
        counts = [(p, sum(1 for _ in run)) for p, run in groupby(first.column("path").to_pylist())]
    else:
        counts = con.sql(f"SELECT path, count(*) FROM edges {where} GROUP BY path ORDER BY path",
                         params=prm).fetchall()
    total = sum(n for _, n in counts)
    in_two = (scope_paths is None and processes > 1 and total >= PARALLEL_MIN_EDGES
              and len(paths) > 1 and hasattr(os, "fork"))
    # each file's rows, sorted, are one span of its part's; a part (files in path order,
    # about `_EDGE_PART` rows) is read when evaluation reaches it, kept as Arrow and made
    # Python objects a file at a time (all edges at once as Arrow: ~40 MB, as objects
    # ~150 MB). Evaluating in two processes, every part (of about `_TWO_PART` rows) is
    # read before the fork (the helpers do not touch the database): a query per part, so
    # DuckDB's sort holds one part's rows at a time, not every edge's (~55 MiB less at
    # that moment on the standard library, the run's peak otherwise)
    part_max = _TWO_PART if in_two else _EDGE_PART
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
    loaded: list = [None, None] if first is None else [0, first]    # the part read last, its rows
    read: dict = {}                                 # evaluating in two: every part's rows

    def part_rows(k: int):
        if k in read:
            return read[k]
        if loaded[0] != k:
            loaded[:] = [None, None]
            lo, hi = parts[k]
            loaded[:] = [k, con.sql(f"""SELECT {cols} FROM edges {where} AND path BETWEEN $lo AND $hi
                                        ORDER BY path, edge_id""",
                                    params={**(prm or {}), "lo": lo, "hi": hi}
                                    ).to_arrow_table()]
            if total > _EDGE_PART:
                release_unused_memory()     # what DuckDB's sort for the query freed
        return loaded[1]

    imports_of: dict[str, list[dict]] = defaultdict(list)
    if scope_paths is not None:
        m.current_imports(scope_paths)
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
        for k in range(len(parts)):
            read[k] = part_rows(k)
        got = _evaluate_in_two(m, res, part_rows, spans, imports_of, paths, tick, meanwhile)
    if got is None:
        got = _evaluate(m, res, part_rows, spans, imports_of, paths, tick)
    loaded.clear()
    read.clear()
    if bar is not None:
        bar.close()
    return got


__all__ = ["resolve_edges", "resolve_import", "ResolveStats", "RESOLUTIONS", "RESOLVER_VERSION",
           "PRIVATE_COMMIT_MIN_ROWS"]

