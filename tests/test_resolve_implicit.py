"""Implicit calls (resolution `implicit`): rows resolution adds for the methods Python runs
without a call expression (operators, subscripts, `with`, `for`, `len(x)`, a dataclass's
generated `__init__`, a module's `__getattr__`), shown by the views and kept by
incremental runs as a fresh index has them. They are a setting (`resolve.setting`), off
unless asked for: off gives none, and switching resolves everything again."""
from __future__ import annotations

import textwrap

import pytest

from drift import differences
from test_resolve_quiet import _replace, _run
from workbench import store
from workbench.indexer import index

LIB = textwrap.dedent('''\
    class Vec:
        def __init__(self, *xs):
            self.xs = list(xs)

        def __add__(self, other):
            return Vec(*[a + b for a, b in zip(self.xs, other.xs)])

        def __getitem__(self, i):
            return self.xs[i]

        def __len__(self):
            return len(self.xs)

        def __iter__(self):
            return iter(self.xs)

        def __enter__(self):
            return self

        def __exit__(self, *exc):
            return False


    class Bag(dict):
        pass
''')

APP = textwrap.dedent('''\
    from lib import Vec, Bag


    def use(n):
        v = Vec(1, 2) + Vec(3, 4)
        w = v + v
        first = w[0]
        total = n + 1
        b = Bag()
        b["k"] = total
        with Vec() as z:
            size = len(z)
        return [x for x in w], first, size, b["k"]
''')

IMPLICIT = ("SELECT s.qualname, e.line, e.dst_name, e.dst_qualname, e.candidates FROM edges e "
            "JOIN symbols s ON s.symbol_id = e.src_id WHERE e.resolution = 'implicit' "
            "ORDER BY e.line, e.dst_name")


def _indexed(tmp_path, files: dict[str, str], implicit: bool | None = True):
    root = tmp_path / "repo"
    for rel, text in files.items():
        (root / rel).parent.mkdir(parents=True, exist_ok=True)
        (root / rel).write_text(text)
    db = str(tmp_path / "index.duckdb")
    index(str(root), db, jobs=1, progress=False, implicit=implicit)
    return root, db


def test_implicit_rows_in_the_edges_table(tmp_path):
    _root, db = _indexed(tmp_path, {"lib.py": LIB, "app.py": APP})
    con = store.connect(db, read_only=True)
    try:
        assert store.run(con, IMPLICIT) == [
            ("app.use", 5, "Vec(1, 2).__add__", "lib.Vec.__add__", None),
            ("app.use", 6, "v.__add__", "lib.Vec.__add__", None),      # `v`: what __add__ returns
            ("app.use", 7, "w.__getitem__", "lib.Vec.__getitem__", None),
            ("app.use", 11, "Vec().__enter__", "lib.Vec.__enter__", None),
            ("app.use", 11, "Vec().__exit__", "lib.Vec.__exit__", None),
            ("app.use", 12, "z.__len__", "lib.Vec.__len__", None),
            ("app.use", 13, "w.__iter__", "lib.Vec.__iter__", None)]
        # `n + 1`, `b["k"]` on a dict subclass and `Vec.__add__`'s own `a + b` give none;
        # every row is a `calls` edge whose target is the method's symbol
        assert store.run(con, """SELECT count(*) FROM edges e JOIN symbols d ON d.symbol_id = e.dst_id
                                 WHERE e.resolution = 'implicit' AND e.kind = 'calls'
                                   AND d.qualname = e.dst_qualname""") == [(7,)]
    finally:
        con.close()


def test_views_show_implicit_rows(tmp_path):
    import workbench
    from workbench import graph
    from workbench.views import call
    _root, db = _indexed(tmp_path, {"lib.py": LIB, "app.py": APP})
    wb = workbench.open(db)
    try:
        con = wb.con
        assert [(c.caller, c.line, c.as_written, c.resolution)
                for c in graph.find_callers(con, "lib.Vec.__add__")] == [
            ("app.use", 5, "Vec(1, 2).__add__", "implicit"), ("app.use", 6, "v.__add__", "implicit")]
        assert store.run(con, "SELECT caller, line, resolution FROM find_callers('lib.Vec.__len__')") == [
            ("app.use", 12, "implicit")]
        chain = graph.trace_call_chain(con, "app.use", depth=2)
        assert ("lib.Vec.__add__", "implicit") in {(e.dst, e.resolution) for e in chain}
        text = call(wb, "find_callers", {"symbol": "lib.Vec.__getitem__"}).text
        assert "app.use app.py:7 (implicit)" in text
        assert "12: z.__len__ -> lib.Vec.__len__ (implicit)" in call(wb, "find_callees", {"symbol": "app.use"}).text
    finally:
        wb.close()


def test_a_full_run_again_keeps_the_implicit_rows_and_ids(tmp_path):
    from workbench.resolve import resolve_edges
    _root, db = _indexed(tmp_path, {"lib.py": LIB, "app.py": APP})
    con = store.connect(db)
    try:
        before = store.run(con, "SELECT * FROM edges ORDER BY edge_id")
        stats = resolve_edges(con, None)
        assert stats.full and stats.callbacks == 7      # the rows resolution adds: these seven
        assert store.run(con, "SELECT * FROM edges ORDER BY edge_id") == before
    finally:
        con.close()


# incremental runs: an edit of the class's file or of the caller's adds, changes or removes
# implicit rows exactly as a fresh index of the edited tree has them
FILES = {"lib.py": LIB, "app.py": APP, "other.py": "def untouched(xs):\n    return xs[0]\n"}
EDITS = {
    "method renamed": ("lib.py", _replace("def __getitem__", "def get_item"), 6),
    "method added": ("lib.py", _replace("class Bag(dict):\n    pass",
                                        "class Bag(dict):\n    def __setitem__(self, k, v):\n"
                                        "        super().__setitem__(k, v)"), 8),
    "base gains the method": ("lib.py", _replace("class Bag(dict):\n    pass",
                                                 "class Bag(Vec):\n    pass"), 8),
    "caller adds one": ("app.py", _replace("first = w[0]", "first = w[0]\n    u = w + v"), 8),
    "caller removes one": ("app.py", _replace("with Vec() as z:", "if True:\n        z = []"), 4),
    "caller moves one": ("app.py", _replace("def use", "# a line\n\n\ndef use"), 7),
    # a new function's parameter: its argument rows come with the edit (`Bindings.arg_rows`)
    "new function called": ("app.py", lambda t: t + "\n\ndef pick(v):\n    return v[0]\n\n\n"
                                                   "def use2():\n    return pick(Vec(5))\n", 8),
}


def _implicit_rows(db: str) -> list:
    con = store.connect(db, read_only=True)
    try:
        return store.run(con, "SELECT path, line, dst_name, dst_qualname FROM edges "
                              "WHERE resolution = 'implicit' ORDER BY path, line, dst_name")
    finally:
        con.close()


@pytest.mark.parametrize("implicit", [True, None])
@pytest.mark.parametrize("keep", [True, False])
@pytest.mark.parametrize("case", sorted(EDITS))
def test_incremental_runs_keep_implicit_rows_as_a_fresh_index(tmp_path, case, keep, implicit):
    """With the setting on (the second run keeps it) and by default (off: none)."""
    rel, fn, n = EDITS[case]
    r, diff = _run(tmp_path, FILES, rel, fn, keep, implicit=implicit)
    assert diff == []
    assert r.resolve_stats.implicit == bool(implicit)
    got = _implicit_rows(str(tmp_path / "inc.duckdb"))
    assert len(got) == (n if implicit else 0), got


def _meta(db: str) -> dict:
    con = store.connect(db, read_only=True)
    try:
        return store.get_metas(con, "resolver_version", "implicit_calls")
    finally:
        con.close()


def test_by_default_a_run_adds_no_implicit_rows(tmp_path):
    _root, db = _indexed(tmp_path, {"lib.py": LIB, "app.py": APP}, implicit=None)
    assert _implicit_rows(db) == []
    meta = _meta(db)
    assert meta["implicit_calls"] == "off" and not meta["resolver_version"].endswith("+implicit")


def test_switching_the_setting_resolves_everything_again(tmp_path):
    """On an indexed database: asking for the other setting is a full run (whatever changed),
    whose rows are a fresh index's with that setting; a run that does not say keeps it."""
    from workbench.resolve import kept
    files = {"lib.py": LIB, "app.py": APP}
    root, db = _indexed(tmp_path, files, implicit=None)
    kept.forget()
    _r, on_db = _indexed(tmp_path / "on", files, implicit=True)
    want_on = _implicit_rows(on_db)
    assert len(want_on) == 7
    r = index(str(root), db, jobs=1, progress=False, implicit=True)    # nothing changed
    assert r.resolve_stats is not None and r.resolve_stats.full and r.resolve_stats.implicit
    assert _implicit_rows(db) == want_on and _meta(db)["implicit_calls"] == "on"
    assert differences(db, on_db) == []
    # an edit afterwards: incremental, the setting kept (the model kept, then one stored)
    for forget in (False, True):
        if forget:
            kept.forget()
        (root / "app.py").write_text((root / "app.py").read_text() + f"\n\ndef later{int(forget)}(v):\n"
                                     "    return v[1]\n")
        r = index(str(root), db, jobs=1, progress=False)
        assert not r.resolve_stats.full and r.resolve_stats.implicit
        assert r.resolve_stats.model_kept != forget and r.resolve_stats.model_stored == forget
    assert _implicit_rows(db) == want_on        # (`v[1]` of an unknown `v`: none)
    r = index(str(root), db, jobs=1, progress=False, implicit=False)
    assert r.resolve_stats.full and not r.resolve_stats.implicit
    assert _implicit_rows(db) == [] and _meta(db)["implicit_calls"] == "off"


def test_the_resolve_command_and_callgraph_take_the_setting(tmp_path):
    from workbench.callgraph import callgraph
    from workbench.cli import main
    root, db = _indexed(tmp_path, {"lib.py": LIB, "app.py": APP}, implicit=None)
    assert main(["resolve", db, "-q", "--implicit"]) == 0
    assert len(_implicit_rows(db)) == 7
    assert main(["resolve", db, "-q"]) == 0                 # kept
    assert len(_implicit_rows(db)) == 7
    assert main(["resolve", db, "-q", "--no-implicit"]) == 0
    assert _implicit_rows(db) == []
    entry = [str(root / "app.py")]
    on, off = callgraph(entry, str(root), implicit=True), callgraph(entry, str(root))
    assert "lib.Vec.__add__" in on["app.use"] and "lib.Vec.__add__" not in off["app.use"]



def test_a_new_uncalled_functions_parameter_copies_no_bindings_table(tmp_path):
    """A kept model knows which callees have argument rows: evaluating the operand of a
    function an edit added (`x + 1`, `x` its parameter) finds none without copying the
    whole bindings table (`lazy._lazy_index`)."""
    from workbench.resolve import kept
    root, db = _indexed(tmp_path, FILES)
    for k in range(2):
        (root / "lib.py").write_text((root / "lib.py").read_text() + f"\n\ndef added{k}(x):\n    return x + 1\n")
        r = index(str(root), db, jobs=1, progress=False)
        assert r.resolve_stats.model_kept and not r.resolve_stats.full
        con = store.connect(db, read_only=True)
        try:
            token = store.get_meta(con, "resolve_token")
        finally:
            con.close()
        model = kept.peek(token)
        assert model is not None and model._lazy_tbl is None
        assert model.args_by_callee.get(f"added{k}") == []      # asked, and none
