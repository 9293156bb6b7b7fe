"""context_pack: what each task needs, within its budget, with what it left out."""
from __future__ import annotations

import re

import pytest

import workbench
from workbench.cli import main
from workbench.notebooks import stdlib_sample
from workbench.views import Rules, call
from workbench.views.packs import TASKS, is_test_path
from workbench.views.tokens import count_tokens

from conftest import SAMPLES

BUDGETS = (50, 80, 150, 300, 700, 2000)


@pytest.fixture(scope="module")
def shop(wbs):
    return wbs["pyshop"]


@pytest.fixture(scope="module")
def std(tmp_path_factory):
    root = stdlib_sample(["argparse.py", "json/__init__.py", "json/decoder.py", "json/encoder.py",
                          "json/scanner.py", "textwrap.py"], str(tmp_path_factory.mktemp("packstd") / "lib"))
    with workbench.index(root, db=str(tmp_path_factory.mktemp("packdb") / "std.duckdb"), progress=False) as wb:
        yield wb


CASES = [("shop", "fix-bug", "shop.pricing.compute_total"), ("shop", "add-method", "shop.orders.Order"),
         ("shop", "rename", "shop.pricing.compute_total"), ("shop", "explain", "shop.orders.place_order"),
         ("std", "fix-bug", "argparse.ArgumentParser.parse_known_args"),
         ("std", "add-method", "argparse.HelpFormatter"), ("std", "rename", "json.decoder.JSONDecoder.decode"),
         ("std", "explain", "json.loads"), ("std", "add-method", "argparse._ActionsContainer.add_argument")]


@pytest.mark.parametrize("where,task,target", CASES)
def test_packs_stay_within_their_budget(shop, std, where, task, target):
    wb = shop if where == "shop" else std
    for budget in BUDGETS:
        r = call(wb, "context_pack", {"task": task, "target": target, "budget_tokens": budget})
        assert not r.error, r.text
        assert r.tokens == count_tokens(r.text) <= budget, (budget, r.tokens)
        assert r.text.startswith(f"context pack: {task} for ")
        if r.data["left_out"]:
            assert "left out" in r.text
        for reg in r.data["regions"]:                    # verbatim lines are the file's lines
            lines = (open(f"{wb.root}/{reg['path']}", encoding="utf-8").read().split("\n"))
            body = lines[reg["start_line"] - 1:reg["end_line"]]
            assert "\n".join(body) in r.text


def test_a_bigger_budget_never_holds_less(std):
    sizes = [call(std, "context_pack", {"task": "fix-bug", "target": "argparse.ArgumentParser.parse_known_args",
                                        "budget_tokens": b}).data for b in (150, 700, 4000)]
    assert [len(d["left_out"]) for d in sizes] == sorted((len(d["left_out"]) for d in sizes), reverse=True)
    assert sizes[-1]["regions"][0]["end_line"] >= sizes[0]["regions"][0]["end_line"]


def test_fix_bug_holds_body_call_sites_callees_and_tests(shop):
    r = call(shop, "context_pack", {"task": "fix-bug", "target": "shop.pricing.compute_total"})
    assert r.data["included"] == ["body", "call sites", "callees", "tests"] and not r.data["left_out"]
    assert "shop/orders.py:47 in shop.orders.Order.recalculate" in r.text       # the call site, aliased `ct`
    assert "shop.pricing.apply_discount" in r.text                              # a callee's signature
    assert re.search(r"^tests\.test_orders\.\w+ tests/test_orders\.py:\d+-\d+ \(calls it at line \d+\)$",
                     r.text, re.M)


def test_a_body_too_long_for_the_budget_is_cut_and_says_what_is_missing(std):
    r = call(std, "context_pack", {"task": "fix-bug", "target": "argparse.ArgumentParser.parse_known_args",
                                   "budget_tokens": 150})
    reg = r.data["regions"][0]
    full = std.sql("SELECT end_line FROM symbols WHERE qualname = 'argparse.ArgumentParser.parse_known_args'"
                   ).fetchall()[0][0]
    assert reg["end_line"] < full
    assert f"lines {reg['end_line'] + 1}-{full} (read_region)" in r.text


def test_rename_marks_what_is_not_resolved(shop):
    r = call(shop, "context_pack", {"task": "rename", "target": "shop.pricing.compute_total"})
    assert "shop/pricing.py:14 definition: def compute_total(" in r.text
    assert "shop/orders.py:47" in r.text                                       # resolved through an alias
    assert "shop/util/__init__.py:10 import: from shop.pricing import compute_total as total_price" in r.text
    assert "(from shop/__init__.py: a re-export or another compute_total)" in r.text


def test_add_method_on_a_method_uses_its_class(std):
    r = call(std, "context_pack", {"task": "add-method", "target": "argparse._ActionsContainer.add_argument"})
    assert r.text.startswith("context pack: add-method for argparse._ActionsContainer.add_argument")
    assert re.search(r"^### class outline\n## argparse.py .*\nclass _ActionsContainer\(object\) \[lines", r.text, re.M)
    assert "### imports" in r.text and "### a similar method" in r.text


def test_bad_requests_are_error_answers(shop):
    assert "must be one of" in call(shop, "context_pack", {"task": "refactor", "target": "x"}).text
    assert "at least 50" in call(shop, "context_pack", {"task": "explain", "target": "shop.orders.place_order",
                                                        "budget_tokens": 10}).text
    amb = call(shop, "context_pack", {"task": "rename", "target": "compute_total"})
    assert "ambiguous" in amb.text and "shop.util.legacy.compute_total" in amb.text
    assert "no definition named" in call(shop, "context_pack", {"task": "explain", "target": "nope"}).text
    assert "add-method needs a class" in call(shop, "context_pack", {"task": "add-method",
                                                                      "target": "shop.pricing.compute_total"}).text


def test_default_budget_comes_from_the_rules(shop):
    r = call(shop, "context_pack", {"task": "explain", "target": "shop.orders.place_order"},
             rules=Rules(pack_budget=120))
    assert r.data["budget"] == 120 and r.tokens <= 120


def test_test_paths():
    assert all(map(is_test_path, ["tests/test_x.py", "pkg/tests/util.py", "test_a.py", "a_test.go",
                                  "src/x.test.ts", "FooTest.java", "conftest.py", "spec/a.rb"]))
    assert not any(map(is_test_path, ["pkg/testing_tools.py", "src/contest.py", "latest.py"]))


def test_every_task_is_a_cli_command_too(tmp_path, capsys):
    db = str(tmp_path / "cli.duckdb")
    workbench.index(SAMPLES / "pyshop", db=db, progress=False, jobs=1).close()
    for task in TASKS:
        target = "shop.orders.Order" if task == "add-method" else "shop.orders.place_order"
        assert main(["context_pack", db, task, target, "--budget-tokens", "300"]) == 0
        assert capsys.readouterr().out.startswith(f"context pack: {task} for ")


@pytest.fixture(scope="module")
def threading_db(tmp_path_factory):
    root = stdlib_sample(["threading.py"], str(tmp_path_factory.mktemp("threadlib") / "lib"))
    with workbench.index(root, db=str(tmp_path_factory.mktemp("threaddb") / "t.duckdb"), progress=False) as wb:
        yield wb


@pytest.mark.parametrize("tool,key", [("context_pack", "target"), ("resolve_symbol", "name")])
def test_a_line_picks_one_of_a_property_getter_and_setter(threading_db, tool, key):
    wb = threading_db
    spans = wb.sql("SELECT start_line, end_line FROM symbols WHERE qualname = 'threading.Thread.daemon' "
                   "ORDER BY start_line").fetchall()
    assert len(spans) == 2                      # the getter and the setter: one qualified name
    args = {key: "threading.Thread.daemon", "path": "threading.py"}
    if tool == "context_pack":
        args["task"] = "fix-bug"
    r = call(wb, tool, args)
    assert not r.error and r.data["candidates"] == ["threading.Thread.daemon"] * 2
    assert "call again with a line inside the one you mean:" in r.text   # a path would not help
    for start, end in spans:
        r = call(wb, tool, {**args, "line": (start + end) // 2})
        assert not r.error and "candidates" not in r.data, r.text
        assert f"threading.py:{start}-{end}" in r.text or f"threading.py lines {start}-{end}" in r.text, r.text
    r = call(wb, tool, {**args, "line": 1})
    assert r.error and "no definition named 'threading.Thread.daemon' in threading.py at line 1" in r.text
