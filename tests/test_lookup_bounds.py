"""Symbol lookups stay bounded whatever the name: a common name (every class has an
`__init__`) gets a capped, ranked answer that says how many it left out, and every query a
lookup runs is set-based (no subquery evaluated per candidate)."""
from __future__ import annotations

import re

import pytest

import workbench
from workbench import graph, store
from workbench.views import call
from workbench.views.rules import Rules

MAX_LIST = Rules().max_rows

N = 60          # classes, each with __init__ and get, each instantiated and called


@pytest.fixture(scope="module")
def crowd(tmp_path_factory):
    root = tmp_path_factory.mktemp("crowd") / "repo"
    (root / "pkg").mkdir(parents=True)
    (root / "pkg" / "__init__.py").write_text("")
    for i in range(N):
        (root / "pkg" / f"m{i:02d}.py").write_text(
            f"class C{i}:\n"
            f"    def __init__(self, x):\n        self.x = x\n\n"
            f"    def get(self):\n        return self.x\n\n\n"
            + "".join(f"def use{i}_{k}():\n    return C{i}({k}).get()\n\n\n" for k in range(i % 3 + 1)))
    db = tmp_path_factory.mktemp("crowd_db") / "crowd.duckdb"
    wb = workbench.index(root, db=str(db), progress=False, jobs=1)
    yield wb
    wb.close()


def test_find_definition_of_a_common_name_is_capped_and_counts_the_rest(crowd):
    page = graph.find_definition(crowd.con, "__init__", limit=5)
    assert len(page) == 5 and page.total == N and page.rest == N - 5
    # ranked: the most called first (C2, C5, ... have three callers each)
    assert [d.callers for d in page] == [3] * 5
    text = call(crowd, "find_definition", {"symbol": "__init__"}).text
    assert text.count("pkg.m") == MAX_LIST
    assert text.startswith(f"{N} definitions matching '__init__':")
    assert text.endswith(f"[definitions 1-{MAX_LIST} of {N} shown; next page: "
                         f'find_definition(symbol="__init__", offset={MAX_LIST})]')
    nxt = graph.find_definition(crowd.con, "__init__", limit=5, offset=5)
    assert not {d.symbol_id for d in nxt} & {d.symbol_id for d in page} and nxt.total == N
    past = graph.find_definition(crowd.con, "__init__", limit=5, offset=N + 10)
    assert past == [] and past.total == N and past.rest == 0


def test_an_ambiguous_common_name_lists_a_few_and_counts_all(crowd):
    for tool in ("find_callers", "find_callees", "trace_call_chain"):
        text = call(crowd, tool, {"symbol": "get"}).text
        assert text.startswith(f"'get' matches {N} definitions; call again with a qualified name:")
        assert len(text.splitlines()) == 1 + 15 + 1 and text.endswith(f"... {N - 15} more")
    with pytest.raises(graph.AmbiguousSymbol) as exc:
        graph.find_callers(crowd.con, "get")
    assert exc.value.total == N and len(exc.value.matches) <= 50
    text = call(crowd, "resolve_symbol", {"name": "__init__"}).text
    assert text.startswith(f"'__init__' is ambiguous ({N} definitions)")
    assert text.endswith(f"... {N - 15} more")


def test_callers_are_paged_with_a_total(crowd):
    sites = graph.find_callers(crowd.con, "pkg.m02.C2")          # C2(...) three times
    assert len(sites) == 3 and sites.total == 3
    first = graph.find_callers(crowd.con, "pkg.m02.C2", limit=2)
    rest = graph.find_callers(crowd.con, "pkg.m02.C2", limit=2, offset=2)
    assert len(first) == 2 and first.rest == 1 and len(rest) == 1 and rest.total == 3
    assert [s.line for s in first] + [s.line for s in rest] == [s.line for s in sites]


def _plans(con, statements) -> list[str]:
    con.execute("SET explain_output = 'all'")
    try:
        return ["\n".join(r[1] for r in con.execute("EXPLAIN " + sql, params).fetchall())
                for sql, params in statements]
    finally:
        con.execute("RESET explain_output")


def test_lookup_queries_have_no_per_candidate_subquery(crowd, monkeypatch):
    """DuckDB plans a correlated subquery as a dependent ("delim") join that runs once per
    outer row; a lookup over thousands of candidates must not contain one."""
    ran = []
    real = store.run

    def record(con, sql, params=None):
        ran.append((sql, params))
        return real(con, sql, params)

    monkeypatch.setattr(store, "run", record)
    for tool, args in [("find_definition", {"symbol": "__init__"}), ("find_callers", {"symbol": "get"}),
                       ("find_callers", {"symbol": "pkg.m02.C2"}), ("find_callees", {"symbol": "pkg.m02.use2_0"}),
                       ("trace_call_chain", {"symbol": "pkg.m02.C2.__init__", "direction": "both"}),
                       ("resolve_symbol", {"name": "get"}), ("impact", {"paths": ["pkg/m02.py"]})]:
        assert not call(crowd, tool, args).error, (tool, args)
    monkeypatch.setattr(store, "run", real)
    lookups = [(s, p) for s, p in ran if re.search(r"\b(symbols|edges)\b", s)]
    assert len(lookups) >= 10
    for (sql, _), plan in zip(lookups, _plans(crowd.con, lookups)):
        assert "delim" not in plan.lower(), sql
