"""The resolver's model: what resolution reads from the tables, as Python indexes.

Symbols, modules, imports and written bases are loaded once; bindings (`bindings` table:
assignments, arguments, returns, ...) are grouped by scope, all at once in full runs or
per file as evaluation reaches them in incremental runs (from one scan of the table kept
as Arrow, `lazy._BindingRows`). Each language family adds its own indexes
(`Language.prepare`), kept in `Model.ext`. A model kept between runs
(`workbench.resolve.kept`) is brought up to date with `refresh` for the files an
incremental run changed.

This module holds `Model`'s state and its construction (the symbols' columns, the indexes
derived from them, imports and written bases), the lookups evaluation makes (`ns`,
`by_qual`, ...) and the symbols by file (`symbols_in`, `symbol_texts`). Its mixins hold
the rest, and import neither this module nor a language module:

=============  ========================================================================
`bindings`     `Bindings`: bindings rows grouped by scope, argument rows by callee key;
               the bulk load of full runs, `ensure_bindings`, `arg_rows`, release
`lazy`         `LazyBindings`: incremental runs' rows per file and per callee as
               evaluation reaches them, `prefetch`; the table's Arrow copy
`refresh`      `Refresh`: a kept model brought up to date after an incremental re-index
`columns`      query results as lists by column name (`cols`), texts one object each
=============  ========================================================================
"""
from __future__ import annotations

from collections import Counter, defaultdict
from itertools import chain, compress

from .bindings import CODE_KINDS, Bindings, aliased_rows
from .columns import _interned, cols
from .kinds import CALL_TARGET_KINDS, CLASS_KINDS, NAMESPACE_KINDS
from .lang import FAMILIES, family_of, rules_of
from .lazy import LazyBindings, _BindingRows
from .refresh import Refresh
from .values import set_rank



class Model(Bindings, LazyBindings, Refresh):
    """Everything resolution needs, loaded once: symbols, modules, imports, bindings (the
    bindings' methods in `bindings` and `lazy`, `refresh` in `refresh`)."""

    # the symbols' columns, by path and then id: sorting on each file's rank among the paths
    # (a small join) costs DuckDB much less than sorting the symbols by their path strings
    _SYMBOL_COLS = """s.symbol_id, s.path, s.language, s.kind, s.name, s.qualname, s.parent_id,
                      s.signature, s.start_line, s.is_declaration"""
    _SYMBOLS = f"""SELECT {_SYMBOL_COLS}
                  FROM symbols s
                  LEFT JOIN (SELECT path, row_number() OVER (ORDER BY path) AS path_rank
                             FROM (SELECT DISTINCT path FROM symbols)) r USING (path)
                  ORDER BY r.path_rank, s.symbol_id"""

    def __init__(self, con, bulk_bindings: bool = True, implicit: bool = False):
        self.con = con
        # the scopes' implicit call sites kept (`bindings.IMPLICIT_SITES`): only for a run
        # adding implicit rows (`setting`)
        self.implicit = implicit
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
        self._texts_blob: bytes | None = None           # `symbol_texts_blob`
        self._texts_since: set[str] = set()
        # the texts of the other tables' rows `quiet._fresh` searches, set by a full run
        # whose model is kept (`quiet.RowTexts`)
        self.row_texts = None
        # a copy of the table `resolve_deps` as Arrow (path, files, names, provides), kept
        # by `deps.write` in a model that is kept: `deps.affected` reads it instead
        self.deps_rows = None
        self._derive()
        self.fallback_cache: dict[tuple, tuple] = {}   # (family, name|attr, name) -> guess by name
        if bulk_bindings:
            # a full run asks for it anyway: built now, next to the other indexes, it does not
            # sit among the bindings and the memo, whose memory is let go after evaluation
            self.by_qual
        # path -> the rows of it that read one of its functions or classes as a value
        # (`aliased_in`): made once, kept with the model, a changed file's made again by
        # `refresh`
        self._aliased: dict[str, tuple] | None = None
        self._init_bindings(bulk_bindings)
        if bulk_bindings:
            self.aliased_in(None)       # (before a full run's helpers fork)

    # the rows `aliased_in` keeps (`bindings.aliased_rows` keeps those reading a name of
    # their file's functions and classes): arguments and assignments to a name (not an
    # attribute) of a name or an attribute, assignments of a lambda to a name. The same
    # file's names are matched here already, as `aliased_rows` matches them (the last part
    # after a dot), so that only the rows kept come out: matched against every file's
    # names instead, six times as many rows come out, and the query's working memory,
    # kept by the process, added ~50 MiB to a full run's peak on the standard library
    _ALIASED = """SELECT src_id, kind, name, value, value_type, value_id, line, path FROM bindings
                  WHERE kind IN ('assign', 'arg') AND value_type IN ('identifier', 'attribute', 'lambda')
                  AND (kind = 'arg' AND value_type <> 'lambda' OR kind = 'assign' AND name NOT LIKE '%%.%%')
                  AND (value_type = 'lambda' OR (file_id, string_split(value, '.')[-1])
                       IN (SELECT (file_id, name) FROM symbols WHERE kind IN (%s)))
                  ORDER BY path, line, rowid""" % ", ".join(f"'{k}'" for k in sorted(CODE_KINDS))

    def aliased_in(self, path: str | None) -> tuple | None:
        """The rows of file `path` that read one of its functions or classes as a value, as
        `AliasFlows.callee_aliases` starts from them: (assignments to a name by the last name of
        the value, `c = func`; assignments of a lambda by its id; arguments by the last name
        of the value, `run(self.handle)`), in the file's order; None for a file with none.
        A call may reach a function under another name only through such a row. Made from
        the table once (~0.1 s on the standard library: ~16,000 rows) and kept with the
        model (`refresh` makes a changed file's again)."""
        got = self._aliased
        if got is None:
            c = cols(self.con, self._ALIASED)
            got = self._aliased = aliased_rows(self, self.paths, c)
        return got.get(path) if path is not None else None

    @classmethod
    def from_state(cls, state: dict) -> "Model":
        """A model from the attributes `stored.save` kept of one (no connection yet: `refresh`
        sets it): each symbol's file bit, no bindings loaded (as a model built for an
        incremental run). The symbols' ranks are put in force by the `refresh` every loaded
        model gets before it is read (`values.patch_rank` finds them set by no model of its
        own, and sets them all, in the refreshed order), not here: setting them here and
        patching them there cost ~0.02 s of CPU on the standard library."""
        m = cls.__new__(cls)
        state = dict(state)
        arg_names = state.pop("_arg_names", None)
        m.__dict__.update(state)
        m.__dict__.setdefault("_aliased", None)
        m.con = None
        m.row_texts = m.deps_rows = m._texts = m._by_qual = None
        # the blob of the symbols' texts as stored (None: made when first asked)
        m._texts_blob = state.get("_texts_blob")
        m._texts_since = set(state.get("_texts_since") or ()) if m._texts_blob is not None else set()
        m.fallback_cache = {}
        m._rank_owner = object()        # (no ranks of its own in force yet: see above)
        m.bit_of = dict(zip(m._sids, map(m._bits.__getitem__, m._spaths)))
        m._init_bindings(False)
        m._arg_names = arg_names        # (a bindings field: stored when known, see `stored.save`)
        return m

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
        set_rank(zip(sids, range(len(sids))), self._rank_owner)
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
        # the files whose rows' row ids and resolved paths are known to be the table's
        # (None: every file's; a refresh reads the others' when needed, `current_imports`)
        self._imports_current: set[str] | None = None
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
        self._args_unscoped = 0     # argument rows with a callee key but no scope (`_add_rows`)
        # (`args_by_callee` it was made from, path -> its rows): `passed_rows_of_path`
        self._args_by_path = None
        # scope -> name -> rows (a 1-tuple or a list: `bindings._put`)
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
        # scope -> the rows held back for it (`lazy._defer_path_rows`), grouped when first read
        self._pending: dict[int, list] = {}
        # callee key -> the `name` texts of the argument rows with that key (a superset of
        # those in the table): known once every row was loaded, kept up to date by
        # `refresh`; `prefetch` then matches the names instead of computing every row's key
        self._arg_names: dict[str, tuple[str, ...]] | None = None
        # the model as a full run left it (`release_bindings`), until its first refresh
        self._left_by_full_run = False
        if bulk_bindings:
            self._load_bindings()

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

    def with_qualnames(self, quals) -> dict[str, list[int]]:
        """Qualname -> every symbol that has it (file modules too: each file's one symbol
        without a parent, `file_module`), for the qualnames `quals` that some symbol has;
        the tables' answer, from the model. Without `by_qual` (a model loaded for an
        incremental run, where building it would cost more), from one pass over the
        symbols in the load order (~3-5 ms on the standard library, a query of the symbols
        table by qualname ~10-14 ms of CPU)."""
        want = set(quals)
        qual = self.qual
        by_qual = self._by_qual
        if by_qual is None:
            by_qual = {}
            if want:
                parent = self.parent
                for i in compress(self._sids, map(want.__contains__, map(qual.__getitem__, self._sids))):
                    if parent[i] is not None:
                        by_qual.setdefault(qual[i], []).append(i)
        out = {q: list(by_qual[q]) for q in want if q in by_qual}
        for i in self.file_module.values():
            q = qual[i]
            if q in want:
                out.setdefault(q, []).append(i)
        return out

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

    # ------------------------------------------------------------ symbols by file
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
        spaces), one line each: what `quiet._fresh` searches for a name in every other file,
        in Python instead of a scan of the symbols table (~9 MB on the standard library,
        made when first asked - the indexer has a full run's kept model make them once the
        run's connection is closed, `kept.settle` - and kept; a refresh makes the changed
        files' again)."""
        texts = self._texts
        if texts is None:
            texts = self._texts = {}
        for path, span in self._spans().items():
            if path not in texts:
                texts[path] = self._text_of(span)
        return texts

    def symbol_text(self, path: str) -> str:
        """`symbol_texts()[path]` ("" for a file without symbols), made for that file alone
        when the others' are not at hand (a stored model holds only their blob,
        `symbol_texts_blob`)."""
        if self._texts is not None and path in self._texts:
            return self._texts[path]
        span = self._spans().get(path)
        if span is None:
            return ""
        if self._texts is None:
            self._texts = {}
        text = self._texts[path] = self._text_of(span)
        return text

    def _text_of(self, span: tuple[int, int]) -> str:
        """The texts of the symbols at `span` of the load order (a file's), one line each."""
        ids = self._sids[span[0]:span[1]]
        name, qual, sig, decos = self.name, self.qual, self.sig, self.decos
        # a column at a time, in C (`filter` drops the missing texts)
        return "\n".join(filter(None, chain(
            map(name.__getitem__, ids), map(qual.__getitem__, ids), map(sig.__getitem__, ids),
            (" ".join(decos[i]) for i in ids if i in decos))))

    #: files whose texts changed since `symbol_texts_blob` was made, at most (then made again)
    TEXTS_SINCE_MAX = 64

    def symbol_texts_blob(self) -> tuple[bytes, set[str]]:
        """Every file's `symbol_texts` joined in one UTF-8 text (one line each) as they
        were when it was made, and the files whose texts changed since (a refresh's changed
        files: their texts now are `symbol_texts`'): a name found in neither is in no
        file's texts, in one search of bytes instead of one per file (~2,000 on the standard
        library; texts with a character beyond U+FFFF take four bytes a character as `str`).
        Made with the texts (`kept.settle`), or again once `TEXTS_SINCE_MAX` files changed."""
        if self._texts_blob is None or len(self._texts_since) > self.TEXTS_SINCE_MAX:
            # without the texts at hand (a model about to be stored, `stored.save`), made
            # file by file into the blob, not kept as well
            texts = (self.symbol_texts().values() if self._texts is not None
                     else map(self._text_of, self._spans().values()))
            self._texts_blob = "\n".join(texts).encode("utf-8", "surrogatepass")
            self._texts_since = set()
        return self._texts_blob, self._texts_since
