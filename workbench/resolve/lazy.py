"""Incremental runs' bindings, loaded as evaluation reaches them: `LazyBindings`, a mixin
of `model.Model` (see that module's doc).

A lazy model (`Model.lazy`) takes a file's bindings rows, or the argument rows of calls to
a callee, only when evaluation asks for them (`_load_path`, `_load_args`), from one scan of
the table kept as Arrow (`_BindingRows`, `_lazy_index`); `prefetch` takes what the files
to resolve read last time at once (from that copy, or in a query or two for a run of a few
files or a kept model: one scan when the argument rows' names are known). A file's rows
are held back per scope (`_defer_path_rows`) and grouped into the model's indexes only
when evaluation first reads that scope: the indexes are `_Deferred` mappings, whose
lookups (`get`, `in`) group a held-back scope's rows first. The rows, and their order, are
those of the bulk load (`bindings.Bindings._add_rows`).

The methods use the state `Model._init_bindings` sets and call the other methods of the
model through `self`; this module imports neither the model nor any language module.
"""
from __future__ import annotations

from collections import defaultdict

from .. import store
from ..insert import np_ints
from .columns import cols

#: bindings kinds `Bindings._add_rows` puts in no index (the language reads them from the
#: table)
_UNGROUPED = frozenset({"global", "getattr_case"})
#: and those of a model keeping no implicit sites (`Model.implicit`)
_UNGROUPED_NO_SITES = _UNGROUPED | {"implicit"}


def ungrouped_kinds(model) -> frozenset:
    """The bindings kinds no index of `model` holds (`implicit` ones unless it keeps
    implicit sites)."""
    return _UNGROUPED if getattr(model, "implicit", False) else _UNGROUPED_NO_SITES
# the columns `_prefetch_in_one_scan` reads
_SCAN_COLS = ("src_id, kind, name, value, value_type, value_id, line, path, rowid AS rid, "
              "(kind = 'arg')::TINYINT AS is_arg")


def one_scan(con, names: dict[str, tuple[str, ...]], paths: list[str], keys: list[str],
             going=None) -> tuple:
    """The scan `LazyBindings._prefetch_in_one_scan` reads through `con`: (the rows as one
    Arrow table, columns `_SCAN_COLS`, in any order; each argument row name of `keys` in the
    argument names `names` (`Model._arg_names`) -> its key). Needs no model but its names.
    `going()` is called right before the query is sent."""
    key_of = {name: key for key in keys for name in names.get(key, ())}
    if going is not None:
        going()
    tbl = con.sql(f"""SELECT {_SCAN_COLS} FROM bindings
                      WHERE CASE WHEN kind = 'arg' THEN name IN (SELECT unnest($n::VARCHAR[]))
                                 ELSE path IN (SELECT unnest($p::VARCHAR[])) END""",
                  params={"p": paths, "n": sorted(key_of)}).to_arrow_table().combine_chunks()
    return tbl, key_of


class LazyBindings:
    """Bindings per file and argument rows per callee, as evaluation reaches them: methods
    of `model.Model`."""

    # ------------------------------------------------------------ incremental: lazy bindings
    # at most this many files to resolve: a model holding no bindings yet asks for what
    # they read last time in two queries rather than copying the whole table. Evaluation
    # of a file or two seldom reaches past those (standard library, one-file edits whose
    # readers are left alone: 0.07 s instead of 0.11 s for the copy); of more, it does, and
    # the first miss copies the table anyway.
    PREFETCH_QUERY_MAX = 2

    def prefetch(self, paths, callee_keys, resolving: int | None = None) -> None:
        """Incremental runs: the bindings of `paths` and the argument rows of calls to
        `callee_keys` (what the files to resolve read last time, see `deps.previous_reads`:
        most of what evaluation reaches again). A model with no bindings yet takes them
        from the whole-table copy that whatever else evaluation reaches comes from
        (`_lazy_index`), unless only `resolving` <= `PREFETCH_QUERY_MAX` files are to be
        resolved; a kept model, which holds most of them already, asks for the missing
        ones in two queries. The rows are those, and in the order, the bulk load gives."""
        if not self.lazy or self._bind_loaded:
            return
        fresh = (not self._lazy_loaded and not self.args_by_callee
                 and (resolving is None or resolving > self.PREFETCH_QUERY_MAX))
        paths = sorted(set(paths) - self._lazy_loaded)
        keys = sorted(k for k in set(callee_keys) if k and k not in self.args_by_callee)
        if fresh and (paths or keys):
            bulk = self._lazy_index()
            if self._bind_loaded:
                return
            self._lazy_loaded.update(paths)
            self._defer_path_rows(bulk.rows(bulk.path_rows(paths)))
            per_key = [bulk.key_rows(k) for k in keys]
            c = bulk.rows(per_key)
            start = 0
            for key, idx in zip(keys, per_key):
                end = start + len(idx)
                self.args_by_callee[key] = self._arg_tuples(c, start, end)
                start = end
            return
        if paths and keys and self._arg_names is not None:
            self._prefetch_in_one_scan(paths, keys)
            return
        if paths:
            # a semi join on the paths: a third less than a list_contains per row
            c = cols(self.con, """SELECT src_id, kind, name, value, value_type, value_id, line
                                  FROM bindings WHERE kind <> 'arg' AND path IN (SELECT unnest($p::VARCHAR[]))
                                  ORDER BY path, line, rowid""", {"p": paths})
            self._lazy_loaded.update(paths)
            self._defer_path_rows(c)
        if keys and self._arg_names is not None:
            self._prefetch_named_args(keys)
        elif keys:
            # the keys are not empty: the callee's last name as such (no `nullif`), and a
            # semi join on the keys (a third less than `_CALLEE_KEY` in a list_contains)
            c = cols(self.con, f"""SELECT * FROM (
                                     SELECT {self._ARG_KEY} AS callee_key, src_id, kind, name, value,
                                            value_type, value_id, line, path, rowid AS rid
                                     FROM bindings WHERE kind = 'arg')
                                   WHERE callee_key IN (SELECT unnest($k::VARCHAR[]))
                                   ORDER BY path, line, rid""", {"k": keys})
            got: dict[str, list[tuple]] = {k: [] for k in keys}
            ns = self.ns
            for key, src, kind, name, value, vtype, vid, line in zip(
                    c["callee_key"], c["src_id"], c["kind"], c["name"], c["value"], c["value_type"],
                    c["value_id"], c["line"]):
                scope = ns(src)
                if scope is not None:
                    got[key].append((scope, kind, name, value, vtype, vid, line))
            self.args_by_callee.update(got)

    def _prefetch_in_one_scan(self, paths: list[str], keys: list[str], con=None) -> None:
        """`prefetch` of a model that knows the argument rows' names (`_arg_names`): the
        files' rows and the keys' argument rows in one scan of the table, unsorted (DuckDB's
        sort cost a fifth of the query), put in the bulk load's order (path, line, row id)
        here. The same rows as the two queries of `prefetch` and `_prefetch_named_args`.
        `con`: the connection to read through (default the model's)."""
        self._take_scanned(*one_scan(con or self.con, self._arg_names, paths, keys), paths, keys)

    def _take_scanned(self, tbl, key_of: dict[str, str], paths: list[str], keys: list[str]) -> None:
        """The rows of `tbl` (columns `_SCAN_COLS`: the files' rows but their argument
        rows, and the argument rows whose name `key_of` maps to a key of `keys`, in any
        order) put in the bulk load's order and held back per scope; the keys' argument
        rows by callee."""
        import numpy as np
        self._lazy_loaded.update(paths)
        got: dict[str, list[tuple]] = {k: [] for k in keys}
        if tbl.num_rows:
            # the path's rank among the row's distinct paths, then line (nulls last, as
            # DuckDB orders them) and row id; without `pyarrow.compute` (its
            # `dictionary_encode`, `fill_null`, `take`), whose import costs ~0.06 s of CPU in
            # a new process (the `workbench index` command's)
            row_paths = tbl.column("path").to_pylist()
            rank_of = {p: r for r, p in enumerate(sorted(set(row_paths)))}
            rank = np.fromiter(map(rank_of.__getitem__, row_paths), dtype=np.int64, count=len(row_paths))
            line = tbl.column("line").chunk(0)
            lines = np_ints(line)
            if line.null_count:
                lines = np.where(_np_valid(line), lines, np.iinfo(np.int64).max)
            order = np.lexsort((np_ints(tbl.column("rid").chunk(0)), lines, rank))
            is_arg = np_ints(tbl.column("is_arg").chunk(0))[order]
            # the files' rows grouped by scope here, on the Arrow columns (each scope's rows
            # one slice of the lists made next, in load order within it): only the rows
            # some index holds become Python objects, and grouping a scope's rows when
            # evaluation reads it takes slices instead of gathering positions
            rows = order[is_arg == 0]
            scope_of, keep = self._row_scopes(tbl, rows)
            rows, scope_of = rows[keep], scope_of[keep]
            by = np.argsort(scope_of, kind="stable")
            rows, scope_of = rows[by], scope_of[by]
            args = order[is_arg != 0]
            # the rows taken from each column's Python list, in C
            take = np.concatenate((rows, args)).tolist()
            c = {n: list(map(tbl.column(n).to_pylist().__getitem__, take)) for n in _BindingRows.COLS}
            self._hold_slices(c, scope_of)
            ns = self.ns
            # the argument rows: after the files' rows in those lists
            for src, name, value, vtype, vid, line in zip(
                    *(c[n][len(rows):] for n in ("src_id", "name", "value", "value_type", "value_id", "line"))):
                scope = ns(src)
                if scope is not None:
                    got[key_of[name]].append((scope, "arg", name, value, vtype, vid, line))
        self.args_by_callee.update(got)

    def first_prefetch(self) -> bool:
        """Whether this model holds no bindings but those a full run left it (none, or the
        rows of the files most files read: `release_bindings`, `passes._most_read`) and
        knows the argument rows' names: a model before its first incremental run, whose
        indexer may then prefetch while it extracts and stores (`prefetch_before`)."""
        if self._bind_loaded or self.args_by_callee or self._arg_names is None:
            return False
        return self._left_by_full_run or not (self._lazy_loaded or self._pending)

    def prefetch_before(self, con, paths, callee_keys, scanned: tuple | None = None) -> None:
        """`prefetch` through `con` before `refresh`, the rows read as the model was built
        (the run's own writes not yet visible to `con`: another cursor of the run's
        database): as the rows a kept model's last run loaded, which `refresh` then swaps
        for the changed files' new ones. The rows and their order are those
        `_prefetch_in_one_scan` gives. `scanned`: (paths, keys, what `one_scan` gave for
        them through `con` with this model's names), made before the model was at hand (a
        stored model being loaded, `readahead.Preload`): taken when they are the paths and
        keys to read."""
        paths = sorted(set(paths) - self._lazy_loaded)
        keys = sorted(k for k in set(callee_keys) if k and k not in self.args_by_callee)
        if scanned is not None and scanned[0] == paths and scanned[1] == keys:
            self._take_scanned(*scanned[2], paths, keys)
        elif paths or keys:
            self._prefetch_in_one_scan(paths, keys, con)

    def _prefetch_named_args(self, keys: list[str]) -> None:
        """The argument rows of calls to `keys`, found by their names (`_arg_names`): every
        name has one callee key, so the rows whose name is one of the keys' names are exactly
        the keys' rows, without a regular expression over every argument row (~0.01 s of
        0.03 s on the standard library). In the order of the bulk load."""
        names = self._arg_names
        key_of = {name: key for key in keys for name in names.get(key, ())}
        got: dict[str, list[tuple]] = {k: [] for k in keys}
        if key_of:
            c = cols(self.con, """SELECT src_id, kind, name, value, value_type, value_id, line
                                  FROM bindings
                                  WHERE kind = 'arg' AND name IN (SELECT unnest($n::VARCHAR[]))
                                  ORDER BY path, line, rowid""", {"n": sorted(key_of)})
            ns = self.ns
            for src, kind, name, value, vtype, vid, line in zip(
                    c["src_id"], c["kind"], c["name"], c["value"], c["value_type"], c["value_id"], c["line"]):
                scope = ns(src)
                if scope is not None:
                    got[key_of[name]].append((scope, kind, name, value, vtype, vid, line))
        self.args_by_callee.update(got)

    # ------------------------------------------------------------ rows held back per scope
    def _defer_path_rows(self, c: dict[str, list], rows=None) -> None:
        """Files' bindings rows (no argument rows; in the bulk load's order; `rows`: their
        positions in the columns `c`, default all) held back per scope: a scope's rows are
        grouped into the model's indexes when evaluation first reads that scope
        (`_fill_scope`, from the lookups of `_Deferred`). Evaluating a file reads few of
        the scopes of the files it read last time (standard library, one file: ~500 of
        ~4,000), and grouping is most of a prefetch's Python time. A scope's rows, and
        their order, are those `_add_path_rows` would group."""
        import numpy as np
        srcs, kinds = c["src_id"], c["kind"]
        pos = np.arange(len(srcs), dtype=np.int64) if rows is None else np.asarray(rows, dtype=np.int64)
        if not len(pos):
            return
        if not isinstance(self.binds, _Deferred):
            self._defer_tables()
        # each distinct symbol's scope once, then the rows grouped by scope in a stable sort;
        # rows no index holds (`global`, read from the table by the language; `implicit`
        # unless the model keeps implicit sites, `Model.implicit`) are not held back
        ungrouped = ungrouped_kinds(self)
        ids = np.array([srcs[i] if srcs[i] is not None and kinds[i] not in ungrouped else -1
                        for i in pos.tolist()], dtype=np.int64)
        uniq, inverse = np.unique(ids, return_inverse=True)
        ns = self.ns
        scopes = np.array([-1 if s is None else s for s in
                           (ns(int(u)) if u != -1 else None for u in uniq.tolist())], dtype=np.int64)
        row_scope = scopes[inverse.reshape(-1)]
        keep = row_scope != -1
        pos, row_scope = pos[keep], row_scope[keep]
        if not len(pos):
            return
        by = np.argsort(row_scope, kind="stable")
        pos, row_scope = pos[by], row_scope[by]
        cuts = np.flatnonzero(row_scope[1:] != row_scope[:-1]) + 1
        starts = [0, *cuts.tolist()]
        ends = [*cuts.tolist(), len(pos)]
        pending = self._pending
        plist = pos.tolist()
        for scope, a, b in zip(row_scope[starts].tolist(), starts, ends):
            parts = pending.get(scope)
            if parts is None:
                pending[scope] = [(c, plist[a:b])]
            else:                       # (a scope's rows are one file's: not today)
                parts.append((c, plist[a:b]))

    def _row_scopes(self, tbl, rows):
        """The scope of each row at the positions `rows` of the Arrow table `tbl` (columns
        `src_id`, `kind`), and whether an index holds it (a symbol with a scope; not a kind
        of `_UNGROUPED`, `_UNGROUPED_NO_SITES`): numpy arrays, one `ns` call per distinct symbol."""
        import numpy as np
        # numpy on the Arrow buffers, the kinds as Python texts (`pyarrow.compute`, whose
        # `dictionary_encode` would do, takes ~0.06 s of CPU to import)
        src = tbl.column("src_id").chunk(0)
        kinds = ungrouped_kinds(self)
        row_kinds = tbl.column("kind").to_pylist()
        held = _np_valid(src) & ~np.fromiter(map(kinds.__contains__, row_kinds), dtype=bool,
                                             count=len(row_kinds))
        ids = np.where(held, np_ints(src), -1)[rows]
        uniq, inverse = np.unique(ids, return_inverse=True)
        ns = self.ns
        scopes = np.array([-1 if s is None else s for s in
                           (ns(u) if u != -1 else None for u in uniq.tolist())], dtype=np.int64)
        scope_of = scopes[inverse.reshape(-1)]
        return scope_of, scope_of != -1

    def _hold_slices(self, c: dict[str, list], scope_of) -> None:
        """Hold back the rows `0:len(scope_of)` of the columns `c`, grouped by scope (the
        scopes `scope_of`, sorted): each scope's rows are one slice."""
        import numpy as np
        if not len(scope_of):
            return
        if not isinstance(self.binds, _Deferred):
            self._defer_tables()
        cuts = (np.flatnonzero(scope_of[1:] != scope_of[:-1]) + 1).tolist()
        pending = self._pending
        for scope, a, b in zip(scope_of[[0, *cuts]].tolist(), [0, *cuts], [*cuts, len(scope_of)]):
            part = (c, slice(a, b))
            parts = pending.get(scope)
            if parts is None:
                pending[scope] = [part]
            else:                       # (a scope's rows are one file's: not today)
                parts.append(part)

    def _fill_scope(self, scope: int) -> None:
        """Group the rows held back for `scope` (`_defer_path_rows`, `_hold_slices`) into
        the indexes."""
        parts = self._pending.pop(scope, None)
        for c, pos in parts or ():
            if pos.__class__ is slice:          # one slice of the lists (`_hold_slices`)
                got = [c[n][pos] for n in _BindingRows.COLS]
            else:                               # positions in them (`_defer_path_rows`)
                got = [[c[n][i] for i in pos] for n in _BindingRows.COLS]
            self._add_rows(*got, [None] * len(got[0]))

    def fill_pending(self) -> None:
        """Group every row held back (`_defer_path_rows`, `_hold_slices`): the indexes then
        hold every row loaded, as if grouped at once - and they are, in one `_add_rows`
        over every held scope's rows, each scope's in their order (what grouping them scope
        by scope gives: every index is by scope; without a call per scope)."""
        pending = self._pending
        if not pending:
            return
        got: list[list] = [[] for _ in _BindingRows.COLS]
        for parts in pending.values():
            for c, pos in parts:
                for out, n in zip(got, _BindingRows.COLS):
                    col = c[n]
                    out.extend(col[pos] if pos.__class__ is slice else [col[i] for i in pos])
        pending.clear()
        self._add_rows(*got, [None] * len(got[0]))

    def _defer_tables(self) -> None:
        """The per-scope indexes as `_Deferred` mappings (their rows kept)."""
        pending, fill = self._pending, self._fill_scope
        for name in ("binds", "returns", "yields", "elements", "attr_binds", "exports"):
            table = getattr(self, name)
            setattr(self, name, _Deferred(table.default_factory, pending, fill, table))
        self.receivers = _DeferredReceivers(pending, fill, self.receivers)

    def _add_path_rows(self, c: dict[str, list]) -> None:
        """Files' bindings rows (no argument rows) as `_add_rows` groups them."""
        if c["kind"]:
            self._add_rows(c["src_id"], c["kind"], c["name"], c["value"], c["value_type"],
                           c["value_id"], c["line"], [None] * len(c["kind"]))

    def _arg_tuples(self, c: dict[str, list], start: int, end: int) -> list[tuple]:
        """Argument rows `start:end` of the columns `c` as the tuples `arg_rows` gives."""
        out = []
        ns = self.ns
        for src, kind, name, value, vtype, vid, line in zip(
                *(c[n][start:end] for n in ("src_id", "kind", "name", "value", "value_type",
                                            "value_id", "line"))):
            scope = ns(src)
            if scope is not None:
                out.append((scope, kind, name, value, vtype, vid, line))
        return out

    def _lazy_index(self) -> _BindingRows:
        """The whole bindings table as Arrow, indexed by file and by callee key (no Python
        objects yet): a file's rows, or a callee's argument rows, become tuples only when
        evaluation reaches them. Falls back to the bulk load if the table changed under us."""
        if self._lazy_tbl is None:
            self._lazy_tbl = _BindingRows(self.con, self._CALLEE_KEY)
            if not self._lazy_tbl.complete:
                self.lazy = False
                self._load_bindings()
        return self._lazy_tbl

    def _load_path(self, path: str) -> None:
        self._lazy_loaded.add(path)
        bulk = self._lazy_index()
        if self._bind_loaded:
            return
        self._defer_path_rows(bulk.rows(bulk.path_rows([path])))

    def _load_args(self, callee_name: str) -> list[tuple]:
        bulk = self._lazy_index()
        if self._bind_loaded:
            return self.args_by_callee.get(callee_name, [])
        idx = bulk.key_rows(callee_name)
        return self._arg_tuples(bulk.rows([idx]), 0, len(idx)) if len(idx) else []



class _Deferred(defaultdict):
    """A per-scope index of the model (`binds`, `returns`, ...) where some scopes' rows are
    held back (`LazyBindings._defer_path_rows`): a lookup of such a scope (`get`, `in`,
    `[]`) groups them first. Evaluation reads the indexes through `get`."""

    def __init__(self, factory, pending: dict, fill, items=()):
        super().__init__(factory, items)
        self._pending, self._fill = pending, fill

    def get(self, key, default=None):
        if key in self._pending:
            self._fill(key)
        return dict.get(self, key, default)

    def __contains__(self, key) -> bool:
        if key in self._pending:
            self._fill(key)
        return dict.__contains__(self, key)

    def __missing__(self, key):
        if key in self._pending:        # grouping adds the rows through `[]`: not pending then
            self._fill(key)
            if dict.__contains__(self, key):
                return dict.__getitem__(self, key)
        return super().__missing__(key)

    def __reduce__(self):               # a copy or a pickle is a plain defaultdict
        return (defaultdict, (self.default_factory, dict(self)))


class _DeferredReceivers(dict):
    """`receivers` ((scope, line, method) -> receiver texts) with held-back scopes: see
    `_Deferred`."""

    def __init__(self, pending: dict, fill, items=()):
        super().__init__(items)
        self._pending, self._fill = pending, fill

    def get(self, key, default=None):
        if key[0] in self._pending:
            self._fill(key[0])
        return dict.get(self, key, default)

    def __contains__(self, key) -> bool:
        if key[0] in self._pending:
            self._fill(key[0])
        return dict.__contains__(self, key)

    def __reduce__(self):
        return (dict, (dict(self),))


def _np_valid(arr):
    """Which values of an Arrow array are not null, as a numpy array of booleans."""
    import numpy as np
    bits = arr.buffers()[0]
    if bits is None:
        return np.ones(len(arr), dtype=bool)
    return np.unpackbits(np.frombuffer(bits, dtype=np.uint8), bitorder="little",
                         count=len(arr) + arr.offset)[arr.offset:].astype(bool)


class _BindingRows:
    """The bindings table for incremental runs: one scan, in table order (no sort, which
    would cost more than the scan), and the positions of each file's rows and of each
    callee key's argument rows. `rows` turns positions into Python lists, in the order
    of the bulk load (`path, line, rowid`): a file's rows sorted by line within its block,
    a callee's rows by their file's rank among the paths, line and row id.

    A file's rows are one block of row ids (each file's rows are inserted together and
    deleted together); if a table ever breaks that, the table is read sorted instead."""

    COLS = ("src_id", "kind", "name", "value", "value_type", "value_id", "line")

    def __init__(self, con, callee_key_sql: str):
        import numpy as np
        sql = f"""SELECT src_id, kind, name, value, value_type, value_id, line,
                         (kind = 'arg')::TINYINT AS is_arg,
                         coalesce({callee_key_sql}, '') AS callee_key, rowid AS rid
                  FROM bindings"""
        tbl = con.sql(sql).to_arrow_table().combine_chunks()
        ranges = store.run(con, "SELECT path, min(rowid), max(rowid), count(*) FROM bindings "
                                "GROUP BY path ORDER BY path")
        n = tbl.num_rows
        self.complete = sum(r[3] for r in ranges) == n      # else: changed under us
        self.tbl, self.paths, self.sorted, self.key_code = tbl, {}, True, {}
        if not self.complete or n == 0:
            return
        rid = np_ints(tbl.column("rid").chunk(0))
        lo = np.array([r[1] for r in ranges], dtype=np.int64)
        hi = np.array([r[2] for r in ranges], dtype=np.int64)
        cnt = np.array([r[3] for r in ranges], dtype=np.int64)
        starts = np.searchsorted(rid, lo)
        blocks = (bool(np.all(rid[1:] > rid[:-1])) and bool(np.all(hi - lo + 1 == cnt))
                  and bool(np.all(rid[np.minimum(starts + cnt - 1, n - 1)] == hi)))
        if not blocks:                      # not one block of row ids per file: sorted by the query
            tbl = con.sql(sql + " ORDER BY path, line, rowid").to_arrow_table().combine_chunks()
            starts = np.concatenate(([0], np.cumsum(cnt)[:-1]))
        else:
            self.sorted = False
        self.tbl = tbl.select(list(self.COLS))
        self.paths = {r[0]: (int(a), int(a + c)) for r, a, c in zip(ranges, starts, cnt)}
        self.line = np_ints(tbl.column("line").chunk(0))
        self.is_arg = np_ints(tbl.column("is_arg").chunk(0))
        # blocks in table order and the rank of their path (path order is the load order)
        by_start = np.argsort(starts, kind="stable")
        self.block_start, self.block_rank = starts[by_start], by_start
        # callee keys: a code per row, the rows of each code in table order
        enc = tbl.column("callee_key").chunk(0).dictionary_encode()
        self.key_code = {k: i for i, k in enumerate(enc.dictionary.to_pylist()) if k}
        codes = np_ints(enc.indices)
        self.by_key = np.argsort(codes, kind="stable")
        self.key_end = np.cumsum(np.bincount(codes, minlength=len(enc.dictionary)))

    def path_rows(self, paths) -> list:
        """Positions of the files' rows but their argument rows, files in path order."""
        import numpy as np
        out = []
        for path in sorted(paths):
            span = self.paths.get(path)
            if span is None:
                continue
            a, b = span
            idx = np.arange(a, b) if self.sorted else a + np.argsort(self.line[a:b], kind="stable")
            out.append(idx[self.is_arg[idx] == 0])
        return out

    def key_rows(self, key: str):
        """Positions of the argument rows whose callee key is `key`, in load order."""
        import numpy as np
        code = self.key_code.get(key)
        if code is None:
            return np.zeros(0, dtype=np.int64)
        idx = self.by_key[(self.key_end[code - 1] if code else 0):self.key_end[code]]
        if not self.sorted and len(idx) > 1:
            rank = self.block_rank[np.searchsorted(self.block_start, idx, side="right") - 1]
            idx = idx[np.lexsort((idx, self.line[idx], rank))]
        return idx

    def rows(self, parts: list) -> dict[str, list]:
        """The columns `COLS` of the rows at the positions `parts` (a list of arrays)."""
        import numpy as np
        import pyarrow as pa
        idx = np.concatenate(parts) if parts else np.zeros(0, dtype=np.int64)
        t = self.tbl.take(store.arrow_array(idx, pa.int64()))     # `pa.array` imports pandas
        return {n: t.column(n).to_pylist() for n in self.COLS}
