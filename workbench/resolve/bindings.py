"""The bindings rows as the resolver's model groups them: `Bindings`, a mixin of
`model.Model` (see that module's doc).

The `bindings` table (assignments, arguments, returns, yields, elements, exports, receivers,
...) grouped by scope into the model's indexes (`binds`, `returns`, `yields`, `elements`,
`attr_binds`, `exports`, `receivers`) and argument rows by callee key (`args_by_callee`,
`arg_rows`): all of them in one query in full runs (`_load_bindings`, `_add_rows`), or per
file and per callee in incremental runs (`ensure_bindings` asks `lazy` for them); and let
go after evaluation (`release_bindings`). A name's rows are a 1-tuple while it is bound
once (`_put`). `arg_rows_in` gives the argument rows of the calls in one file (an
incremental run reads only that file's when it has nothing else loaded).

The methods use the state `Model._init_bindings` sets and call the other methods of the
model through `self`; this module imports neither the model nor any language module.
"""
from __future__ import annotations

from collections import defaultdict

from ..gcpause import release_unused_memory
from .columns import cols
from .kinds import CLASS_KINDS, FUNCTION_KINDS
from .lazy import ungrouped_kinds


#: the name a scope's implicit call sites are kept under in `binds` (no name is written
#: so): its `implicit` rows (operators, subscripts, `with`) and one per `for` (`iter`, the
#: first `iter_unpack` of a statement), flat, three items a site: the operator as written
#: (`iter` for a `for`), the operand, the line. Not rows: tens of thousands of 7-tuples
#: of the standard library's would stay in memory for the whole evaluation. Its `raise`
#: rows (a name or attribute raised without a call, `raise E`) are sites whatever the
#: setting (a few hundred in the standard library). `Language.implicit_sites` reads them
IMPLICIT_SITES = "<implicit>"
#: what `aliased_rows` keeps the rows of
CODE_KINDS = FUNCTION_KINDS | CLASS_KINDS
#: the value types of `passed_rows_of_path`
_NAMED_VALUES = frozenset(("identifier", "attribute"))


class Bindings:
    """Bindings rows grouped by scope, argument rows by callee: methods of `model.Model`."""

    # ------------------------------------------------------------ bindings
    def ensure_bindings(self, path: str | None) -> None:
        """The bindings of `path`: all of them once, in bulk (see `_load_bindings`), or in
        incremental runs only those of the files evaluation reaches (`_load_path`)."""
        if self._bind_loaded:
            return
        if not self.lazy:
            self._load_bindings()
        elif path is not None and path not in self._lazy_loaded:
            self._load_path(path)

    def release_bindings(self, arg_names: bool = True) -> None:
        """Let the bindings go (evaluation is over; a later `ensure_bindings` loads them again).
        With every row loaded, and `arg_names`, the argument rows' names by callee key are
        kept (`_arg_names`, ~3 MB on the standard library, ~0.04 s): an incremental run's
        `prefetch` asks for them. The runs pass `arg_names` false when the process keeps no
        model (`kept.KEEP`; the `workbench index` command keeps none), unless the model is
        to be stored (`names_stored`: `stored.save` keeps the names)."""
        if self._bind_loaded and (arg_names or getattr(self, "names_stored", False)):
            self._arg_names = {key: tuple({row[2] for row in rows})
                               for key, rows in self.args_by_callee.items() if rows}
        self._bind_loaded = False
        self.binds = defaultdict(dict)
        self.returns = defaultdict(list)
        self.yields = defaultdict(list)
        self.elements = defaultdict(dict)
        self.attr_binds = defaultdict(list)
        self.exports = defaultdict(dict)
        self.receivers = {}
        self.args_by_callee = defaultdict(list)
        self._args_by_path = None
        self._strings, self._ints = {}, {}
        self._lazy_tbl = None
        self._lazy_loaded = set()
        self._pending = {}
        self._left_by_full_run = True   # (`lazy.first_prefetch`)
        release_unused_memory()         # what the bindings took, for the writes that follow

    # the callee's last name, computed by DuckDB (`self.items.append#0` -> `append`); for a
    # callee that is a call's result, that call's (`lru_cache(maxsize=None)#0` -> `lru_cache`:
    # `Flows._arg_flows` reads them as arguments of what `lru_cache` returns, `_returned_by`)
    _ARG_KEY = ("coalesce(nullif(regexp_extract(name, '^(?:[A-Za-z0-9_$]*[.])*([A-Za-z_$][A-Za-z0-9_$]*)[(].*[)]#[^#]*$', 1), ''), "
                "regexp_extract(name, '([A-Za-z_$][A-Za-z0-9_$]*)[^A-Za-z0-9_$#]*#[^#]*$', 1))")
    _CALLEE_KEY = f"CASE WHEN kind = 'arg' THEN nullif({_ARG_KEY}, '') END"

    def _load_bindings(self) -> None:
        """All bindings an index holds, grouped by scope (one query; ~0.5 s for the standard
        library)."""
        if self._bind_loaded:
            return
        self._pending.clear()           # every row comes again
        self._args_unscoped = 0
        # (not the rows no index holds: on the standard library the `implicit` ones are an
        # eighth of the table, which the loop below would turn into Python objects to skip)
        left = ungrouped_kinds(self)
        tbl = self.con.sql(f"""SELECT src_id, kind, name, value, value_type, value_id, line,
                                      {self._CALLEE_KEY} AS callee_key
                               FROM bindings WHERE kind NOT IN ({", ".join(f"'{k}'" for k in sorted(left))})
                               ORDER BY path, line, rowid""").to_arrow_table()
        # the pages DuckDB's sort freed (~100 MB on the standard library), before the rows
        # become Python objects next to the Arrow copy
        release_unused_memory()
        self._bind_loaded = True
        self.args_by_callee = defaultdict(list)
        # batch by batch: Python lists of every column at once would double the peak memory
        for batch in tbl.to_batches(max_chunksize=self._BATCH):
            self._add_rows(*(batch.column(i).to_pylist() for i in range(batch.num_columns)))
            del batch
        del tbl
        # every row is in: the texts' index (~7 MB on the standard library) has done its job
        self._strings, self._ints = {}, {}
        release_unused_memory()         # the Arrow copy, before evaluation fills the memo

    _BATCH = 50_000


    def _add_rows(self, srcs, kinds, names, values, vtypes, vids, lines, keys) -> None:
        """Group bindings rows (in `path, line` order) by scope; `arg` rows by callee key."""
        ns_cache: dict = {}
        ns = self.ns
        binds, elements, returns, yields = self.binds, self.elements, self.returns, self.yields
        args = self.args_by_callee
        sites = getattr(self, "implicit", False)     # the implicit sites kept (`Model.implicit`)
        # one string object per distinct text: Arrow hands every row its own copy, and
        # kinds, value types, names and values repeat (half a million rows: ~100 MB)
        one = self._strings.setdefault
        # line numbers too (a few thousand distinct values, one int object per row otherwise);
        # each column at a time, in C (None stays None)
        lines = list(map(self._ints.setdefault, lines, lines))
        kinds, vtypes = list(map(one, kinds, kinds)), list(map(one, vtypes, vtypes))
        names, values = list(map(one, names, names)), list(map(one, values, values))
        for src, kind, name, value, vtype, vid, line, key in zip(
                srcs, kinds, names, values, vtypes, vids, lines, keys):
            scope = ns_cache.get(src, -1)
            if scope == -1:
                scope = ns_cache[src] = ns(src)
            if scope is None:
                if kind == "arg" and key:       # (`holds_every_arg_row`)
                    self._args_unscoped += 1
                continue
            row = (scope, kind, name, value, vtype, vid, line)
            if kind == "arg":
                if key:
                    args[key].append(row)
                continue
            if kind in ("assign", "iter", "with", "declare", "param"):
                if name is None:
                    continue
                if kind == "assign" and "." in name:
                    head, _, rest = name.partition(".")
                    self.attr_binds[scope].append((head, rest, row))
                    if head in ("module", "exports") and self.kind.get(scope) == "module":
                        key2 = rest[len("exports."):] if rest.startswith("exports.") else rest
                        if rest == "exports":
                            key2 = "default"
                        self.exports[scope].setdefault(key2, []).append(row)
                    continue
                into = binds[scope]
                if kind == "iter" and sites:    # an implicit site too (`for x in v`)
                    _site(into, "iter", value, line)
            elif kind in ("element", "extend"):
                if not name:
                    continue
                into = elements[scope]
            elif kind == "nest":              # `d.setdefault(k, []).append(f)`
                if not name:
                    continue
                # `d` holds a container, "d[]", which holds `f` (`Resolver.binding_values`)
                elements[scope].setdefault(name + "[]", []).append(
                    (scope, "element", name + "[]", value, vtype, vid, line))
                into = elements[scope]
            elif kind in ("unpack", "iter_unpack"):
                if not name:
                    continue
                into = binds[scope]
                # one site per `for`: its first target's (`#0`, nested `#0.0`)
                if kind == "iter_unpack" and sites and not name.rpartition("#")[2].strip("0."):
                    _site(into, "iter", value, line)
                name = name.rpartition("#")[0]
            elif kind == "implicit":        # (kept only for a run adding implicit rows)
                if sites:
                    _site(binds[scope], name, value, line)
                continue
            elif kind == "raise":           # (kept whatever the setting)
                _site(binds[scope], "raise", value, line)
                continue
            else:
                if kind == "return":
                    returns[scope].append(row)
                elif kind == "yield":
                    yields[scope].append(row)
                elif kind == "export_default":
                    self.exports[scope].setdefault("default", []).append(row)
                elif kind == "export":
                    self.exports[scope].setdefault(name or value, []).append(row)
                elif kind == "receiver" and name:
                    self.receivers.setdefault((scope, line, name), []).append(value)
                continue
            # `_put`, inline (a call per row cost a tenth of the loop)
            got = into.get(name)
            if got is None:
                into[name] = (row,)
            elif got.__class__ is tuple:
                into[name] = [got[0], row]
            else:
                got.append(row)

    def holds_every_arg_row(self) -> bool:
        """Whether `args_by_callee` holds every argument row with a callee key: all rows
        loaded in bulk (a full run), none left out for want of a scope."""
        return self._bind_loaded and not self.lazy and not self._args_unscoped

    def arg_rows(self, callee_name: str) -> list[tuple]:
        """Argument bindings of calls whose callee's last name is `callee_name`. A kept
        model knowing the argument rows' names (`_arg_names`: every callee key that has
        rows, joined by the changed files' keys at each refresh) has none for a key it does
        not hold, without the whole-table copy (`lazy._lazy_index`, ~0.1 s on the standard
        library) it would make to look: the parameters of a function an edit just added."""
        if self.lazy and not self._bind_loaded:
            got = self.args_by_callee.get(callee_name)
            if got is None:
                names = self._arg_names
                got = self.args_by_callee[callee_name] = (
                    [] if names is not None and callee_name not in names else self._load_args(callee_name))
            return got
        self.ensure_bindings(None)
        return self.args_by_callee.get(callee_name, ())

    def arg_rows_in(self, path: str | None, callee_name: str):
        """Argument rows of calls whose callee's last name is `callee_name`, of which those
        made in file `path` are all a caller needs (others may come along). An incremental
        run whose model holds neither those callee rows nor the whole-table copy yet
        (`lazy._lazy_index`) reads `path`'s argument rows alone (once per file and run:
        kept in `ext`, which a refresh starts afresh) instead of copying the table for them."""
        if (not self.lazy or self._bind_loaded or path is None or self._lazy_tbl is not None
                or callee_name in self.args_by_callee):
            return self.arg_rows(callee_name)
        return self._path_args(path).get(callee_name, ())

    def passed_rows_of_path(self, path: str | None) -> list:
        """The argument rows (with a callee key) of the calls made in file `path` that pass
        a name or an attribute (`run(func)`, `run(self.handle)`): an incremental run reads
        that file's rows (as `arg_rows_in`), a full run groups the rows it holds by file
        once (`_args_by_path`, dropped with the bindings)."""
        if path is None:
            return []
        if self.lazy and not self._bind_loaded:
            return [row for rows in self._path_args(path).values() for row in rows
                    if row[4] in _NAMED_VALUES]
        self.ensure_bindings(None)
        by_path = self._args_by_path
        if by_path is None or by_path[0] is not self.args_by_callee:
            grouped: dict = defaultdict(list)
            path_of = self.path
            for rows in self.args_by_callee.values():
                for row in rows:
                    if row[4] in _NAMED_VALUES:
                        grouped[path_of.get(row[0])].append(row)
            by_path = self._args_by_path = (self.args_by_callee, grouped)
        return by_path[1].get(path, [])

    def _path_args(self, path: str) -> dict:
        """The argument rows of the calls made in `path` by callee key, read from the table
        once per file and run (kept in `ext`, which a refresh starts afresh)."""
        by_path = self.ext.setdefault("bindings.args_in", {})
        got = by_path.get(path)
        if got is None:
            got = by_path[path] = {}
            c = cols(self.con, f"""SELECT src_id, kind, name, value, value_type, value_id, line,
                                          {self._CALLEE_KEY} AS callee_key
                                   FROM bindings WHERE kind = 'arg' AND path = $p
                                   ORDER BY line, rowid""", {"p": path})
            ns = self.ns
            for src, kind, name, value, vtype, vid, line, key in zip(
                    c["src_id"], c["kind"], c["name"], c["value"], c["value_type"], c["value_id"],
                    c["line"], c["callee_key"]):
                scope = ns(src)
                if scope is not None and key:
                    got.setdefault(key, []).append((scope, kind, name, value, vtype, vid, line))
        return got


def aliased_rows(m, paths, c: dict) -> dict[str, tuple]:
    """`Model.aliased_in` of the files `paths` from bindings rows `c` (columns as lists:
    src_id, kind, name, value, value_type, value_id, line, path; in path and line order),
    of which the assignments and arguments of a name or an attribute ending in a name of a
    function or class of the same file, and the assignments of a lambda to a name, count."""
    defined: dict = {}
    kind, name = m.kind, m.name
    ns = m.ns
    out: dict[str, tuple] = {}
    for src, k, n, value, vtype, vid, line, path in zip(
            c["src_id"], c["kind"], c["name"], c["value"], c["value_type"], c["value_id"], c["line"], c["path"]):
        if path not in paths or k not in ("assign", "arg"):
            continue
        if vtype == "lambda":
            if k != "assign" or vid is None or not n or "." in n:
                continue
            key, at = vid, 1
        elif vtype in _NAMED_VALUES and value:
            if k == "assign" and (not n or "." in n):
                continue
            names = defined.get(path)
            if names is None:
                names = defined[path] = {name[s] for s in m.symbols_in((path,)) if kind.get(s) in CODE_KINDS}
            key = value.rpartition(".")[2]
            if key not in names:
                continue
            at = 0 if k == "assign" else 2
        else:
            continue
        scope = ns(src)
        if scope is None:
            continue
        got = out.get(path)
        if got is None:
            got = out[path] = ({}, {}, {})
        got[at].setdefault(key, []).append((scope, k, n, value, vtype, vid, line))
    return out


def _put(rows_by_name: dict, name: str, row: tuple) -> None:
    """Add `row` to the rows of `name`: a tuple while it is the only one, then a list (most
    names are bound once: a 1-tuple takes half the memory of a list, ~8 MB on the standard
    library). Readers only iterate over them."""
    got = rows_by_name.get(name)
    if got is None:
        rows_by_name[name] = (row,)
    elif got.__class__ is tuple:
        rows_by_name[name] = [got[0], row]
    else:
        got.append(row)


def _site(rows_by_name: dict, op: str, value, line) -> None:
    """Add an implicit site to a scope's (`IMPLICIT_SITES`): three items of a flat list."""
    got = rows_by_name.get(IMPLICIT_SITES)
    if got is None:
        rows_by_name[IMPLICIT_SITES] = [op, value, line]
    else:
        got += (op, value, line)
