"""Task sets from a real agent's call log: a session recorded by the MCP SDK's own client
against the server (in process), turned into the definitions the agent read."""
from __future__ import annotations

import json
import shutil

import pytest

import workbench
from conftest import SAMPLES
from workbench import eval as ev
from workbench import tasks
from workbench.cli import main
from workbench.server.client import run_calls


@pytest.fixture(scope="module")
def served(tmp_path_factory):
    """An index of pyshop and a call log of one agent session against it."""
    base = tmp_path_factory.mktemp("from_log")
    root = base / "pyshop"
    shutil.copytree(SAMPLES / "pyshop", root)
    db = str(base / "pyshop.duckdb")
    workbench.index(root, db=db, progress=False, jobs=1).close()
    with workbench.open(db) as wb:
        add = wb.sql("SELECT start_line, end_line FROM symbols WHERE qualname = 'shop.orders.Order.add_item'").fetchall()[0]
        order = wb.sql("SELECT start_line, end_line FROM symbols WHERE qualname = 'shop.orders.Order'").fetchall()[0]
        lines = wb.sql("SELECT line_count FROM files WHERE path = 'shop/orders.py'").fetchall()[0][0]
    log = str(base / "calls.duckdb")
    calls = [
        ("read_outline", {"path": "shop/orders.py"}),
        ("read_region", {"path": "shop/orders.py", "start_line": add[0], "end_line": add[1]}),
        # the body's first lines only: still a read of add_item
        ("read_region", {"path": "shop/orders.py", "start_line": add[0] + 1, "end_line": add[0] + 2}),
        ("read_region", {"path": "shop/orders.py", "start_line": order[0], "end_line": order[1]}),
        ("read_region", {"path": "shop/orders.py", "start_line": 1, "end_line": lines}),
        ("resolve_symbol", {"name": "compute_total"}),
        ("read_region", {"path": "../outside.py", "start_line": 1, "end_line": 5}),
        ("resolve_symbol", {"name": "no_such_function_anywhere"}),
    ]
    answers = run_calls(db, calls, log=log)
    assert [a.is_error for a in answers][-2] is True       # the escape is refused
    return db, log, add, order


def test_the_definitions_the_agent_read_become_tasks(served):
    db, log, add, order = served
    with workbench.open(db) as wb:
        rows, skipped = tasks.from_log(wb.con, log)
    got = [(r["qualname"], r["start_line"], r["end_line"], r["source"], r["change"]) for r in rows]
    assert got == [("shop.orders.Order.add_item", add[0], add[1], "log", "read"),
                   ("shop.orders.Order", order[0], order[1], "log", "read"),
                   ("shop.pricing.compute_total", *got[2][1:3], "log", "read")]
    assert all("calls.duckdb session " in r["origin"] for r in rows)
    assert "(read_region)" in rows[0]["origin"] and "(resolve_symbol)" in rows[2]["origin"]
    reasons = sorted(why for *_, why in skipped)
    assert len(reasons) == 3
    assert any("exploration" in w for w in reasons)                 # the whole file
    assert any("answered an error" in w for w in reasons)            # the refused escape
    assert reasons.count("the call answered an error") == 2           # and the unknown name


def test_one_task_per_definition_and_session_unless_once(served):
    db, log, *_ = served
    other = [dict(r) for r in _log_rows(log)]
    for r in other:
        r["session"] = "second"
    with workbench.open(db) as wb:
        both, _ = tasks.from_log(wb.con, _log_rows(log) + other)
        once, _ = tasks.from_log(wb.con, _log_rows(log) + other, per_session=False)
        only, _ = tasks.from_log(wb.con, _log_rows(log) + other, sessions=["second"])
    assert len(both) == 6 and len(once) == 3 and len(only) == 3


def test_a_read_of_a_file_that_changed_since_is_left_out(served):
    db, log, *_ = served
    rows = _log_rows(log)
    for r in rows:
        versions = json.loads(r["source_versions"] or "{}")
        if "shop/orders.py" in versions:
            versions["shop/orders.py"] = "0" * 64
        r["source_versions"] = json.dumps(versions)
    with workbench.open(db) as wb:
        got, skipped = tasks.from_log(wb.con, rows)
    assert [r["qualname"] for r in got] == ["shop.pricing.compute_total"]
    assert sum("changed between the call and the index" in w for *_, w in skipped) == 4


def test_log_tasks_evaluate_like_any_task_set(served):
    db, log, add, _ = served
    with workbench.open(db) as wb:
        rows, _ = tasks.from_log(wb.con, log)
        res = ev.evaluate(wb, rows, ["whole_file", "resolve"])
    out = {(r["qualname"], r["strategy"]): r["outcome"] for r in res.results.to_pylist()}
    assert out[("shop.orders.Order.add_item", "whole_file")] == "hit"
    assert out[("shop.orders.Order.add_item", "resolve")] == "hit"


def test_cli_from_log(served, tmp_path, capsys):
    db, log, *_ = served
    copy = str(tmp_path / "copy.duckdb")
    shutil.copy(db, copy)
    assert main(["tasks", "from-log", copy, log, "--name", "session one"]) == 0
    text = capsys.readouterr().out
    assert "3 tasks (definitions the agent read)" in text and "calls left out (3)" in text
    with workbench.open(copy) as wb:
        assert wb.sql("SELECT count(*) FROM tasks WHERE task_set = 'session one' AND source = 'log'"
                      ).fetchall() == [(3,)]
    assert main(["tasks", "from-log", copy, str(tmp_path / "missing.duckdb")]) != 0
    assert "no call log at" in capsys.readouterr().err
    assert main(["tasks", "from-log", copy, copy]) != 0                  # the open index itself
    assert "call log" in capsys.readouterr().err
    import duckdb
    other = str(tmp_path / "other.duckdb")
    duckdb.connect(other).execute("CREATE TABLE t (x INT)").close()
    assert main(["tasks", "from-log", copy, other]) != 0
    assert "is not a call log (it has no table calls)" in capsys.readouterr().err


def _log_rows(log) -> list[dict]:
    import duckdb
    con = duckdb.connect(log, read_only=True)
    try:
        cur = con.execute("SELECT * FROM calls ORDER BY time, session, turn")
        names = [d[0] for d in cur.description]
        return [dict(zip(names, r)) for r in cur.fetchall()]
    finally:
        con.close()
