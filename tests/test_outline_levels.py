"""Hierarchical outlines: read_outline's levels, its budget, and level 3 (blocks)."""
from __future__ import annotations

import json
import re

import pytest

import workbench
from workbench.notebooks import stdlib_sample
from workbench.views import Rules, call
from workbench.views.blocks import blocks_of
from workbench.views.tokens import count_tokens

from conftest import SAMPLES

STDLIB_FILES = ["argparse.py", "textwrap.py", "json/decoder.py", "json/__init__.py", "shlex.py",
                "fnmatch.py", "colorsys.py", "bisect.py", "heapq.py", "keyword.py", "this.py"]


@pytest.fixture(scope="module")
def shop(wbs):
    return wbs["pyshop"]


@pytest.fixture(scope="module")
def std(tmp_path_factory):
    root = stdlib_sample(STDLIB_FILES, str(tmp_path_factory.mktemp("stdsample") / "lib"))
    with workbench.index(root, db=str(tmp_path_factory.mktemp("stddb") / "std.duckdb"), progress=False) as wb:
        yield wb


def _whole(wb, path):
    n = wb.sql("SELECT line_count FROM files WHERE path = ?", [path]).fetchall()[0][0]
    return call(wb, "read_region", {"path": path, "start_line": 1, "end_line": n},
                rules=Rules(max_chars=10 ** 9))


def test_a_small_file_gets_its_whole_outline(shop):
    full = call(shop, "read_outline", {"path": "shop/orders.py"}, rules=Rules(outline_budget=None))
    auto = call(shop, "read_outline", {"path": "shop/orders.py"})
    assert auto.tokens <= Rules().outline_budget and auto.text == full.text


def test_over_the_budget_the_outline_drops_to_level_1_and_says_how_to_expand(std):
    full = call(std, "read_outline", {"path": "argparse.py"}, rules=Rules(outline_budget=None))
    auto = call(std, "read_outline", {"path": "argparse.py"})
    assert full.tokens > Rules().outline_budget
    assert auto.tokens < full.tokens
    assert auto.data["level"] == 1
    assert 'read_outline(path="argparse.py", symbol="NAME")' in auto.text
    assert re.search(r"^class ArgumentParser\(.*\) \[lines \d+-\d+\] \(\+\d+ nested\)", auto.text, re.M)
    assert "def parse_known_args" not in auto.text          # members are counted, not listed


def test_level_1_is_made_smaller_until_it_fits(std):
    tight = Rules(outline_budget=400)
    r = call(std, "read_outline", {"path": "argparse.py"}, rules=tight)
    assert r.data["compact"] and "ArgumentParser" in r.text and r.tokens <= 400
    # the last step is sent even over the budget: a file's index is never cut
    tiny = call(std, "read_outline", {"path": "argparse.py", "level": 1}, rules=Rules(outline_budget=10))
    assert tiny.data["compact"] == "dense" and tiny.tokens > 10


def test_level_2_expands_one_definition_with_every_member(std):
    r = call(std, "read_outline", {"path": "argparse.py", "symbol": "ArgumentParser"},
             rules=Rules(max_children=3, outline_budget=None))
    members = re.findall(r"^  def (\w+)", r.text, re.M)
    n = std.sql("""SELECT count(*) FROM symbols s JOIN symbols p ON s.parent_id = p.symbol_id
                   WHERE p.qualname = 'argparse.ArgumentParser' AND s.kind = 'method'""").fetchall()[0][0]
    assert len(members) == n > 3 and "parse_known_args" in members
    assert r.data["level"] == 2 and r.data["symbol"] == "argparse.ArgumentParser"
    dotted = call(std, "read_outline", {"path": "argparse.py", "symbol": "argparse.ArgumentParser"})
    assert dotted.data["symbol"] == "argparse.ArgumentParser"


def test_level_3_blocks_of_a_function_match_the_source(std):
    r = call(std, "read_outline", {"path": "argparse.py", "symbol": "ArgumentParser.parse_known_args"})
    assert r.data["level"] == 3 and r.data["blocks"]
    with open(f"{std.root}/argparse.py", encoding="utf-8") as fh:
        lines = fh.read().split("\n")
    checked = 0

    def walk(items):
        nonlocal checked
        for b in items:
            a, z = b["lines"]
            first = lines[a - 1].strip()
            word = b["type"].split("_")[0]
            assert first.startswith(word if word != "except" else "except"), (b, first)
            assert b["text"].startswith(first[:20])
            checked += 1
            walk(b["children"])
    walk(r.data["blocks"])
    assert checked >= 4
    assert re.search(r"^  if .* \[\d+(-\d+)?\]$", r.text, re.M)
    assert 'read_region(path="argparse.py"' in r.text


def test_else_and_except_sit_level_with_their_statement():
    src = ["def f(x):", "    if x:", "        a()", "    elif y:", "        b()", "    else:",
           "        c()", "    try:", "        d()", "    except E:", "        e()", "    finally:",
           "        g()"]
    tree = blocks_of(src, "python", "function")
    assert [(b["type"], b["rows"]) for b in tree] == [
        ("if_statement", [1, 2]), ("elif_clause", [3, 4]), ("else_clause", [5, 6]),
        ("try_statement", [7, 8]), ("except_clause", [9, 10]), ("finally_clause", [11, 12])]


@pytest.mark.parametrize("repo,lang", [("tsapp", "typescript"), ("goservice", "go"), ("javaservice", "java"),
                                       ("rustlib", "rust"), ("cnative", "c")])
def test_level_3_in_other_languages(wbs, repo, lang):
    """Every line of a function that starts an `if` starts an `if` block of its level 3."""
    wb = wbs[repo]
    rows = wb.sql("""SELECT path, qualname, start_line, end_line FROM symbols
        WHERE language = ? AND kind IN ('function', 'method') AND NOT coalesce(is_declaration, false)
        ORDER BY path, start_line""", [lang]).fetchall()
    checked = 0
    for path, qual, a, b in rows:
        lines = (SAMPLES / repo / path).read_text(encoding="utf-8").split("\n")
        ifs = {n for n in range(a + 1, b + 1) if re.match(r"\s*if\b", lines[n - 1])}
        if not ifs:
            continue
        r = call(wb, "read_outline", {"path": path, "symbol": qual, "level": 3})
        assert not r.error, r.text
        starts = set()

        def walk(items):
            for blk in items:
                x, y = blk["lines"]
                assert a <= x <= y <= b
                if blk["text"].startswith("if"):
                    starts.add(x)
                walk(blk["children"])
        walk(r.data["blocks"])
        assert ifs <= starts, (qual, sorted(ifs), r.text)
        checked += 1
    assert checked, f"no {lang} function with an if in {repo}"


def test_json_format_keeps_the_hint_inside_the_object(std):
    r = call(std, "read_outline", {"path": "argparse.py"}, rules=Rules(format="json"))
    obj = json.loads(r.text)
    assert obj["expand"].startswith("[level 1") and obj["symbols"] and obj["level"] == 1


def test_errors_are_answers(std, shop):
    cases = [({"path": "argparse.py", "symbol": "NoSuchThing"}, "no definition 'NoSuchThing'"),
             ({"path": "argparse.py", "level": 2}, "level 2 needs a symbol"),
             ({"path": "argparse.py", "symbol": "ArgumentParser", "level": 3}, "level 3 (blocks) is for a function"),
             ({"path": "argparse.py", "level": 7}, "must be one of"),
             ({"path": "json", "symbol": "loads"}, "not an indexed file")]
    for args, msg in cases:
        r = call(std, "read_outline", args)
        assert r.error and msg in r.text, (args, r.text)


def test_the_default_read_outline_never_costs_more_than_the_whole_file(shop, std):
    checked = 0
    for wb in (shop, std):
        for (path,) in wb.sql("""SELECT path FROM files WHERE status IN ('ok', 'partial')
                                 AND language = 'python' ORDER BY path""").fetchall():
            r = call(wb, "read_outline", {"path": path})
            whole = _whole(wb, path)
            assert r.tokens <= whole.tokens, (path, r.tokens, whole.tokens)
            checked += 1
    assert checked > 20


def test_a_file_smaller_than_its_outline_is_sent_instead(tmp_path):
    root = tmp_path / "tiny"
    root.mkdir()
    (root / "m.py").write_text("".join(f"def f{i}(): pass\n" for i in range(30)))
    with workbench.index(root, db=str(tmp_path / "t.duckdb"), progress=False) as wb:
        full = call(wb, "read_outline", {"path": "m.py"}, rules=Rules(outline_budget=None))
        whole = _whole(wb, "m.py")
        assert full.tokens > whole.tokens
        r = call(wb, "read_outline", {"path": "m.py"})
        assert r.text == whole.text and r.data["instead_of_outline"] and r.data["end_line"] == 30
        assert count_tokens(r.text) == r.tokens <= whole.tokens


def test_a_session_answers_a_repeated_expansion_as_already_provided(std):
    s = std.session()
    first = s.call("read_outline", path="argparse.py", symbol="HelpFormatter")
    again = s.call("read_outline", path="argparse.py", symbol="HelpFormatter")
    other = s.call("read_outline", path="argparse.py", symbol="Namespace")
    assert not first.error and "already provided" in again.text and "already provided" not in other.text
