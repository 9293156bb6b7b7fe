"""Every tool call is bounded in time (rule `tool_timeout`) and memory (`tool_memory_mb`):
a request that would run for minutes is stopped near the limit with an error naming the
limit and how to narrow it, and the next call on the same connection works - through the
Python API, the server's dispatch and a real MCP client over stdio.

The slow request is a real one: `trace_call_chain` follows every call path to the depth
asked, and a layered call graph where each function calls every function of the next
layer (a dispatch table, a visitor over all node kinds) has 8^8 paths from its top at
depth 8. Unlimited it runs for minutes; nothing in the test sleeps.
"""
from __future__ import annotations

import time

import duckdb
import pytest

import workbench
from conftest import write
from workbench.indexer import index
from workbench.server.client import run_calls
from workbench.server.state import Served
from workbench.views import call
from workbench.views.limits import limited, memory_bytes
from workbench.views.profile import Profile
from workbench.views.rules import Rules

WIDTH, LAYERS = 8, 9
SLOW = ("trace_call_chain", {"symbol": "dense.f0_0", "depth": 8})
LIMIT = 1.0
LATE = 15.0         # what "near the limit" allows on a loaded machine (unlimited: minutes)


def dense_source() -> str:
    lines = []
    for layer in range(LAYERS):
        for i in range(WIDTH):
            lines.append(f"def f{layer}_{i}():")
            if layer + 1 < LAYERS:
                lines += [f"    f{layer + 1}_{j}()" for j in range(WIDTH)]
            else:
                lines.append("    return 1")
            lines.append("")
    return "\n".join(lines)


@pytest.fixture(scope="module")
def dense_db(tmp_path_factory):
    base = tmp_path_factory.mktemp("dense")
    write(base / "repo", "dense.py", dense_source())
    db = str(base / "dense.duckdb")
    index(base / "repo", db, jobs=1, progress=False)
    return db


def check_stopped(text: str, seconds: float, limit: float) -> None:
    assert text.startswith("error: trace_call_chain(symbol='dense.f0_0', depth=8) was stopped after "
                           f"{limit:g} s"), text
    assert "tool_timeout" in text and "lower depth" in text, text
    assert limit * 0.9 <= seconds < limit + LATE, seconds


def test_default_rules_bound_every_call():
    r = Rules()
    assert r.tool_timeout is not None and 0 < r.tool_timeout <= 30
    assert r.tool_memory_mb is not None and r.tool_memory_mb <= 4096
    for bad in (0, -1, "5", True, float("nan")):
        with pytest.raises(ValueError, match="tool_timeout"):
            Rules(tool_timeout=bad)
    with pytest.raises(ValueError, match="tool_memory_mb"):
        Rules(tool_memory_mb=1)
    assert Rules.parse_assignments(["tool_timeout=2.5", "tool_memory_mb=none"]) == \
        Rules(tool_timeout=2.5, tool_memory_mb=None)


def test_a_slow_request_is_stopped_near_the_limit_and_the_next_call_works(dense_db):
    wb = workbench.open(dense_db)
    rules = Rules(tool_timeout=LIMIT)
    assert not call(wb, "find_definition", {"symbol": "f3_1"}, rules=rules).error   # tokenizer loaded
    for _ in range(2):                       # twice: the first stop leaves nothing behind
        t = time.perf_counter()
        r = call(wb, *SLOW, rules=rules)
        check_stopped(r.text, time.perf_counter() - t, LIMIT)
        assert r.error and r.cut is False
        nxt = call(wb, "trace_call_chain", {"symbol": "dense.f0_0", "depth": 2}, rules=rules)
        assert not nxt.error and "dense.f2_7" in nxt.text, nxt.text
        assert wb.sql("SELECT count(*) FROM symbols WHERE kind = 'function'").fetchall()[0][0] == WIDTH * LAYERS
    wb.close()


def test_a_session_records_the_stopped_call_and_goes_on(dense_db):
    wb = workbench.open(dense_db)
    s = wb.session(rules=Rules(tool_timeout=LIMIT))
    r = s.call(SLOW[0], **SLOW[1])
    assert r.error and "tool_timeout" in r.text
    assert not s.call("read_outline", path="dense.py").error
    assert [rec.error for rec in s.records] == [True, False]
    wb.close()


def test_the_server_dispatch_stops_it_too(dense_db):
    served = Served(dense_db, Profile(Rules(tool_timeout=LIMIT), None), transport="in-process")
    try:
        t = time.perf_counter()
        r = served.call(*SLOW, key="a")
        check_stopped(r.text, time.perf_counter() - t, LIMIT)
        assert not served.call("find_callers", {"symbol": "f4_2"}, key="a").error
    finally:
        served.close()


def test_over_mcp_stdio_the_client_gets_the_error_and_the_next_answer(dense_db):
    t = time.perf_counter()
    answers = run_calls(dense_db, [SLOW, ("find_callees", {"symbol": "dense.f1_3"})], stdio=True,
                        extra_args=("--rule", f"tool_timeout={LIMIT:g}"))
    elapsed = time.perf_counter() - t
    assert answers[0].is_error and "was stopped after 1 s" in answers[0].text, answers[0].text
    assert not answers[1].is_error and "dense.f2_7" in answers[1].text, answers[1].text
    assert elapsed < 60 + LATE          # server start and one stopped call, not minutes


def test_the_limit_only_stops_its_own_call():
    """A user's interrupt is not turned into a time-limit message, and a limit that has
    not run out never reaches the connection afterwards."""
    con = duckdb.connect()
    with limited(con, 5.0) as lim:
        assert con.execute("SELECT 1").fetchone() == (1,)
    assert lim.fired is False
    time.sleep(0.01)
    assert con.execute("SELECT count(*) FROM range(1000)").fetchone() == (1000,)
    with pytest.raises(duckdb.InterruptException):
        with limited(con, 0.2) as lim:
            con.execute("SELECT count(*) FROM range(1e12::BIGINT) t(i) WHERE i % 7 = 3").fetchall()
    assert lim.fired is True
    assert con.execute("SELECT 2").fetchone() == (2,)


def test_memory_is_lowered_for_the_call_and_put_back():
    con = duckdb.connect()
    con.execute("SET memory_limit = '3GB'")
    before = con.execute("SELECT current_setting('memory_limit')").fetchone()[0]
    with limited(con, None, 64):
        inside = con.execute("SELECT current_setting('memory_limit')").fetchone()[0]
        assert memory_bytes(inside) == 64 * 2 ** 20, inside
    for _ in range(5):                  # put back exactly as it read, however often
        assert con.execute("SELECT current_setting('memory_limit')").fetchone()[0] == before
        with limited(con, None, 64):
            pass
    con.execute("SET memory_limit = '32MB'")            # a lower limit of the user's stays
    with limited(con, None, 64):
        assert memory_bytes(con.execute("SELECT current_setting('memory_limit')").fetchone()[0]) \
            <= 32 * 10 ** 6
    assert memory_bytes("953.6 MiB") == pytest.approx(953.6 * 2 ** 20)
    assert memory_bytes("-1") is None


def test_a_safe_workbench_keeps_its_own_memory_limit(dense_db):
    wb = workbench.open(dense_db, safe=True, memory_limit="200MB")
    r = call(wb, "find_callers", {"symbol": "f4_2"}, rules=Rules(tool_timeout=LIMIT, tool_memory_mb=64))
    assert not r.error, r.text
    assert memory_bytes(wb.sql("SELECT current_setting('memory_limit')").fetchall()[0][0]) <= 200 * 10 ** 6
    wb.close()
