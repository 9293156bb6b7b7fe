"""Languages without a query file (or with one that adds to it) get the generic rule:
named definition nodes."""
from __future__ import annotations

import pytest

from workbench.extract import extract_file
from workbench.languages import detect

CASES = [
    ("lib/a.rb", b"class Foo\n  def bar(x)\n    baz(x)\n  end\nend\n",
     [("class", "lib.a.Foo", 1, 5), ("method", "lib.a.Foo.bar", 2, 4)]),
    ("a.lua", b"function foo(a)\n  return a\nend\n", [("function", "a.foo", 1, 3)]),
    ("a.php", b"<?php\nclass A {\n  function b() {}\n}\n",
     [("class", "a.A", 2, 4), ("method", "a.A.b", 3, 3)]),
]


CASES += [
    # a name after modifiers
    ("m.scala", b"class A {\n  private def b(): Int = 1\n}\n",
     [("class", "m.A", 1, 3), ("method", "m.A.b", 2, 2)]),
    # a Ruby module is a namespace (kind `module` is the file's own symbol)
    ("lib/m.rb", b"module M\n  def f; end\nend\n",
     [("namespace", "lib.m.M", 1, 3), ("method", "lib.m.M.f", 2, 2)]),
]


@pytest.mark.parametrize("path,src,expected", CASES, ids=[c[0] for c in CASES])
def test_generic_rule_finds_named_definitions(path, src, expected):
    spec = detect(path)
    assert spec is not None and (spec.query is None or spec.generic_rule)
    rows = extract_file(path, src, spec)
    assert rows.status == "ok"
    got = [(s[1], s[3], s[5], s[6]) for s in rows.symbols if s[1] != "module"]
    assert got == expected


def test_data_formats_get_a_row_but_no_parse():
    spec = detect("config/settings.yaml")
    rows = extract_file("config/settings.yaml", b"a: 1\nb: 2\n", spec)
    assert [s[1] for s in rows.symbols] == ["module"] and rows.symbols[0][6] == 2
