"""The resolver's model: what resolution reads from the tables, as Python indexes.

Symbols, modules, imports and written bases are loaded once; bindings (`bindings` table:
assignments, arguments, returns, ...) are grouped by scope, all at once in full runs or
per file as evaluation reaches them in incremental runs (from one scan of the table kept
as Arrow, `_BindingRows`). Each language family adds its
own indexes (`Language.prepare`), kept in `Model.ext`. A model kept between runs
(`workbench.resolve.kept`) is brought up to date with `refresh` for the files an
incremental run changed.
"""
from __future__ import annotations

from collections import Counter, defaultdict
from itertools import chain

from .. import store
from ..gcpause import release_unused_memory
from ..languages import SPECS
from .kinds import CALL_TARGET_KINDS, CLASS_KINDS, NAMESPACE_KINDS
from .lang import FAMILIES, family_of, rules_of
from .values import patch_rank, set_rank


def cols(con, sql: str, params=None) -> dict[str, list]:
    """A query's result as lists by column name (through Arrow)."""
    tbl = con.sql(sql, params=params).to_arrow_table() if params is not None else con.sql(sql).to_arrow_table()
    return {name: tbl.column(name).to_pylist() for name in tbl.column_names}


def _interned(texts: list) -> list:
    """`texts` with one string object per distinct text (Arrow gives every row its own)."""
    one = {}.setdefault
    return [one(t, t) for t in texts]


class Model:
    """Everything resolution needs, loaded once: symbols, modules, imports, bindings."""

    # the symbols' columns, by path and then id: sorting on each file's rank among the paths
    # (a small join) costs DuckDB much less than sorting the symbols by their path strings
    _SYMBOL_COLS = """s.symbol_id, s.path, s.language, s.kind, s.name, s.qualname, s.parent_id,
                      s.signature, s.start_line, s.is_declaration"""
    _SYMBOLS = f"""SELECT {_SYMBOL_COLS}
                  FROM symbols s
                  LEFT JOIN (SELECT path, row_number() OVER (ORDER BY path) AS path_rank
                             FROM (SELECT DISTINCT path FROM symbols)) r USING (path)
                  ORDER BY r.path_rank, s.symbol_id"""

    def __init__(self, con, bulk_bindings: bool = True):
        self.con = con
        f = cols(con, "SELECT file_id, path, language, module FROM files WHERE status <> 'skipped'")
        self.file_lang = dict(zip(f["path"], f["language"]))
        self.paths = set(f["path"])
        s = cols(con, self._SYMBOLS)
        for c in ("path", "language", "kind", "name"):    # one object per distinct text
            s[c] = _interned(s[c])
        sids, spaths = s["symbol_id"], s["path"]
        self.kind = dict(zip(sids, s["kind"]))
        self.name = dict(zip(sids, s["name"]))
        self.qual = dict(zip(sids, s["qualname"]))
        self.parent = dict(zip(sids, s["parent_id"]))
        self.path = dict(zip(sids, spaths))
        self.sig = dict(zip(sids, s["signature"]))
        d = cols(con, """SELECT symbol_id, decorators FROM symbols WHERE len(decorators) > 0
                         ORDER BY path, symbol_id""")     # few symbols have decorators
        self.decos = dict(zip(d["symbol_id"], d["decorators"]))
        self.line = dict(zip(sids, s["start_line"]))
        self.declarations = {i for i, d in zip(sids, s["is_declaration"]) if d}
        # per distinct language, then one C-level pass per column
        self._fam_of: dict[str, str] = {}
        self.fam = dict(zip(sids, self._families(s["language"])))
        # every file a bit, every symbol its file's bit (what an evaluation read: `memo`)
        self.file_index = {p: i for i, p in enumerate(sorted(self.paths))}
        self._bits = dict.fromkeys(spaths, 0)
        self._bits.update({p: 1 << i for p, i in self.file_index.items()})
        self.bit_of = dict(zip(sids, map(self._bits.__getitem__, spaths)))
        self._sids, self._spaths = sids, spaths     # in path order: `symbols_in`
        self._path_spans: dict[str, tuple[int, int]] | None = None
        self._texts: dict[str, str] | None = None     # `symbol_texts`
        self._derive()
        self.fallback_cache: dict[tuple, tuple] = {}   # (family, name|attr, name) -> guess by name
        if bulk_bindings:
            # a full run asks for it anyway: built now, next to the other indexes, it does not
            # sit among the bindings and the memo, whose memory is let go after evaluation
            self.by_qual
        self._init_bindings(bulk_bindings)

    def _families(self, langs: list) -> list:
        fam_of = self._fam_of
        for lang in set(langs) - fam_of.keys():
            fam_of[lang] = family_of(lang)
        return list(map(fam_of.__getitem__, langs))

    def _derive(self) -> None:
        """Everything computed from the symbols' columns and the tables' imports and bases:
        the canonical order, children and names, each family's indexes."""
        sids, spaths = self._sids, self._spaths
        # the order of a fresh index whatever ids an incremental run gave (`values.ordered`)
        if getattr(self, "_rank_owner", None) is None:
            self._rank_owner = object()     # this model's token for `values.patch_rank`
        set_rank(dict(zip(sids, range(len(sids)))), self._rank_owner)
        self.static: set[int] = set()               # static methods (`@staticmethod`)
        self.classmeth: set[int] = set()            # class methods (`@classmethod`)
        self.prop: set[int] = set()                 # properties (`@property` and friends)
        self.ext: dict = {}                         # each family's own indexes (`Language.prepare`)
        self.children: dict[int, dict[str, list[int]]] = defaultdict(dict)
        self.file_module: dict[str, int] = {}
        self.by_name: dict[tuple[str, str], list[int]] = defaultdict(list)
        self._by_qual: dict[str, list[int]] | None = None    # built when first asked: `by_qual`
        self.type_parts: list[int] = []             # parts of a type, not names (Rust `impl` blocks)
        part_kinds = {fam: rules.type_part_kinds for fam, rules in FAMILIES.items() if rules.type_part_kinds}
        children, by_name, kind, name, parent, fam = (self.children, self.by_name, self.kind,
                                                     self.name, self.parent, self.fam)
        for i, path in zip(sids, spaths):
            k, n, p, f = kind[i], name[i], parent[i], fam[i]
            if p is None:
                if k == "module":
                    self.file_module[path] = i
                continue
            if k in CALL_TARGET_KINDS:
                if part_kinds and k in part_kinds.get(f, ()):
                    self.type_parts.append(i)
                    continue
                by_name[(f, n)].append(i)
            elif part_kinds and k in part_kinds.get(f, ()):
                self.type_parts.append(i)
                continue
            kids = children[p]
            got = kids.get(n)
            if got is None:
                kids[n] = [i]
            else:
                got.append(i)
        for rules in FAMILIES.values():
            rules.prepare(self)
        self._load_imports()
        self._load_bases()

    def _load_imports(self) -> None:
        imp = cols(self.con, """SELECT rowid AS rid, path, src_id, module, name, alias, line, resolved_path
                                FROM imports""")
        self.imports = [dict(zip(imp.keys(), row)) for row in zip(*imp.values())] if imp else []
        self.imports_by_scope: dict[int, dict[str, list[dict]]] = defaultdict(dict)
        self.star_imports: dict[int, list[dict]] = defaultdict(list)
        self._bind_imports(self.imports)

    def _bind_imports(self, rows: list[dict]) -> None:
        """Each imports row's family and scope; the names it binds there."""
        for row in rows:
            fam = family_of(self.file_lang.get(row["path"]))
            row["family"] = fam
            scope = self.ns(row["src_id"]) if row["src_id"] is not None else self.file_module.get(row["path"])
            row["scope"] = scope
            for bound in rules_of(fam).bound_names(row):
                if bound == "*":
                    self.star_imports[scope].append(row)
                else:
                    self.imports_by_scope[scope].setdefault(bound, []).append(row)

    def _load_bases(self) -> None:
        """inherits / implements (all of them: MRO crosses files)."""
        inh = cols(self.con, """SELECT src_id, dst_name, kind FROM edges
                                WHERE kind IN ('inherits', 'implements') ORDER BY path, edge_id""")
        self.bases_written: dict[int, list[str]] = defaultdict(list)
        self.subclasses_written: dict[str, list[int]] = defaultdict(list)
        for src, dst, k in zip(inh["src_id"], inh["dst_name"], inh["kind"]):
            self.bases_written[src].append(dst)
            self.subclasses_written[dst.rsplit(".", 1)[-1]].append(src)
        for rules in FAMILIES.values():
            rules.prepare_bases(self)

    def _init_bindings(self, bulk_bindings: bool) -> None:
        # bindings: by scope, loaded per file on demand (or all at once)
        self._bind_loaded = False
        # scope -> name -> rows (a 1-tuple or a list: `_put`)
        self.binds: dict[int, dict[str, tuple | list[tuple]]] = defaultdict(dict)
        self.returns: dict[int, list[tuple]] = defaultdict(list)            # scope -> rows
        self.yields: dict[int, list[tuple]] = defaultdict(list)
        self.elements: dict[int, dict[str, tuple | list[tuple]]] = defaultdict(dict)
        self.attr_binds: dict[int, list[tuple]] = defaultdict(list)         # scope -> (target, row)
        self.exports: dict[int, dict[str, list[tuple]]] = defaultdict(dict)  # module -> name -> rows
        self.receivers: dict[tuple, list[str]] = {}     # (scope, line, method) -> receiver texts
        self.args_by_callee: dict[str, list[tuple]] = defaultdict(list)
        self._strings: dict[str, str] = {}  # bindings' texts, one object each (`_add_rows`)
        self._ints: dict[int, int] = {}     # and their line numbers
        self.lazy = not bulk_bindings     # incremental: bindings per file, arguments per callee
        self._lazy_tbl: _BindingRows | None = None     # every row as Arrow: `_lazy_index`
        self._lazy_loaded: set[str] = set()
        # callee key -> the `name` texts of the argument rows with that key (a superset of
        # those in the table): known once every row was loaded, kept up to date by
        # `refresh`; `prefetch` then matches the names instead of computing every row's key
        self._arg_names: dict[str, tuple[str, ...]] | None = None
        if bulk_bindings:
            self._load_bindings()

    # ------------------------------------------------------------ kept between runs
    def refresh(self, con, changed) -> None:
        """Bring a model built by an earlier run up to date with the tables, after the
        files `changed` were re-indexed (their rows replaced; no file added or removed,
        the same files skipped: an incremental run). Reads only the changed files' rows
        again (and the imports table's row ids and resolved paths); the derived indexes are
        patched (`_derive_changed`), or derived again where a family attaches members
        across files. Evaluation state (`fallback_cache`, families' caches in `ext`)
        starts afresh.

        The result equals `Model(con)` for what evaluation reads, bindings included: those
        loaded before stay loaded, the changed files' rows are swapped in (`_swap_bindings`)."""
        self.con = con
        changed = sorted(set(changed) & self.paths)
        old = self.symbols_in(changed)
        s = cols(con, f"""SELECT {self._SYMBOL_COLS}, s.decorators FROM symbols s
                          WHERE list_contains($p, s.path) ORDER BY s.path, s.symbol_id""", {"p": changed})
        for c in ("path", "language", "kind", "name"):
            s[c] = _interned(s[c])
        new, npaths = s["symbol_id"], s["path"]
        gone = [(i, self.kind.get(i), self.name.get(i), self.parent.get(i), self.fam.get(i), self.path.get(i))
                for i in old]
        for table in (self.kind, self.name, self.qual, self.parent, self.path, self.sig, self.line,
                      self.fam, self.bit_of, self.decos):
            for i in old:
                table.pop(i, None)
        self.declarations.difference_update(old)
        self.kind.update(zip(new, s["kind"]))
        self.name.update(zip(new, s["name"]))
        self.qual.update(zip(new, s["qualname"]))
        self.parent.update(zip(new, s["parent_id"]))
        self.path.update(zip(new, npaths))
        self.sig.update(zip(new, s["signature"]))
        self.line.update(zip(new, s["start_line"]))
        self.declarations.update(i for i, d in zip(new, s["is_declaration"]) if d)
        self.decos.update((i, d) for i, d in zip(new, s["decorators"]) if d)
        self.fam.update(zip(new, self._families(s["language"])))
        self.bit_of.update(zip(new, map(self._bits.__getitem__, npaths)))
        # the columns in path order again: unchanged files' spans, the new rows in their place
        spans = self._spans()
        mine: dict[str, list[int]] = defaultdict(list)
        for i, p in zip(new, npaths):
            mine[p].append(i)
        # the first place of the load order a changed file held or holds now: the places
        # before it keep their symbols (`values.patch_rank`)
        first = min([spans[p][0] for p in changed if p in spans], default=len(self._sids))
        sids, spaths, new_spans = [], [], {}
        for p in sorted(spans.keys() - set(changed) | mine.keys()):
            got = mine.get(p)
            start = len(sids)
            if got is None:
                a, b = spans[p]
                sids.extend(self._sids[a:b])
                spaths.extend(self._spaths[a:b])
            else:
                sids.extend(got)
                spaths.extend([p] * len(got))
            new_spans[p] = (start, len(sids))
        self._sids, self._spaths, self._path_spans = sids, spaths, new_spans
        # a C++ function defined out of line turns `method` or `function` as declarations
        # elsewhere come and go (`indexer._mark_out_of_line_methods`): kinds read again
        ool = sorted({lang for lang in self._fam_of if lang in SPECS and SPECS[lang].out_of_line_methods})
        if ool:
            k = cols(con, """SELECT symbol_id, kind FROM symbols
                             WHERE list_contains($l, language) AND kind IN ('function', 'method')""",
                     {"l": ool})
            self.kind.update(zip(k["symbol_id"], _interned(k["kind"])))
        if any(FAMILIES[f].prepare_adds_members for f in set(self._fam_of.values()) if f in FAMILIES):
            self._derive()              # Go, Rust: members attached across files, computed again
        else:
            self._derive_changed(gone, new, changed, min([first, *(new_spans[p][0] for p in mine)]))
        self.fallback_cache = {}
        if self._texts is not None:
            for path in changed:
                self._texts.pop(path, None)
        self._swap_bindings(set(old), changed)

    def _derive_changed(self, gone: list[tuple], new: list[int], changed: list[str],
                        first: int = 0) -> None:
        """`_derive` for a refresh: the derived indexes patched where the changed files'
        symbols were (`gone`: id, kind, name, parent, family, path) and are now (`new`),
        each list kept in the load order (`first`: the first place in it that changed).
        Only for families whose `prepare` adds nothing to the model's own indexes."""
        sids = self._sids
        # the canonical places before `first` stand (the same symbols there), the rest move
        patch_rank(getattr(self, "_rank_owner", None), sids, first, [g[0] for g in gone])
        prank = {p: i for i, p in enumerate(self._path_spans)}
        path_of = self.path

        def by_path(i):
            return prank[path_of[i]]

        old = {g[0] for g in gone}
        children, by_name, file_module = self.children, self.by_name, self.file_module
        touched_names = set()
        for i, k, n, p, f, path in gone:
            children.pop(i, None)
            if p is None:
                if k == "module" and file_module.get(path) == i:
                    del file_module[path]
                continue
            if k in CALL_TARGET_KINDS:
                lst = by_name.get((f, n))
                if lst is not None and i in lst:
                    lst.remove(i)
                    touched_names.add((f, n))
            if p not in old:                    # a parent in another file (none today)
                lst = children.get(p, {}).get(n)
                if lst is not None and i in lst:
                    lst.remove(i)
        kind, name, parent, fam = self.kind, self.name, self.parent, self.fam
        for i in new:
            k, n, p, f = kind[i], name[i], parent[i], fam[i]
            if p is None:
                if k == "module":
                    file_module[path_of[i]] = i
                continue
            if k in CALL_TARGET_KINDS:
                by_name[(f, n)].append(i)
                touched_names.add((f, n))
            kids = children[p]
            got = kids.get(n)
            if got is None:
                kids[n] = [i]
            else:
                got.append(i)
        for key in touched_names:
            lst = by_name.get(key)
            if not lst:
                by_name.pop(key, None)
            else:
                lst.sort(key=by_path)           # stable: ids within a file stay in order
        self._by_qual = None
        old_ext, self.ext = self.ext, {}
        for rules in FAMILIES.values():
            rules.refresh(self, old_ext, gone, new)
        self._refresh_imports(changed, old)
        self._refresh_bases(changed, old, by_path)

    def _refresh_imports(self, changed: list[str], old: set[int]) -> None:
        """The imports rows again, in table order: the kept rows of unchanged files (their
        row ids and resolved paths read again), the changed files' rows new. Loaded in full
        when the table's order is not the one expected."""
        chg = set(changed)
        t = cols(self.con, "SELECT rowid AS rid, path, line, resolved_path FROM imports")
        fresh = cols(self.con, """SELECT rowid AS rid, path, src_id, module, name, alias, line, resolved_path
                                  FROM imports WHERE list_contains($p, path)""", {"p": changed})
        fresh_rows = iter([dict(zip(fresh.keys(), row)) for row in zip(*fresh.values())] if fresh else [])
        kept = iter([r for r in self.imports if r["path"] not in chg])
        rows, added = [], []
        for rid, path, line, rpath in zip(t["rid"], t["path"], t["line"], t["resolved_path"]):
            r = next(fresh_rows if path in chg else kept, None)
            if r is None or r["path"] != path or r["line"] != line:
                self._load_imports()            # not the order expected: everything again
                return
            if path in chg:
                added.append(r)
            else:
                r["rid"], r["resolved_path"] = rid, rpath
            rows.append(r)
        if next(kept, None) is not None or next(fresh_rows, None) is not None:
            self._load_imports()
            return
        self.imports = rows
        for table in (self.imports_by_scope, self.star_imports):
            for i in old:
                table.pop(i, None)
        self._bind_imports(added)

    def _refresh_bases(self, changed: list[str], old: set[int], by_path) -> None:
        touched = set()
        for i in old:
            for dst in self.bases_written.pop(i, ()):
                last = dst.rsplit(".", 1)[-1]
                lst = self.subclasses_written.get(last)
                if lst is not None and i in lst:
                    lst.remove(i)
                    touched.add(last)
        inh = cols(self.con, """SELECT src_id, dst_name FROM edges
                                WHERE kind IN ('inherits', 'implements') AND list_contains($p, path)
                                ORDER BY path, edge_id""", {"p": changed})
        for src, dst in zip(inh["src_id"], inh["dst_name"]):
            self.bases_written[src].append(dst)
            last = dst.rsplit(".", 1)[-1]
            self.subclasses_written[last].append(src)
            touched.add(last)
        for last in touched:
            lst = self.subclasses_written.get(last)
            if not lst:
                self.subclasses_written.pop(last, None)
            else:
                lst.sort(key=by_path)

    def _spans(self) -> dict[str, tuple[int, int]]:
        """Path -> (start, end) of its symbols in the load order."""
        if self._path_spans is None:
            # each file's symbols are one run of the path order: counted in C, then summed
            # per file (a Python step per symbol took ~10 ms on the standard library)
            spans, start = {}, 0
            for path, n in Counter(self._spaths).items():     # in the order first seen
                spans[path] = (start, start + n)
                start += n
            self._path_spans = spans
        return self._path_spans

    def _swap_bindings(self, old: set[int], changed: list[str]) -> None:
        """Drop the bindings rows of the symbols `old` (the changed files' scopes before the
        re-index) and, where the model holds a file's or a callee's rows, put the changed
        files' new rows in, in the order a fresh load gives them."""
        for table in (self.binds, self.returns, self.yields, self.elements, self.attr_binds, self.exports):
            for i in old:
                table.pop(i, None)
        for k in [k for k in self.receivers if k[0] in old]:
            del self.receivers[k]
        # the whole-table Arrow copy of incremental runs is stale now
        self._lazy_tbl = None
        c = cols(self.con, f"""SELECT src_id, kind, name, value, value_type, value_id, line,
                                      {self._CALLEE_KEY} AS callee_key
                               FROM bindings WHERE list_contains($p, path)
                               ORDER BY path, line, rowid""", {"p": changed})
        if self._bind_loaded:
            # every file's rows are here: add the changed files' (argument rows apart)
            self._add_rows(c["src_id"], c["kind"], c["name"], c["value"], c["value_type"],
                           c["value_id"], c["line"], [None] * len(c["kind"]))
        else:                                   # from now on per file, as evaluation reaches them
            self.lazy = True
            self._lazy_loaded.difference_update(changed)
        # argument rows, by callee: drop the old ones of every callee held, merge the new ones
        # in for the callees held (all of them when every row is loaded)
        complete = self._bind_loaded
        fresh: dict[str, list[tuple]] = defaultdict(list)
        ns = self.ns
        names = self._arg_names
        for src, kind, name, value, vtype, vid, line, key in zip(
                c["src_id"], c["kind"], c["name"], c["value"], c["value_type"], c["value_id"], c["line"],
                c["callee_key"]):
            if key and names is not None:       # the changed files' names join the index
                known = names.get(key, ())
                if name not in known:
                    names[key] = (*known, name)
            if key and (complete or key in self.args_by_callee):
                scope = ns(src)
                if scope is not None:
                    fresh[key].append((scope, kind, name, value, vtype, vid, line))
        rank = {p: i for i, p in enumerate(self._spans())}
        path = self.path
        for key in list(self.args_by_callee):
            rows = self.args_by_callee[key]
            kept = [r for r in rows if r[0] not in old]
            add = fresh.pop(key, None)
            if add:
                kept.extend(add)
                kept.sort(key=lambda r: rank[path[r[0]]])     # stable: each file's own order
            if len(kept) != len(rows) or add:
                self.args_by_callee[key] = kept
        for key, add in fresh.items():          # callees nothing called before (complete only)
            self.args_by_callee[key] = add

    # ------------------------------------------------------------ small helpers
    def ns(self, sid: int | None) -> int | None:
        """The namespace a symbol's code runs in: itself, or its nearest namespace ancestor."""
        k = self.kind
        while sid is not None and k.get(sid) not in NAMESPACE_KINDS:
            sid = self.parent.get(sid)
        return sid

    @property
    def by_qual(self) -> dict[str, list[int]]:
        """Qualname -> the symbols (not file modules) that have it, in load order."""
        if self._by_qual is None:
            by_qual: dict[str, list[int]] = defaultdict(list)
            qual, parent = self.qual, self.parent
            for i in self._sids:
                if parent[i] is not None:
                    by_qual[qual[i]].append(i)
            self._by_qual = by_qual
        return self._by_qual

    def symbols_in(self, paths) -> list[int]:
        """The symbols of the files `paths`, by path and then id (the load order)."""
        spans = self._spans()
        out: list[int] = []
        for path in sorted(set(paths)):
            span = spans.get(path)
            if span is not None:
                out.extend(self._sids[span[0]:span[1]])
        return out

    def symbol_texts(self) -> dict[str, str]:
        """Path -> the texts of its symbols (name, qualname, signature, decorators joined by
        spaces), one line each: what `deps._fresh` searches for a name in every other file,
        in Python instead of a scan of the symbols table (~9 MB on the standard library,
        made when first asked - the indexer has a full run's kept model make them once the
        run's connection is closed, `kept.settle` - and kept; a refresh makes the changed
        files' again)."""
        texts = self._texts
        if texts is None:
            texts = self._texts = {}
        sids, name, qual, sig, decos = self._sids, self.name, self.qual, self.sig, self.decos
        for path, (a, b) in self._spans().items():
            if path not in texts:
                span = sids[a:b]
                # a column at a time, in C (`filter` drops the missing texts)
                texts[path] = "\n".join(filter(None, chain(
                    map(name.__getitem__, span), map(qual.__getitem__, span), map(sig.__getitem__, span),
                    (" ".join(decos[i]) for i in span if i in decos))))
        return texts

    def family(self, sid: int) -> str:
        return self.fam.get(sid)

    def module_of(self, sid: int) -> int | None:
        return self.file_module.get(self.path.get(sid))

    def enclosing_class(self, sid: int | None) -> int | None:
        while sid is not None:
            if self.kind.get(sid) in CLASS_KINDS:
                return sid
            sid = self.parent.get(sid)
        return None

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

    def release_bindings(self) -> None:
        """Let the bindings go (evaluation is over; a later `ensure_bindings` loads them again).
        With every row loaded, the argument rows' names by callee key are kept (`_arg_names`,
        ~3 MB on the standard library): an incremental run's `prefetch` asks for them."""
        if self._bind_loaded:
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
        self._strings, self._ints = {}, {}
        self._lazy_tbl = None
        self._lazy_loaded = set()
        release_unused_memory()         # what the bindings took, for the writes that follow

    # the callee's last name, computed by DuckDB (`self.items.append#0` -> `append`)
    _ARG_KEY = "regexp_extract(name, '([A-Za-z_$][A-Za-z0-9_$]*)[^A-Za-z0-9_$#]*#[^#]*$', 1)"
    _CALLEE_KEY = f"CASE WHEN kind = 'arg' THEN nullif({_ARG_KEY}, '') END"

    def _load_bindings(self) -> None:
        """All bindings, grouped by scope (one query; ~0.5 s for the standard library)."""
        if self._bind_loaded:
            return
        tbl = self.con.sql(f"""SELECT src_id, kind, name, value, value_type, value_id, line,
                                      {self._CALLEE_KEY} AS callee_key
                               FROM bindings ORDER BY path, line, rowid""").to_arrow_table()
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
            elif kind == "element":
                if not name:
                    continue
                into = elements[scope]
            elif kind == "unpack":
                if not name:
                    continue
                into = binds[scope]
                name = name.rpartition("#")[0]
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

    def arg_rows(self, callee_name: str) -> list[tuple]:
        """Argument bindings of calls whose callee's last name is `callee_name`."""
        if self.lazy and not self._bind_loaded:
            got = self.args_by_callee.get(callee_name)
            if got is None:
                got = self.args_by_callee[callee_name] = self._load_args(callee_name)
            return got
        self.ensure_bindings(None)
        return self.args_by_callee.get(callee_name, ())

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
            self._add_path_rows(bulk.rows(bulk.path_rows(paths)))
            per_key = [bulk.key_rows(k) for k in keys]
            c = bulk.rows(per_key)
            start = 0
            for key, idx in zip(keys, per_key):
                end = start + len(idx)
                self.args_by_callee[key] = self._arg_tuples(c, start, end)
                start = end
            return
        if paths:
            # a semi join on the paths: a third less than a list_contains per row
            c = cols(self.con, """SELECT src_id, kind, name, value, value_type, value_id, line
                                  FROM bindings WHERE kind <> 'arg' AND path IN (SELECT unnest($p::VARCHAR[]))
                                  ORDER BY path, line, rowid""", {"p": paths})
            self._lazy_loaded.update(paths)
            self._add_path_rows(c)
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
        self._add_path_rows(bulk.rows(bulk.path_rows([path])))

    def _load_args(self, callee_name: str) -> list[tuple]:
        bulk = self._lazy_index()
        if self._bind_loaded:
            return self.args_by_callee.get(callee_name, [])
        idx = bulk.key_rows(callee_name)
        return self._arg_tuples(bulk.rows([idx]), 0, len(idx)) if len(idx) else []


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


def _np_ints(arr):
    """An integer Arrow array without nulls as a numpy array (no copy; `to_numpy` on a
    chunked column imports pandas)."""
    import numpy as np
    return np.frombuffer(arr.buffers()[1], dtype=arr.type.to_pandas_dtype(),
                         count=len(arr) + arr.offset)[arr.offset:]


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
        rid = _np_ints(tbl.column("rid").chunk(0))
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
        self.line = _np_ints(tbl.column("line").chunk(0))
        self.is_arg = _np_ints(tbl.column("is_arg").chunk(0))
        # blocks in table order and the rank of their path (path order is the load order)
        by_start = np.argsort(starts, kind="stable")
        self.block_start, self.block_rank = starts[by_start], by_start
        # callee keys: a code per row, the rows of each code in table order
        enc = tbl.column("callee_key").chunk(0).dictionary_encode()
        self.key_code = {k: i for i, k in enumerate(enc.dictionary.to_pylist()) if k}
        codes = _np_ints(enc.indices)
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
