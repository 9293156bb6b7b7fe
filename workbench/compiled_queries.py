"""Compiled tree-sitter queries per language, built once per process (`compiled`): the
parser, the language's query (its query file, or the generic rule for languages without
one, `_generic_patterns`), the patterns on the root node split into a depth-limited query
of their own (`_Compiled.top`), the child shapes taken out of the query
(`workbench/shapes.py`), and the per-pattern settings `extract` reads.
"""
from __future__ import annotations

import re

from tree_sitter import Parser, Query, QueryCursor, QueryError

from .languages import LanguageSpec, grammar, query_text
from .shapes import TOKEN, compile_shapes


_COMMENT = re.compile(r"(?m);.*$")


def split_patterns(text: str) -> list[str] | None:
    """The top-level patterns of query `text`, each as written (with its captures and
    quantifiers), in order; None where `text` holds something this does not read (then the
    query engine's own pattern bounds are used, `_Compiled._bounded_patterns`)."""
    out: list[str] = []
    depth, start, end = 0, None, 0
    for m in TOKEN.finditer(text):     # (comments and strings: their brackets do not count)
        tok = m.group()
        if tok.isspace() or tok.startswith(";"):
            continue
        if depth == 0:
            if start is not None and tok[0] in "@*+?":
                end = m.end()           # a capture or a quantifier of the pattern just closed
                continue
            if start is not None:
                out.append(text[start:end])
                start = None
            if tok[0] not in "([\"":
                return None
            start = m.start()
        if tok in ("(", "["):
            depth += 1
        elif tok in (")", "]"):
            depth -= 1
            if depth < 0:
                return None
        end = m.end()
    if depth:
        return None
    if start is not None:
        out.append(text[start:end])
    return out


class _Compiled:
    """Parser + compiled queries of one language; built once per process.

    A query file's patterns fall in three groups, each compiled on its own and only once
    (compiling the queries is a good part of a small run's start-up):
    * the main query (`query`);
    * the patterns written under the root node (`(module (assignment ...))`, `top`): a query
      of their own, run from the root with a start depth of 0. In the main query each of
      them would keep a state open through the whole file, tested at every node; alone and
      depth-limited, the cursor descends only as far as their steps reach;
    * the child shapes (`shapes`, `workbench/shapes.py`), not run by the query engine.
    A pattern's index, the key of `roles` and `settings`, is its place in `patterns`: the
    main query's patterns first (their index in that query), then the root's (`top_index`).
    `split_top=False` keeps the root's patterns in the main query."""

    def __init__(self, spec: LanguageSpec, text: str | None = None, split_top: bool = True):
        lang = grammar(spec.grammar)
        self.parser = Parser(lang)
        if text is None:
            text = query_text(spec)
            # the generic rule alone, or before a query file that adds to it (`generic_rule`)
            parts = _generic_patterns(lang) if spec.generic_rule or not text else []
            if text:
                parts.append(text)
            text = "\n".join(parts)
        self._text = text
        self.errors = Query(lang, "(ERROR) @error (MISSING) @missing")
        self.roles: dict[int, tuple] = {}   # pattern index -> _role_of(...)
        self.shape_at: dict = {}        # node kind id -> its Shapes or None (filled by extract)
        self.query = self.top = None
        self.top_index: list[int] = []
        self.patterns: list[str] = []   # the text of each pattern, by index
        self.shapes: dict = {}          # container node type -> its child shapes
        # pattern index -> its `(#set! key "value")` settings, for the patterns that have some:
        # `name.suffix` (text appended to the names it defines), `parent` ("class": the
        # symbol belongs to the nearest enclosing class, not the function it is written in),
        # `extent` ("file": the symbol spans to the end of the file, what follows nests in it),
        # `import.name` (the name an import pattern binds)
        self.settings: dict[int, dict] = {}
        # queries compiled and then not used are kept, never freed: with py-tree-sitter 0.26,
        # compiling a query after a large one was freed has crashed the process
        self._kept: list = []
        if text:
            self._compile(lang, split_top)

    def _compile(self, lang, split_top: bool) -> None:
        """Split the query text into its three groups and compile the two the engine runs."""
        texts = split_patterns(self._text)
        if texts is None or not self._compile_groups(lang, texts, split_top):
            if not self._compile_groups(lang, self._bounded_patterns(lang), split_top):
                raise AssertionError("the query's patterns were split wrongly")

    def _compile_groups(self, lang, texts: list[str], split_top: bool) -> bool:
        """Compile the groups of `texts`; False if the queries do not hold one pattern per
        text (`texts` split wrongly)."""
        root_type = self.parser.parse(b"").root_node.type
        head = re.compile(r"\(\s*" + re.escape(root_type) + r"[\s)]")
        main, top, shapes = [], [], []
        for t in texts:
            if "@shape." in _COMMENT.sub("", t):
                shapes.append(t)
            elif split_top and head.match(t):
                top.append(t)
            else:
                main.append(t)
        self._kept += [self.query, self.top]
        try:
            self.query = Query(lang, "\n".join(main))
            self.top = Query(lang, "\n".join(top)) if top else None
        except QueryError:
            self._bounded_patterns(lang)    # the error where it is in the text as written
            raise
        if self.query.pattern_count != len(main) or (
                self.top is not None and self.top.pattern_count != len(top)):
            return False
        # child shapes: compiled by workbench.shapes, tested by extract on the children of
        # `@bind.args` nodes (tests check that the query engine reads them too)
        self.shapes = compile_shapes(shapes)
        self.patterns = main + top
        self.top_index = list(range(len(main), len(main) + len(top)))
        self.settings = {i: st for i in range(len(main)) if (st := self.query.pattern_settings(i))}
        for j, i in enumerate(self.top_index):
            if st := self.top.pattern_settings(j):
                self.settings[i] = st
        return True

    def _bounded_patterns(self, lang) -> list[str]:
        """The text of each pattern by the bounds the query engine gives them: for a query
        `split_patterns` does not read (and to report an error in the text as written)."""
        whole = Query(lang, self._text)
        self._kept.append(whole)
        raw = self._text.encode("utf-8")
        return [raw[whole.start_byte_for_pattern(i):whole.end_byte_for_pattern(i)].decode("utf-8")
                for i in range(whole.pattern_count)]

    def matches(self, root) -> list:
        """(pattern index, captures) of the language's query over the tree at `root`: the
        root's own patterns first, then the others."""
        if self.query is None:
            return []
        if self.top is None:
            return QueryCursor(self.query).matches(root)
        cursor = QueryCursor(self.top)
        cursor.set_max_start_depth(0)
        index = self.top_index
        found = [(index[p], caps) for p, caps in cursor.matches(root)]
        found += QueryCursor(self.query).matches(root)
        return found


_COMPILED: dict[str, _Compiled] = {}


def compiled(spec: LanguageSpec) -> _Compiled:
    c = _COMPILED.get(spec.name)
    if c is None:
        c = _COMPILED[spec.name] = _Compiled(spec)
    return c


_GENERIC_KIND_WORDS = (
    ("method", "method"), ("constructor", "method"), ("function", "function"),
    ("class", "class"), ("interface", "interface"), ("struct", "struct"), ("enum", "enum"),
    ("trait", "trait"), ("protocol", "interface"), ("module", "namespace"), ("namespace", "namespace"),
    ("object", "class"), ("record", "class"), ("type", "type"), ("property", "property"),
    ("field", "field"), ("event", "field"),
)


_GENERIC_EXACT = frozenset({"class", "method", "module", "function", "singleton_method",
                            "interface", "struct", "trait", "enum", "type_alias"})
# where a definition's name is, tried in order: the `name` field, a leading identifier
# (after a `modifiers` node too: `private fun f()`), a declarator's name (`int x = 1;`)
_GENERIC_NAMES = (
    ("name: (_)",),
    (". (identifier)", ". (modifiers) . (identifier)"),
    (". (type_identifier)", ". (modifiers) . (type_identifier)"),
    (". (simple_identifier)", ". (modifiers) . (simple_identifier)"),
    ("(variable_declaration (variable_declarator name: (_) @name))",),
    ("(variable_declaration (simple_identifier) @name)",),
)


def _compiling(lang, t: str, kind: str, names: tuple) -> list[str]:
    """The patterns of node type `t` naming it by each of `names` that the grammar allows."""
    out = []
    for name in names:
        pat = (f"({t} {name}) @definition.{kind}" if "@name" in name
               else f"({t} {name} @name) @definition.{kind}")
        try:
            Query(lang, pat)
        except Exception:
            continue
        out.append(pat)
    return out


def _generic_patterns(lang) -> list[str]:
    """The generic rule: every named node type that looks like a definition and has a
    name (see `_GENERIC_NAMES`) becomes `(type name: (_) @name) @definition.<kind>`."""
    patterns = []
    for i in range(lang.node_kind_count):
        if not lang.node_kind_is_named(i) or not lang.node_kind_is_visible(i):
            continue
        t = lang.node_kind_for_id(i)
        if not t or not (t in _GENERIC_EXACT or t.endswith(
                ("_definition", "_declaration", "_item", "_specifier", "_statement", "_def", "_decl"))):
            continue
        kind = next((k for word, k in _GENERIC_KIND_WORDS if word in t), None)
        if kind is None:
            continue
        field, leading, nested = _GENERIC_NAMES[0], _GENERIC_NAMES[1:-2], _GENERIC_NAMES[-2:]
        found = _compiling(lang, t, kind, field)
        if not found:                   # the first leading-identifier group that fits, and
            found = next((f for g in leading if (f := _compiling(lang, t, kind, g))), [])
            for g in nested:            # declarator names (they match where those do not)
                found += _compiling(lang, t, kind, g)
        patterns.extend(found)
    return list(dict.fromkeys(patterns))
