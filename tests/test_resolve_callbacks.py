"""Functions handed to builtins that call them (`Flows.passed_callbacks`, the table
`Language.callback_params` read from `resolve/lang/python_callbacks.txt`): only arguments
that evaluate to something of the repository count, only at the parameters the table names,
and only when the callee really is the builtin (a repository `sorted` is followed as code)."""
from __future__ import annotations

import textwrap

import pytest

import test_resolve_quiet
from drift import differences
from test_resolve_quiet import _append, _replace, _run
from workbench import store
from workbench.callgraph import callgraph
from workbench.indexer import index
from workbench.resolve import Model, Resolver
from workbench.resolve.lang import rules_of
from workbench.resolve.values import OUTSIDE

PROGRAM = textwrap.dedent('''
    import os


    def weight(x):
        return x


    def label(x):
        return str(x)


    def keyed(xs):
        a = sorted(xs, key=weight)
        b = sorted(xs, key=str.lower)
        c = min(xs, key=os.path.basename)
        d = max(xs, default=label)
        e = list(map(len, xs))
        return a, b, c, d, e


    def local(xs):
        def sorted(items, key):
            return list(items)
        return sorted(xs, key=weight)
''')


def test_table_is_data():
    table = rules_of("python").callback_params
    assert table["sorted"] == frozenset({"key"})
    assert table["map"] == frozenset({"0"})
    assert table["functools.reduce"] == frozenset({"0"})
    assert rules_of("go").callback_params == {}


def test_passed_callbacks(tmp_path):
    (tmp_path / "main.py").write_text(PROGRAM)
    con = store.connect(":memory:")
    index(str(tmp_path), ":memory:", con=con, progress=False, jobs=1)
    m = Model(con)
    res = Resolver(m, export=True)
    got = {}
    for src, text, line in store.run(con, "SELECT src_id, dst_name, line FROM edges "
                                          "WHERE kind = 'calls' ORDER BY line, edge_id"):
        targets, _ = res.resolve_call(src, text, line)
        for t in targets:
            if t[0] in OUTSIDE:
                got[(line, text)] = [(arg, m.qual[c[1]]) for arg, c in res.passed_callbacks(src, text, line, t[1])]
    weight = "main.weight"
    assert got[(14, "sorted")] == [("weight", weight)]
    assert got[(15, "sorted")] == []            # str.lower is no function of the repository
    assert got[(16, "min")] == []               # nor is os.path.basename
    assert got[(17, "max")] == []               # default= is not called
    assert got[(18, "map")] == []               # a builtin handed to a builtin
    assert (24, "sorted") not in got            # the repository's own sorted


def test_export_edges(tmp_path):
    (tmp_path / "main.py").write_text(PROGRAM + "\nkeyed(['a'])\nlocal(['a'])\n")
    graph = callgraph([str(tmp_path / "main.py")], package=str(tmp_path))
    assert "main.weight" in graph["main.keyed"]
    assert "main.label" not in graph["main.keyed"]
    assert "main.weight" not in graph["main.local"]       # the local sorted gets it, not a builtin
    assert "main.local.sorted" in graph["main.local"]


# ---------------------------------------------------------------- callback rows in the index
# `edges` holds a row per argument handed to such a builtin (kind `calls`, resolution
# `callback`, written as the argument, on the call's line), so the views, the SQL and the
# export see them; incremental runs keep them as a fresh index has them.

HANDED = textwrap.dedent('''
    def weight(x):
        return x


    def other(x):
        return -x


    def pick(fn, xs):
        return sorted(xs, key=fn)


    def keyed(xs):
        a = sorted(xs, key=weight) + sorted(xs, key=weight)
        b = list(map(lambda v: v + 1, xs))
        return a, b, sorted(xs, key=str.lower)


    def both(xs):
        return pick(weight, xs), pick(other, xs)
''')

CALLBACKS = ("SELECT s.qualname, e.dst_name, e.line, e.dst_qualname, e.candidates FROM edges e "
             "JOIN symbols s ON s.symbol_id = e.src_id WHERE e.resolution = 'callback' ORDER BY e.line, e.dst_name")


def _indexed(tmp_path, files: dict[str, str]):
    root = tmp_path / "repo"
    for rel, text in files.items():
        (root / rel).parent.mkdir(parents=True, exist_ok=True)
        (root / rel).write_text(text)
    db = str(tmp_path / "index.duckdb")
    index(str(root), db, jobs=1, progress=False)
    return root, db


def test_callback_rows_in_the_edges_table(tmp_path):
    _root, db = _indexed(tmp_path, {"main.py": HANDED})
    con = store.connect(db, read_only=True)
    try:
        assert store.run(con, CALLBACKS) == [
            ("main.pick", "fn", 11, None, ["main.other", "main.weight"]),   # one of the two passed
            ("main.keyed", "weight", 15, "main.weight", None),              # two calls alike: one row
            ("main.keyed", "lambda v: v + 1", 16, "main.keyed.<lambda1>", None)]
        # kind `calls` from the scope of the call handing it over, dst_id the function
        assert store.run(con, """SELECT count(*) FROM edges e JOIN symbols d ON d.symbol_id = e.dst_id
                                 WHERE e.resolution = 'callback' AND e.kind = 'calls'
                                   AND d.qualname = e.dst_qualname""") == [(2,)]
        # several possible functions: candidates, as an ambiguous call's (call_candidates too)
        assert store.run(con, """SELECT c.qualname, s.name FROM call_candidates c JOIN edges e USING (edge_id)
                                 JOIN symbols s ON s.symbol_id = c.symbol_id
                                 WHERE e.resolution = 'callback' ORDER BY 1""") == [
            ("main.other", "other"), ("main.weight", "weight")]
        # callback ids come after the extracted edges' ids and are recorded as handed out
        top = store.one(con, "SELECT max(edge_id) FROM edges WHERE resolution IS DISTINCT FROM 'callback'")[0]
        ids = [r[0] for r in store.run(con, "SELECT edge_id FROM edges WHERE resolution = 'callback' ORDER BY 1")]
        assert ids == list(range(top + 1, top + 4))
        assert store.get_meta(con, "edges_ids_used") == str(top + 3)
    finally:
        con.close()


def test_views_show_callback_rows(tmp_path):
    import workbench
    from workbench import graph
    from workbench.views import call
    _root, db = _indexed(tmp_path, {"main.py": HANDED})
    wb = workbench.open(db)
    try:
        con = wb.con
        sites = graph.find_callers(con, "main.weight")
        assert [(c.caller, c.line, c.as_written, c.resolution) for c in sites] == [
            ("main.pick", 11, "fn", "callback"), ("main.keyed", 15, "weight", "callback")]
        assert store.run(con, "SELECT caller, line, as_written, resolution FROM find_callers('main.other')") == [
            ("main.pick", 11, "fn", "callback")]       # one of its candidates
        assert graph.find_callers(con, "main.other", include_ambiguous=False).total == 0
        assert [c.caller for c in graph.find_callers(con, "main.other")] == ["main.pick"]
        chain = graph.trace_call_chain(con, "main.keyed", depth=1)
        assert {(e.dst, e.resolution) for e in chain} == {("main.weight", "callback"),
                                                          ("main.keyed.<lambda1>", "callback")}
        text = call(wb, "find_callers", {"symbol": "main.weight"}).text
        assert "main.keyed main.py:15 (callback)" in text
        assert "main.pick main.py:11 (callback: one of main.other, main.weight)" in text
        assert "15: weight -> main.weight (callback)" in call(wb, "find_callees", {"symbol": "main.keyed"}).text
        assert "? ambiguous callback: fn" in call(wb, "trace_call_chain", {"symbol": "main.pick"}).text
    finally:
        wb.close()


def test_export_reads_callback_rows(tmp_path):
    """`workbench callgraph` takes the callback edges from the rows (each candidate of one
    that may be several functions)."""
    root, _db = _indexed(tmp_path, {"main.py": HANDED + "\nkeyed([1])\nboth([1])\n"})
    graph = callgraph([str(root / "main.py")], package=str(root))
    assert {"main.weight", "main.keyed.<lambda1>"} <= set(graph["main.keyed"])
    assert {"main.weight", "main.other"} <= set(graph["main.pick"])


def test_a_full_run_again_keeps_the_callback_rows_and_ids(tmp_path):
    from workbench.resolve import resolve_edges
    _root, db = _indexed(tmp_path, {"main.py": HANDED})
    con = store.connect(db)
    try:
        before = store.run(con, "SELECT * FROM edges ORDER BY edge_id")
        stats = resolve_edges(con, None)
        assert stats.full and stats.callbacks == 3
        assert store.run(con, "SELECT * FROM edges ORDER BY edge_id") == before
    finally:
        con.close()


def test_an_index_without_resolution_leaves_no_callback_row_pointing_nowhere(tmp_path):
    root, db = _indexed(tmp_path, {"main.py": HANDED, "user.py": "from main import weight\n\n\n"
                                   "def use(xs):\n    return min(xs, key=weight)\n"})
    (root / "main.py").write_text(HANDED.replace("def weight(x)", "def weight2(x)"))
    index(str(root), db, jobs=1, progress=False, resolve=False)
    con = store.connect(db, read_only=True)
    try:
        assert store.run(con, """SELECT count(*) FROM edges WHERE dst_id IS NOT NULL
                                 AND dst_id NOT IN (SELECT symbol_id FROM symbols)""") == [(0,)]
        assert store.run(con, "SELECT count(*) FROM edges WHERE path = 'user.py' AND resolution = 'callback'") == [(0,)]
    finally:
        con.close()
    index(str(root), db, jobs=1, progress=False)
    fresh = str(tmp_path / "fresh.duckdb")
    index(str(root), fresh, jobs=1, progress=False)
    assert differences(db, fresh) == []


# incremental runs: an edit in the caller's file or in the callee's adds, changes or removes
# callback rows exactly as a fresh index of the edited tree has them
LIB = {
    "lib.py": "def weight(x):\n    return x\n\n\ndef other(x):\n    return -x\n",
    "app.py": "from lib import weight\nimport lib\n\n\n"
              "def keyed(xs):\n    return sorted(xs, key=weight), max(xs)\n\n\n"
              "def later(xs):\n    return list(map(lib.later_added, xs))\n",
    "user.py": "def untouched(xs):\n    return sorted(xs)\n",
}
EDITS = {
    "caller adds one": ("app.py", _replace("max(xs)", "max(xs, key=lib.other)"), 2),
    "caller removes one": ("app.py", _replace("key=weight", "reverse=True"), 0),
    "caller moves one": ("app.py", _replace("def keyed", "# a line\n\n\ndef keyed"), 1),
    "callee renamed": ("lib.py", _replace("def weight(x)", "def weight2(x)"), 0),
    "callee rebound": ("lib.py", _append("\n\nweight = other\n"), 1),
    "callee appears": ("lib.py", _append("\n\ndef later_added(x):\n    return x\n"), 2),
    "callee edited": ("lib.py", _replace("return x", "return x * 2"), 1),
    "quiet edit of the callee's file": ("lib.py", _append("\n\ndef unused_fn(y):\n    return y\n"), 1),
}


def _callback_rows(db: str) -> list:
    con = store.connect(db, read_only=True)
    try:
        return store.run(con, "SELECT edge_id, path, dst_name, dst_qualname, candidates FROM edges "
                              "WHERE resolution = 'callback' ORDER BY edge_id")
    finally:
        con.close()


@pytest.mark.parametrize("keep", [True, False])
@pytest.mark.parametrize("case", sorted(EDITS))
def test_incremental_runs_keep_callback_rows_as_a_fresh_index(tmp_path, monkeypatch, case, keep):
    rel, fn, n = EDITS[case]
    first: list = []
    real_index = index

    def index_noting(*args, **kw):      # the callback rows of the first index (before the edit)
        report = real_index(*args, **kw)
        if not first:
            first.append(_callback_rows(str(args[1])))
        return report
    monkeypatch.setattr(test_resolve_quiet, "index", index_noting)
    _r, diff = _run(tmp_path, LIB, rel, fn, keep)
    assert diff == []
    got = _callback_rows(str(tmp_path / "inc.duckdb"))
    assert len(got) == n, got
    if rel == "lib.py" and n == 1 and "rebound" not in case:
        # app.py is not re-indexed: its row is the same row (same id), now pointing at the
        # callee's new symbol when the edit is not quiet
        assert [r[:4] for r in got] == [r[:4] for r in first[0]] == [
            (first[0][0][0], "app.py", "weight", "lib.weight")]


def test_an_edit_of_another_file_keeps_callback_ids(tmp_path, monkeypatch):
    first: list = []
    real_index = index

    def index_noting(*args, **kw):
        report = real_index(*args, **kw)
        if not first:
            first.append(_callback_rows(str(args[1])))
        return report
    monkeypatch.setattr(test_resolve_quiet, "index", index_noting)
    _r, diff = _run(tmp_path, LIB, "user.py", _replace("sorted(xs)", "sorted(xs, key=len)"), True)
    assert diff == []
    assert _callback_rows(str(tmp_path / "inc.duckdb")) == first[0] and len(first[0]) == 1
