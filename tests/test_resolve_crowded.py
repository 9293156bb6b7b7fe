"""A function called by name from more places than evaluation follows (`argrows.ARG_ROWS_MAX`
argument rows) gets no values for its parameters from them, and the files whose resolution
asked for them read ``A:NAME`` instead of ``a:NAME`` (`workbench.resolve.deps`). An edit
that only adds calls by that name, or that leaves more than that many, does not resolve
those files again; one that brings the count down to the limit does. Either way the rows
equal those of a fresh index of the edited tree."""
from __future__ import annotations

import pytest

from test_resolve_quiet import _append, _replace, _run
from workbench.resolve.flows import ARG_ROWS_MAX

# `run` calls the callback it is handed: what `cb()` reaches comes from the calls of
# functions named `run`, as long as there are not too many of them
LIB = ("def run(cb):\n    return cb()\n\n\n"
       "def target():\n    return 1\n\n\n"
       "def other_target():\n    return 2\n")
PER_FILE = 20


def _repo(calls: int) -> dict[str, str]:
    """lib.py, app.py passing `lib.target` to `lib.run`, and `calls` more calls of methods
    named `run` on objects nothing knows (their rows count, their callees are no `lib.run`)."""
    files = {"lib.py": LIB,
             "app.py": "import lib\n\n\ndef main():\n    return lib.run(lib.target)\n"}
    for k in range(0, calls, PER_FILE):
        body = "".join(f"    o.run(v{j})\n" for j in range(k, min(calls, k + PER_FILE)))
        files[f"callers/c{k // PER_FILE:02d}.py"] = f"def use(o, v):\n{body}"
    return files


def _cb_targets(tmp_path) -> set:
    import duckdb
    con = duckdb.connect(str(tmp_path / "inc.duckdb"), read_only=True)
    try:
        return {r[0] for r in con.execute(
            "SELECT dst_qualname FROM edges WHERE path = 'lib.py' AND kind = 'calls' AND dst_name = 'cb'"
        ).fetchall()}
    finally:
        con.close()


def _deps_names(tmp_path, path: str) -> set:
    import duckdb
    con = duckdb.connect(str(tmp_path / "inc.duckdb"), read_only=True)
    try:
        return set(con.execute("SELECT names FROM resolve_deps WHERE path = ?", [path]).fetchone()[0])
    finally:
        con.close()


CROWDED = ARG_ROWS_MAX + 2 * PER_FILE      # two files of calls more than the limit


@pytest.mark.parametrize("keep", [True, False], ids=["kept", "fresh-process"])
def test_more_calls_of_a_crowded_name_leave_its_readers_alone(tmp_path, keep):
    new_call = "\n\ndef more(o, w):\n    return o.run(w)\n"
    r, diff = _run(tmp_path, _repo(CROWDED), "callers/c00.py", _append(new_call), keep)
    assert diff == []
    assert r.resolve_stats.files == 1            # the edited file alone: lib.py found too many before
    assert _cb_targets(tmp_path) == {None}       # ... and after
    assert "A:run" in _deps_names(tmp_path, "lib.py")


@pytest.mark.parametrize("keep", [True, False], ids=["kept", "fresh-process"])
def test_a_changed_call_that_leaves_too_many_leaves_the_readers_alone(tmp_path, keep):
    r, diff = _run(tmp_path, _repo(CROWDED), "callers/c00.py", _replace("o.run(v0)", "o.run(v0 or v1)"), keep)
    assert diff == []
    assert r.resolve_stats.files == 1


@pytest.mark.parametrize("keep", [True, False], ids=["kept", "fresh-process"])
def test_removing_calls_down_to_the_limit_resolves_the_readers_again(tmp_path, keep):
    """A file of calls fewer (emptied): at the limit, `cb()` reaches `lib.target` again."""
    def drop_calls(old: str) -> str:
        return "def use(o, v):\n    return o\n"
    r, diff = _run(tmp_path, _repo(ARG_ROWS_MAX - 1 + PER_FILE), "callers/c00.py", drop_calls, keep)
    assert diff == []
    assert r.resolve_stats.files > 1
    assert _cb_targets(tmp_path) == {"lib.target"}
    assert "a:run" in _deps_names(tmp_path, "lib.py")


@pytest.mark.parametrize("keep", [True, False], ids=["kept", "fresh-process"])
def test_one_call_more_than_the_limit_resolves_the_readers_again(tmp_path, keep):
    """At the limit the calls are followed (`lib.target`); one more and none is."""
    files = _repo(ARG_ROWS_MAX - 1)              # and app.py's: the limit
    r, diff = _run(tmp_path, files, "callers/c00.py", _append("\n\ndef more(o, w):\n    return o.run(w)\n"), keep)
    assert diff == []
    assert r.resolve_stats.files > 1
    assert _cb_targets(tmp_path) == {None}
    assert "A:run" in _deps_names(tmp_path, "lib.py")


def test_at_the_limit_the_calls_are_followed(tmp_path):
    from test_resolve_quiet import _indexed
    import duckdb
    _, db = _indexed(tmp_path, _repo(ARG_ROWS_MAX - 1))
    con = duckdb.connect(db, read_only=True)
    try:
        got = {r[0] for r in con.execute(
            "SELECT dst_qualname FROM edges WHERE path = 'lib.py' AND dst_name = 'cb'").fetchall()}
        names = set(con.execute("SELECT names FROM resolve_deps WHERE path = 'lib.py'").fetchone()[0])
    finally:
        con.close()
    assert got == {"lib.target"}
    assert "a:run" in names and "A:run" not in names
