"""The row cache of a long-lived reader (workbench.rowcache, turned on by `workbench serve`)
changes how fast answers come, never what they say: every tool answers the same text and
data with and without it, on the standard library and under every outline format."""
from __future__ import annotations

import random
import sys
from pathlib import Path

import pytest

import workbench
from workbench import graph, rowcache
from workbench.views import Rules, call
from workbench.views.session import Session

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "bench"))


def _pair(db):
    plain = workbench.open(db, read_only=True)
    hot = workbench.open(db, read_only=True)
    rowcache.enable(hot._con, lambda: hot.generation)
    return plain, hot


def _same(plain, hot, calls, rules=None):
    rules = rules or Rules()
    sa, sb = Session(plain, rules, compact=False), Session(hot, rules, compact=False)
    for name, args in calls:
        a, b = call(plain, name, args, session=sa), call(hot, name, args, session=sb)
        assert (a.text, a.data, a.source_versions, a.stale) == (b.text, b.data, b.source_versions, b.stale), \
            (name, args)


def test_every_tool_answers_the_same_from_memory_on_the_stdlib(stdlib_db):
    from mcp_bench import workload
    plain, hot = _pair(stdlib_db)
    try:
        calls = workload(plain, 6, seed=11)
        con = plain.con
        most = [r[0] for r in con.execute("""
            SELECT s.qualname FROM edges e JOIN symbols s ON s.symbol_id = e.dst_id
            WHERE e.kind = 'calls' GROUP BY 1 ORDER BY count(*) DESC LIMIT 3""").fetchall()]
        ambiguous = [r[0] for r in con.execute("""
            SELECT c.qualname FROM call_candidates c WHERE c.symbol_id IS NOT NULL
            GROUP BY 1 ORDER BY count(*) DESC, 1 LIMIT 3""").fetchall()]
        classes = [r[0] for r in con.execute("""
            SELECT s.qualname FROM symbols s JOIN symbols c ON c.parent_id = s.symbol_id
            WHERE s.kind = 'class' AND c.name = '__init__' ORDER BY s.symbol_id LIMIT 3""").fetchall()]
        for q in most + ambiguous + classes + ["__init__", "get", "json.loads", "no.such.thing"]:
            for off in (0, 7, 40, 100_000):
                calls.append(("find_callers", {"symbol": q, "offset": off}))
        _same(plain, hot, calls)
        # the graph functions themselves, past the tools
        rnd = random.Random(3)
        ids = [r[0] for r in con.execute("SELECT DISTINCT dst_id FROM edges WHERE kind = 'calls' "
                                         "AND dst_id IS NOT NULL ORDER BY 1").fetchall()]
        for sid in rnd.sample(ids, 60):
            for amb in (True, False):
                for limit, offset in ((None, 0), (5, 0), (5, 3), (0, 0), (3, 10_000)):
                    a = graph.find_callers(plain.con, sid, include_ambiguous=amb, limit=limit, offset=offset)
                    b = graph.find_callers(hot.con, sid, include_ambiguous=amb, limit=limit, offset=offset)
                    assert (list(a), a.total, a.offset) == (list(b), b.total, b.offset), (sid, amb, limit, offset)
            name = graph.symbols_by_id(plain.con, [sid])[sid].name
            targets = graph.constructor_targets(plain.con, sid)
            a = graph.find_unresolved_calls(plain.con, name, targets, limit=None)
            b = graph.find_unresolved_calls(hot.con, name, targets, limit=None)
            assert (list(a), a.total) == (list(b), b.total), name
    finally:
        plain.close()
        hot.close()


@pytest.mark.parametrize("fmt", ["markdown", "json", "tags", "stub", "prose"])
def test_outlines_answer_the_same_from_memory_in_every_format(stdlib_db, fmt):
    plain, hot = _pair(stdlib_db)
    try:
        calls = [("read_outline", {"path": p}) for p in
                 ("json/__init__.py", "email/message.py", "typing.py", "json", "email/mime", "asyncio")]
        calls += [("read_outline", {"path": "typing.py", "offset": 30}),
                  ("read_outline", {"path": "email/message.py", "symbol": "Message"}),
                  ("read_outline", {"path": "json", "offset": 2}),
                  ("file_index", {"path": "typing.py"}), ("list_files", {"path": "email"})]
        _same(plain, hot, calls, Rules(format=fmt))
        _same(plain, hot, calls, Rules(format=fmt, outline_budget=None, max_children=5))
    finally:
        plain.close()
        hot.close()


def test_a_new_index_generation_empties_the_cache(sample_copy, tmp_path):
    repo = sample_copy("pyshop")
    db = str(tmp_path / "shop.duckdb")
    workbench.index(repo, db=db, progress=False).close()
    wb = workbench.open(db, read_only=True)
    try:
        stamp = [1]
        cache = rowcache.enable(wb._con, lambda: stamp[0])
        graph.symbol_id(wb.con, "shop.pricing.compute_total")
        assert cache._groups
        assert rowcache.of(wb.con) is cache and cache._groups
        stamp[0] = 2                        # e.g. a refresh attached a new index file
        assert rowcache.of(wb.con) is cache and not cache._groups
        rowcache.disable(wb._con)
        assert rowcache.of(wb.con) is None
    finally:
        rowcache.disable(wb._con)
        wb.close()
