"""A kept model brought up to date after an incremental run's re-index: `Refresh`, a mixin
of `model.Model` (see that module's doc, and `kept` for the models kept between runs).

`refresh` reads the changed files' symbols again and puts them in the load order; the
derived indexes are patched (`_derive_changed`: children, names, each family's indexes
through `Language.refresh`, imports `_refresh_imports`, written bases `_refresh_bases`),
or derived again where a family attaches members across files; the changed files'
bindings rows are swapped in (`_swap_bindings`). The result equals a model loaded afresh.

The methods use the state `Model.__init__` sets and call the other methods of the model
through `self`; this module imports neither the model nor any language module (the
families through the registry, `lang`).
"""
from __future__ import annotations

from collections import defaultdict

from ..languages import SPECS
from .bindings import aliased_rows
from .changedrows import KEY, ChangedRows
from .columns import _interned, cols
from .kinds import CALL_TARGET_KINDS
from .lang import FAMILIES
from .values import patch_rank


class Refresh:
    """A kept model brought up to date with the tables: methods of `model.Model`."""

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
        # the changed files' rows of every table it reads, each table read once, for the
        # edited files' facts too (`quiet.facts`, which takes them from `ext`)
        rows = ChangedRows(con, changed, self._CALLEE_KEY)
        # a file's language as detected again (a `.h` header turns C++ with a class, and back)
        f = rows.files
        read = [(p, lang) for p, lang, st in zip(f["path"], f["language"], f["status"])
                if st is not None and st != "skipped"]
        # the changed files' languages before and now (the indexer marks out-of-line methods
        # again only when one of them has such methods)
        langs = {self.file_lang.get(p) for p in changed} | {lang for _, lang in read}
        self.file_lang.update(read)
        old = self.symbols_in(changed)
        s = dict(rows.symbols)
        for c in ("path", "language", "kind", "name"):
            s[c] = _interned(s[c])
        new, npaths = s["symbol_id"], s["path"]
        gone = [(i, self.kind.get(i), self.name.get(i), self.parent.get(i), self.fam.get(i), self.path.get(i))
                for i in old]
        gone_qual = {i: self.qual.get(i) for i in old}
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
        self._sids, self._spaths, new_spans = _spliced(self._sids, self._spaths, spans, changed, mine)
        self._path_spans = new_spans
        # a C++ function defined out of line turns `method` or `function` as declarations
        # elsewhere come and go (`indexer._mark_out_of_line_methods`, run when the changed
        # files include one of those languages): kinds read again then
        ool = sorted({lang for lang in self._fam_of if lang in SPECS and SPECS[lang].out_of_line_methods})
        if ool and langs & set(ool):
            k = cols(con, """SELECT symbol_id, kind FROM symbols
                             WHERE list_contains($l, language) AND kind IN ('function', 'method')""",
                     {"l": ool})
            self.kind.update(zip(k["symbol_id"], _interned(k["kind"])))
        if any(FAMILIES[f].prepare_adds_members for f in set(self._fam_of.values()) if f in FAMILIES):
            self._derive()              # Go, Rust: members attached across files, computed again
        else:
            self._derive_changed(gone, new, changed, min([first, *(new_spans[p][0] for p in mine)]),
                                 gone_qual, rows)
        self.fallback_cache = {}
        if self._texts is not None:
            for path in changed:
                self._texts.pop(path, None)
        if self._texts_blob is not None:
            self._texts_since.update(changed)
        self._swap_bindings(set(old), changed, rows.bindings)
        self.ext[KEY] = rows

    def _derive_changed(self, gone: list[tuple], new: list[int], changed: list[str], first: int,
                        gone_qual: dict, rows: ChangedRows) -> None:
        """`_derive` for a refresh: the derived indexes patched where the changed files'
        symbols were (`gone`: id, kind, name, parent, family, path; `gone_qual`: id ->
        qualname, for `by_qual` when built) and are now (`new`), each list kept in the load
        order (`first`: the first place in it that changed; `rows`: the changed files' rows,
        read by `refresh`). Only for families whose `prepare` adds nothing to the model's
        own indexes."""
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
        _settle(by_name, touched_names, by_path)
        self._patch_by_qual(gone, new, gone_qual, by_path)
        old_ext, self.ext = self.ext, {}
        for rules in FAMILIES.values():
            rules.refresh(self, old_ext, gone, new)
        self._refresh_imports(changed, old, rows.imports)
        self._refresh_bases(changed, old, by_path, rows.edges)

    def _patch_by_qual(self, gone: list[tuple], new: list[int], gone_qual: dict | None, by_path) -> None:
        """`by_qual`, when built, patched as `by_name` is (else left to be built when asked)."""
        by_qual = self._by_qual
        if by_qual is None:
            return
        if gone_qual is None:
            self._by_qual = None
            return
        touched = set()
        for g in gone:
            if g[3] is None:            # file modules are not in it
                continue
            q = gone_qual.get(g[0])
            lst = by_qual.get(q)
            if lst is not None and g[0] in lst:
                lst.remove(g[0])
                touched.add(q)
        qual, parent = self.qual, self.parent
        for i in new:
            if parent[i] is not None:
                by_qual[qual[i]].append(i)
                touched.add(qual[i])
        _settle(by_qual, touched, by_path)

    def _refresh_imports(self, changed: list[str], old: set[int], fresh: dict[str, list]) -> None:
        """The imports rows again: the kept rows of unchanged files, then the changed files'
        rows new (`fresh`, `ChangedRows.imports`: each file's in table order, the order
        evaluation reads them in; the files' order matters to nothing). The kept rows' row
        ids and resolved paths - renumbered by a compaction, written by the last run - are
        read again only for the files a run evaluates (`current_imports`), not for the
        whole table."""
        chg = set(changed)
        added = [dict(zip(fresh.keys(), row)) for row in zip(*fresh.values())] if fresh else []
        self.imports = [r for r in self.imports if r["path"] not in chg] + added
        for table in (self.imports_by_scope, self.star_imports):
            for i in old:
                table.pop(i, None)
        self._bind_imports(added)
        self._imports_current = set(changed)

    def current_imports(self, paths) -> None:
        """The row ids and resolved paths of the imports rows of `paths` as the table holds
        them now (after `refresh` only the changed files' are known to be). Loaded in full
        when a file's rows are not those expected."""
        known = self._imports_current
        if known is None:
            return
        todo = sorted(set(paths) - known)
        if not todo:
            return
        t = cols(self.con, """SELECT rowid AS rid, path, line, resolved_path FROM imports
                              WHERE path IN (SELECT unnest($p::VARCHAR[])) ORDER BY rowid""", {"p": todo})
        want = set(todo)
        mine: dict[str, list[dict]] = defaultdict(list)
        for r in self.imports:
            if r["path"] in want:
                mine[r["path"]].append(r)
        now: dict[str, list[tuple]] = defaultdict(list)
        for rid, path, line, rpath in zip(t["rid"], t["path"], t["line"], t["resolved_path"]):
            now[path].append((rid, line, rpath))
        for path in todo:
            a, b = mine.get(path, []), now.get(path, [])
            if len(a) != len(b) or any(r["line"] != x[1] for r, x in zip(a, b)):
                self._load_imports()            # not the rows expected: everything again
                return
        for path in todo:
            for r, (rid, _, rpath) in zip(mine.get(path, ()), now.get(path, ())):
                r["rid"], r["resolved_path"] = rid, rpath
        known.update(todo)

    def _refresh_bases(self, changed: list[str], old: set[int], by_path, edges: dict[str, list]) -> None:
        """The written bases of the changed files again (their inherits / implements rows
        among `edges`, `ChangedRows.edges`, in path and edge id order)."""
        touched = set()
        for i in old:
            for dst in self.bases_written.pop(i, ()):
                last = dst.rsplit(".", 1)[-1]
                lst = self.subclasses_written.get(last)
                if lst is not None and i in lst:
                    lst.remove(i)
                    touched.add(last)
        for src, dst, kind in zip(edges["src_id"], edges["dst_name"], edges["kind"]):
            if kind not in ("inherits", "implements"):
                continue
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

    def _swap_bindings(self, old: set[int], changed: list[str], c: dict[str, list]) -> None:
        """Drop the bindings rows of the symbols `old` (the changed files' scopes before the
        re-index) and, where the model holds a file's or a callee's rows, put the changed
        files' new rows (`c`, `ChangedRows.bindings`) in, in the order a fresh load gives
        them."""
        self._left_by_full_run = False
        for table in (self.binds, self.returns, self.yields, self.elements, self.attr_binds, self.exports):
            for i in old:
                table.pop(i, None)
        for k in [k for k in self.receivers if k[0] in old]:
            del self.receivers[k]
        for i in old:                   # rows held back for those scopes (`lazy._defer_path_rows`)
            self._pending.pop(i, None)
        # the whole-table Arrow copy of incremental runs is stale now
        self._lazy_tbl = None
        # the changed files' argument rows by file, for what they provide (`deps.provides`)
        arg_rows: dict[str, list[tuple]] = {p: [] for p in changed}
        for src, name, value, vtype, vid, line, key, path in zip(
                c["src_id"], c["name"], c["value"], c["value_type"], c["value_id"], c["line"],
                c["callee_key"], c["path"]):
            if key:
                arg_rows[path].append((key, (self.ns(src), "arg", name, value, vtype, vid, line)))
        self.ext["deps.arg_rows"] = arg_rows
        if getattr(self, "_aliased", None) is not None:       # (`Model.aliased_in`)
            for path in changed:
                self._aliased.pop(path, None)
            self._aliased.update(aliased_rows(self, set(changed), c))
        if self._bind_loaded:
            # every file's rows are here: add the changed files' (argument rows apart)
            self._add_rows(c["src_id"], c["kind"], c["name"], c["value"], c["value_type"],
                           c["value_id"], c["line"], [None] * len(c["kind"]))
        else:                                   # from now on per file, as evaluation reaches them
            self.lazy = True
            if self._lazy_loaded or self.args_by_callee:
                # the changed files' rows are at hand: held back per scope as a prefetch of
                # those files does (`lazy._defer_path_rows`, argument rows apart), rather
                # than read again by it (a model holding none yet: left to the prefetch,
                # which may take every file's rows from one copy of the table)
                self._defer_path_rows(c, [j for j, k in enumerate(c["kind"]) if k != "arg"])
                self._lazy_loaded.update(changed)
            else:
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


def _spliced(sids: list, spaths: list, spans: dict, changed: list[str], mine: dict) -> tuple:
    """The load order's columns (symbol ids, their paths) and spans (path -> start, end,
    in path order) after the files `changed` now hold the symbols `mine` (path -> ids,
    in order): the other files' spans kept. When every changed file held symbols and
    still does (an edit), their new symbols are spliced in where the old ones were, in
    the lists `sids` and `spaths` themselves (new lists of every symbol would be walked
    by the collector's next pass over young objects: ~4 ms on the standard library), the
    spans after them shifted; else the columns are made again file by file."""
    keys = list(spans)
    if (all(p in spans and mine.get(p) for p in changed)
            and all(a < b for a, b in zip(keys, keys[1:]))):
        order = sorted(changed, key=lambda q: spans[q][0])
        for p in reversed(order):       # from the end: the places before stay put
            a, b = spans[p]
            got = mine[p]
            sids[a:b] = got
            spaths[a:b] = [p] * len(got)
        delta = 0
        shift: dict[str, int] = {}
        for p in order:
            a, b = spans[p]
            delta += len(mine[p]) - (b - a)
            shift[p] = delta
        out_ids, out_paths = sids, spaths
        # each span moves by the size changes of the changed files before it (its end: and
        # of its own)
        d, new_spans = 0, {}
        for p, (a, b) in spans.items():
            start = a + d
            if p in shift:
                d = shift[p]
            new_spans[p] = (start, b + d)
        return out_ids, out_paths, new_spans
    out_ids, out_paths, new_spans = [], [], {}
    for p in sorted(spans.keys() - set(changed) | mine.keys()):
        got = mine.get(p)
        start = len(out_ids)
        if got is None:
            a, b = spans[p]
            out_ids.extend(sids[a:b])
            out_paths.extend(spaths[a:b])
        else:
            out_ids.extend(got)
            out_paths.extend([p] * len(got))
        new_spans[p] = (start, len(out_ids))
    return out_ids, out_paths, new_spans


def _settle(index: dict, keys, by_path) -> None:
    """The lists of `index` under `keys` after a patch: empty ones dropped, the others in
    path order (a stable sort: ids within a file stay in order)."""
    for key in keys:
        lst = index.get(key)
        if not lst:
            index.pop(key, None)
        else:
            lst.sort(key=by_path)
