"""`workbench eval`: strategies over task sets, their accounting and their outcomes."""
from __future__ import annotations

import json

import pytest

import workbench
from workbench import eval as ev
from workbench import tasks
from workbench.cli import main
from workbench.views import Rules, call
from workbench.views.tokens import count_tokens

from conftest import SAMPLES

RULE_SETS = {"default": Rules(), "small": Rules(max_chars=400, outline_budget=150)}
PATHS = ["shop/orders.py", "shop/models.py", "shop/cli.py"]


@pytest.fixture(scope="module")
def shop(wbs):
    return wbs["pyshop"]


@pytest.fixture(scope="module")
def shop_tasks(shop):
    rows, missing = tasks.from_symbols(shop.con, kinds=["function", "method", "class"], paths=PATHS)
    assert not missing and len(rows) > 25
    return rows


@pytest.fixture(scope="module")
def result(shop, shop_tasks):
    return ev.evaluate(shop, shop_tasks, list(ev.DEFAULT_STRATEGIES) + ["first_n:10"], RULE_SETS)


def test_every_strategy_token_count_is_the_sum_of_the_answers_it_received(shop, result):
    calls = result.calls.to_pylist()
    by_run: dict = {}
    for c in calls:
        by_run.setdefault((c["task_id"], c["strategy"], c["rules"]), []).append(c)
    checked = 0
    for r in result.results.to_pylist():
        got = by_run.get((r["task_id"], r["strategy"], r["rules"]), [])
        assert r["tokens"] == sum(c["tokens"] for c in got)
        assert r["calls"] == len(got)
        assert [c["step"] for c in got] == list(range(1, len(got) + 1))
        checked += 1
    assert checked == result.results.num_rows
    # each recorded answer is what the tool answers: asked again, independently, same tokens
    # (the calls of every third task)
    seen = set()
    for c in calls:
        key = (c["tool"], c["args"], c["rules"])
        if c["task_id"] % 3:
            continue
        if key in seen:
            continue
        seen.add(key)
        again = call(shop, c["tool"], json.loads(c["args"]), rules=RULE_SETS[c["rules"]])
        assert again.tokens == c["tokens"] == count_tokens(again.text), key
    assert len(seen) > 30


def test_outcomes_follow_the_lines_returned(result, shop):
    rows = result.results.to_pylist()
    strategies = {r["strategy"] for r in rows}
    assert strategies == set(ev.DEFAULT_STRATEGIES) | {"first_n:10"}
    for r in rows:
        assert r["outcome"] in ("hit", "cut", "miss")
        assert 0 <= r["covered_lines"] <= r["target_lines"]
        assert (r["outcome"] == "hit") == (r["covered_lines"] == r["target_lines"])
        assert r["cost"] >= 0 and r["file_tokens"] > 0
    navigating = [r for r in rows if r["strategy"] not in ("first_n", "first_n:10", "context_pack")]
    assert all(r["outcome"] == "hit" for r in navigating), \
        [(r["strategy"], r["rules"], r["qualname"], r["outcome"]) for r in navigating if r["outcome"] != "hit"][:5]
    first10 = [r for r in rows if r["strategy"] == "first_n:10" and r["rules"] == "default"]
    lines = dict(((t["path"], t["qualname"]), (t["start_line"], t["end_line"]))
                 for t in tasks.from_symbols(shop.con, kinds=["function", "method", "class"], paths=PATHS)[0])
    for r in first10:
        a, b = lines[(r["path"], r["qualname"])]
        want = "hit" if b <= 10 else "miss" if a > 10 else "cut"
        assert r["outcome"] == want, (r["qualname"], a, b)


def test_a_capped_region_takes_several_calls_all_counted(result):
    rows = [r for r in result.results.to_pylist() if r["rules"] == "small" and r["strategy"] == "whole_file"]
    assert all(r["calls"] > 1 and r["outcome"] == "hit" for r in rows if r["file_tokens"] > 300)


def test_tasks_that_cannot_be_reached_are_not_applicable(shop):
    rows = [dict(task_id=1, task_set="t", source="git", change="added", path="shop/orders.py",
                 qualname="shop.orders.new_one", start_line=None, end_line=None, note="added in a new file"),
            dict(task_id=2, task_set="t", source="git", change="modified", path="nowhere.py",
                 qualname="nowhere.f", start_line=1, end_line=2),
            dict(task_id=3, task_set="t", source="git", change="modified", path="shop/orders.py",
                 qualname="shop.orders.place_order", start_line=3, end_line=5)]
    res = ev.evaluate(shop, rows, ["outline_region"])
    got = {r["task_id"]: (r["outcome"], r["note"]) for r in res.results.to_pylist()}
    assert got[1] == ("n/a", "added in a new file")
    assert got[2][0] == "n/a" and "not in the index" in got[2][1]
    assert got[3][0] == "n/a" and "another revision" in got[3][1]
    assert res.calls.num_rows == 0


def test_results_are_stored_and_summarised(shop, tmp_path):
    db = str(tmp_path / "copy.duckdb")
    with workbench.index(SAMPLES / "pyshop", db=db, progress=False, jobs=1, read_only=False) as wb:
        rows, _ = tasks.from_symbols(wb.con, ["shop.orders.place_order", "shop.orders.Order.add_item"])
        res = ev.evaluate(wb, rows, ["whole_file", "resolve"], {"default": Rules()}, run_id=ev.next_run_id(wb.con))
        ev.store_results(wb.con, res)
        ev.store_results(wb.con, ev.evaluate(wb, rows, ["resolve"], run_id=ev.next_run_id(wb.con)))
        assert wb.sql("SELECT count(DISTINCT run_id), count(*) FROM eval_results").fetchall() == [(2, 6)]
        dist = ev.distribution(wb.con, where="run_id = 1", by=())
        assert [r[0] for r in dist.fetchall()] == ["resolve", "whole_file"]
        text = ev.format_table(ev.distribution(wb.con, res.results, by=()))
        assert text.splitlines()[0].split()[:5] == ["strategy", "rules", "tasks", "p25", "median"]
        assert wb.sql("SELECT sum(tokens) FROM eval_calls WHERE run_id = 1").fetchall()[0][0] == \
            wb.sql("SELECT sum(tokens) FROM eval_results WHERE run_id = 1").fetchall()[0][0]


def test_rule_sets_from_presets_and_files(tmp_path):
    assert ev.rule_set("full") == ("full", Rules(outline_budget=None))
    f = tmp_path / "tight.toml"
    f.write_text('outline_budget = 300\ndocs = false\nmax_depth = "none"\n')
    assert ev.rule_set(str(f)) == ("tight", Rules(outline_budget=300, docs=False, max_depth=None))
    f.write_text("nonsense = 1\n")
    with pytest.raises(ValueError, match="unknown rule 'nonsense'"):
        ev.rule_set(str(f))
    with pytest.raises(ValueError, match="no rule set"):
        ev.rule_set("no-such-preset")


def test_unknown_strategy_is_an_error(shop):
    with pytest.raises(ValueError, match="unknown strategy 'psychic'"):
        ev.evaluate(shop, [], ["psychic"])


def test_cli_eval(shop, tmp_path, capsys):
    db = str(tmp_path / "cli.duckdb")
    workbench.index(SAMPLES / "pyshop", db=db, progress=False, jobs=1).close()
    assert main(["tasks", "from-symbols", db, "shop.orders.place_order", "shop.pricing.compute_total",
                 "--name", "two"]) == 0
    capsys.readouterr()
    out_file = tmp_path / "r.csv"
    assert main(["eval", db, "--strategy", "outline_region", "--strategy", "resolve", "--rules", "default",
                 "full", "-q", "--out", str(out_file)]) == 0
    text = capsys.readouterr().out
    assert "outline_region" in text and "resolve" in text and "stored as run 1" in text
    assert out_file.read_text().count("\n") == 2 * 2 * 2 + 1
    assert main(["eval", db, "--strategy", "nope"]) == 2
    assert main(["eval", db, "missing.parquet"]) == 2


def test_outline_symbol_asks_for_the_definition_itself_when_the_outline_hides_it(result):
    calls = [c for c in result.calls.to_pylist() if c["strategy"] == "outline_symbol" and c["rules"] == "small"]
    runs = [r for r in result.results.to_pylist() if r["strategy"] == "outline_symbol" and r["rules"] == "small"]
    expanded = {c["task_id"]: json.loads(c["args"]) for c in calls
                if c["tool"] == "read_outline" and "symbol" in json.loads(c["args"])}
    methods = [r for r in runs if r["qualname"].count(".") >= 3]      # shop.mod.Class.method
    assert methods and all(r["outcome"] == "hit" for r in runs)
    # under a 150-token outline budget the file outline is level 1: methods are not on it
    assert {r["task_id"] for r in methods} <= set(expanded)
    for r in methods:
        assert expanded[r["task_id"]]["symbol"] == ".".join(r["qualname"].split(".")[2:])


def test_storing_into_a_read_only_workbench_says_how_to_open_it(shop, shop_tasks):
    with pytest.raises(PermissionError, match="read-only.*read_only=False"):
        tasks.save(shop.con, shop_tasks[:1], "x")
    res = ev.evaluate(shop, shop_tasks[:1], ["whole_file"])
    with pytest.raises(PermissionError, match="read-only"):
        ev.store_results(shop.con, res)
