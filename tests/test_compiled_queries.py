"""A language's query text is split into its patterns (`compiled_queries.split_patterns`) and
compiled in groups (the main query, the root's patterns, the child shapes): the split must be
the query engine's own, every shape must be a pattern the grammar accepts, and an error in a
query must be reported where it is in the text as written."""
from __future__ import annotations

import re

import pytest
from tree_sitter import Query, QueryError

from workbench.compiled_queries import _COMMENT, _Compiled, compiled, split_patterns
from workbench.languages import SPECS, grammar

_KEPT: list = []    # compiled queries are never freed (see `_Compiled._kept`)


def _words(texts: list[str]) -> list[str]:
    return [" ".join(_COMMENT.sub("", t).split()) for t in texts]


def _query_languages() -> list[str]:
    return sorted(name for name, spec in SPECS.items() if spec.parse and spec.query)


def test_split_patterns_reads_captures_quantifiers_strings_and_comments():
    text = ('(a) @x\n; (not a pattern] "\n[(b) (c)]* @y @z\n"lit" @w\n'
            '((d) @v (#match? @v "[(]"))\n(e\n  ; ) inside\n  (f))\n')
    assert split_patterns(text) == [
        "(a) @x", "[(b) (c)]* @y @z", '"lit" @w', '((d) @v (#match? @v "[(]"))',
        "(e\n  ; ) inside\n  (f))"]
    for unread in ("(a))", "(a", "name: (a)", "(a) . (b)"):
        assert split_patterns(unread) is None, unread


@pytest.mark.parametrize("name", _query_languages())
def test_the_split_is_the_query_engines(name):
    spec = SPECS[name]
    c = compiled(spec)
    split = split_patterns(c._text)
    assert split is not None and len(split) > 5
    assert _words(split) == _words(c._bounded_patterns(grammar(spec.grammar)))
    # every pattern is in exactly one group: the main query, the root's, the shapes
    shapes = [t for t in split if "@shape." in _COMMENT.sub("", t)]
    assert len(c.patterns) + len(shapes) == len(split)
    assert sorted(_words(c.patterns + shapes)) == sorted(_words(split))
    assert c.query.pattern_count == len(c.patterns) - len(c.top_index)


def test_a_generic_rule_is_split_as_the_engine_does():
    generic = sorted(n for n, s in SPECS.items() if s.parse and s.generic_rule)
    assert generic
    for name in generic[:3]:
        spec = SPECS[name]
        c = compiled(spec)
        if c._text:
            assert _words(split_patterns(c._text)) == _words(c._bounded_patterns(grammar(spec.grammar)))


def test_shapes_are_patterns_of_the_grammar():
    seen = 0
    for name in _query_languages():
        spec = SPECS[name]
        lang = grammar(spec.grammar)
        for t in split_patterns(compiled(spec)._text):
            if "@shape." in _COMMENT.sub("", t):
                q = Query(lang, t)      # raises for a node type or field the grammar lacks
                _KEPT.append(q)
                assert q.pattern_count == 1
                seen += 1
    assert seen >= 4


def test_settings_follow_the_patterns_they_belong_to():
    seen = 0
    for name in _query_languages():
        c = compiled(SPECS[name])
        for i, st in c.settings.items():
            keys = re.findall(r'#set!\s+([\w.]+)', _COMMENT.sub("", c.patterns[i]))
            assert keys and set(keys) <= set(st), (name, i, st)
        assert sum("#set!" in _COMMENT.sub("", p) for p in c.patterns) == len(c.settings), name
        seen += len(c.settings)
    assert seen >= 5


@pytest.mark.parametrize("text, where", [
    ("(module) @m\n(call function: (identifer) @f)\n", "row 1"),   # after a root pattern
    ("(call function: (identifier) @f)\n(module (expression_statement (nope))) @m\n", "row 1"),
    ("(module) @m\n(call function: (identifier) @f\n", "EOF"),       # not split: unbalanced
])
def test_an_error_is_reported_where_it_is_written(text, where):
    with pytest.raises(QueryError, match=where):
        _KEPT.append(_Compiled(SPECS["python"], text=text))
