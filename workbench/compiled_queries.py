"""Compiled tree-sitter queries per language, built once per process (`compiled`): the
parser, the language's query (its query file, or the generic rule for languages without
one, `_generic_patterns`), the patterns on the root node split into a depth-limited query
of their own (`_Compiled._split_top`), the child shapes taken out of the query
(`workbench/shapes.py`), and the per-pattern settings `extract` reads.
"""
from __future__ import annotations

import re

from tree_sitter import Parser, Query, QueryCursor

from .languages import LanguageSpec, grammar, query_text
from .shapes import compile_shapes


_COMMENT = re.compile(rb"(?m);.*$")


class _Compiled:
    """Parser + compiled queries of one language; built once per process."""

    def __init__(self, spec: LanguageSpec):
        lang = grammar(spec.grammar)
        self.parser = Parser(lang)
        text = query_text(spec)
        # the generic rule alone, or before a query file that adds to it (`generic_rule`)
        parts = _generic_patterns(lang) if spec.generic_rule or not text else []
        if text:
            parts.append(text)
        self._text = "\n".join(parts)
        self.query = Query(lang, self._text) if parts else None
        self.errors = Query(lang, "(ERROR) @error (MISSING) @missing")
        self.roles: dict[int, tuple] = {}   # pattern index -> _role_of(...)
        # pattern index -> its `(#set! key "value")` settings, for the patterns that have some:
        # `name.suffix` (text appended to the names it defines), `parent` ("class": the
        # symbol belongs to the nearest enclosing class, not the function it is written in),
        # `extent` ("file": the symbol spans to the end of the file, what follows nests in it)
        self.settings: dict[int, dict] = {} if self.query is None else {
            i: st for i in range(self.query.pattern_count)
            if (st := self.query.pattern_settings(i))}
        # container node type -> its child shapes (`@shape.<kind>` patterns, read by extract)
        self.shapes = self._take_shapes() if self.query is not None else {}
        self.shape_at: dict = {}        # node kind id -> its Shapes or None (filled by extract)
        self.top, self.top_index = self._split_top(lang) if self.query is not None else (None, [])

    def _take_shapes(self) -> dict:
        """Compile the `@shape.<kind>` patterns as child shapes (`workbench.shapes`) and
        disable them in the query: the query engine checked them for the grammar, extract
        tests them on the children of `@bind.args` nodes."""
        texts = []
        for i, pattern, shape in self._patterns():
            if shape:
                texts.append(pattern.decode("utf-8"))
                self.query.disable_pattern(i)
        return compile_shapes(texts)

    def _patterns(self):
        """(index, text as UTF-8, whether it is a child shape) of each pattern of the query."""
        raw = self._text.encode("utf-8")
        for i in range(self.query.pattern_count):
            pattern = raw[self.query.start_byte_for_pattern(i):self.query.end_byte_for_pattern(i)]
            yield i, pattern, b"@shape." in _COMMENT.sub(b"", pattern)

    def matches(self, root) -> list:
        """(pattern index, captures) of the language's query over the tree at `root`: the
        root's own patterns first (`_split_top`), then the others."""
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

    def _split_top(self, lang) -> tuple:
        """Move the patterns written under the root node (`(module (assignment ...))`) to a
        query of their own, run from the root with a start depth of 0: in the main query
        each of them keeps a state open through the whole file, tested at every node; alone
        and depth-limited, the cursor descends only as far as their steps reach. Returns
        that query (None if there are no such patterns) and, per its pattern, the index of
        the pattern in the main query (where its role and settings are kept)."""
        root_type = self.parser.parse(b"").root_node.type
        head = re.compile(rb"\(\s*" + re.escape(root_type.encode()) + rb"[\s)]")
        moved, texts = [], []
        for i, pattern, shape in self._patterns():
            if head.match(pattern) and not shape:
                moved.append(i)
                texts.append(pattern.decode("utf-8"))
        if not moved:
            return None, []
        top = Query(lang, "\n".join(texts))
        if top.pattern_count != len(moved):  # a pattern that did not stand alone: keep them all
            return None, []
        for i in moved:
            self.query.disable_pattern(i)
        return top, moved


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
