"""A full resolution evaluates the later files' edges in a forked helper process: the
database must come out the same as when one process evaluates everything, and a helper
that fails or hangs leaves the work to the main process, with the same result."""
from __future__ import annotations

import os
import shutil
import warnings
from pathlib import Path

import duckdb
import pytest

from drift import EDGES, IMPORTS, copy_stdlib, rows
from workbench.indexer import index
from workbench.resolve import parallel, passes, rows as resolve_rows

DEPS = "SELECT path, files, names, provides FROM resolve_deps"
CANDIDATES = ("SELECT e.path, e.line, e.dst_name, c.qualname, s.qualname FROM call_candidates c "
              "JOIN edges e USING (edge_id) LEFT JOIN symbols s ON s.symbol_id = c.symbol_id")


@pytest.fixture(scope="module")
def unresolved(tmp_path_factory):
    """A database of part of the standard library, indexed without resolution."""
    tmp = tmp_path_factory.mktemp("parallel")
    root = copy_stdlib(tmp / "corpus", ("json", "email", "logging", "argparse.py", "shutil.py"))
    db = str(tmp / "unresolved.duckdb")
    index(str(root), db, progress=False, resolve=False, jobs=1)
    return db


def _resolved(src: str, dst: str, processes: int) -> dict:
    shutil.copy(src, dst)
    con = duckdb.connect(dst)
    try:
        con.execute("BEGIN")
        stats = passes.resolve_edges(con, None, processes=processes)
        con.execute("COMMIT")
    finally:
        con.close()
    return {"stats": stats, **{name: rows(dst, sql) for name, sql in
                               (("edges", EDGES), ("imports", IMPORTS), ("deps", DEPS),
                                ("candidates", CANDIDATES))}}


def _spy_helpers(monkeypatch) -> list:
    """Records, for every evaluation in two processes, whether it ran."""
    started = []
    in_two = passes._evaluate_in_two

    def spy(*args):
        got = in_two(*args)
        started.append(got is not None)
        return got
    monkeypatch.setattr(passes, "_evaluate_in_two", spy)
    return started


def _one_and_two(db: str, tmp_path, monkeypatch) -> tuple[dict, dict]:
    """`db` resolved by one process, then by two (the helper forced on): both results,
    after checking the helper ran and did its files itself (no fallback)."""
    one = _resolved(db, str(tmp_path / "one.duckdb"), processes=1)
    monkeypatch.setattr(passes, "PARALLEL_MIN_EDGES", 0)
    started = _spy_helpers(monkeypatch)
    with warnings.catch_warnings(record=True) as seen:
        warnings.simplefilter("always")
        two = _resolved(db, str(tmp_path / "two.duckdb"), processes=2)
    assert started == [True]
    # the helper did its files (it never needed the database): no fallback here
    assert not [w for w in seen if "helper process" in str(w.message)]
    for name in ("edges", "imports", "deps", "candidates"):
        assert one[name] == two[name], name
    return one, two


def test_helper_process_gives_the_same_rows(unresolved, tmp_path, monkeypatch):
    one, two = _one_and_two(unresolved, tmp_path, monkeypatch)
    assert one["stats"].edges == two["stats"].edges > 1000
    assert one["stats"].by_resolution == two["stats"].by_resolution
    assert one["stats"].updated == two["stats"].updated
    assert len(one["deps"]) > 30 and len(one["candidates"]) > 0


@pytest.mark.parametrize("repo", ["cnative", "goservice", "javaservice", "rustlib", "tsapp", "pyshop"])
def test_helper_needs_no_database_in_any_language(repo, tmp_path, monkeypatch):
    """The helper evaluates without the database (`Language.before_helper` loads what a
    language would read from it later): in every language the rows are those of one
    process, and the helper never falls back."""
    root = Path(__file__).resolve().parent.parent / "sample_repos" / repo
    db = str(tmp_path / "unresolved.duckdb")
    index(str(root), db, progress=False, resolve=False, jobs=1)
    _one_and_two(db, tmp_path, monkeypatch)


def test_failed_helper_leaves_its_files_to_the_main_process(unresolved, tmp_path, monkeypatch):
    one = _resolved(unresolved, str(tmp_path / "one.duckdb"), processes=1)
    monkeypatch.setattr(passes, "PARALLEL_MIN_EDGES", 0)
    started = _spy_helpers(monkeypatch)
    main_pid = os.getpid()
    evaluate = parallel._evaluate

    def failing_in_helper(*args):
        if os.getpid() != main_pid:
            raise RuntimeError("helper fails")
        return evaluate(*args)
    monkeypatch.setattr(parallel, "_evaluate", failing_in_helper)
    with pytest.warns(UserWarning, match="helper process failed"):
        two = _resolved(unresolved, str(tmp_path / "two.duckdb"), processes=2)
    assert started == [True]
    for name in ("edges", "imports", "deps", "candidates"):
        assert one[name] == two[name], name


def test_small_and_incremental_runs_stay_in_one_process(unresolved, tmp_path, monkeypatch):
    started = _spy_helpers(monkeypatch)
    db = str(tmp_path / "small.duckdb")
    _resolved(unresolved, db, processes=2)          # fewer edges than the minimum
    assert started == []
    monkeypatch.setattr(passes, "PARALLEL_MIN_EDGES", 0)
    con = duckdb.connect(db)
    try:
        con.execute("BEGIN")
        stats = passes.resolve_edges(con, ["json/decoder.py"], processes=2)
        con.execute("COMMIT")
    finally:
        con.close()
    assert not stats.full and stats.edges > 0
    assert started == []


def test_both_ends_meet_once():
    meet = parallel._Meet(7)
    got = [meet.take(front=i % 3 != 0) for i in range(10)]
    assert sorted(i for i in got if i is not None) == list(range(7))
    assert got[7:] == [None] * 3
    assert got[:3] == [6, 0, 1]             # the back, then the front


def test_helper_rows_in_small_batches_and_tiny_parts(unresolved, tmp_path, monkeypatch):
    """The helper's changed rows travel as several Arrow tables (`_Rows` pickled without the
    model's qualnames, which the write joins back), and evaluating in two processes reads
    every edge in one part before the fork whatever `_EDGE_PART` says."""
    monkeypatch.setattr(resolve_rows, "_WRITE_BATCH", 97)
    monkeypatch.setattr(passes, "_EDGE_PART", 41)
    one, two = _one_and_two(unresolved, tmp_path, monkeypatch)
    assert one["stats"].updated == two["stats"].updated > 97 * 3


def test_rows_and_reads_join_after_a_round_trip(monkeypatch):
    import pickle
    monkeypatch.setattr(resolve_rows, "_WRITE_BATCH", 2)
    qual = {1: "pkg.a", 2: "pkg.b"}
    front, back = resolve_rows._Rows(qual), resolve_rows._Rows(qual)
    front.add(10, None, None, "unresolved", None, 1, qual[1], "local", None)
    front.add(11, 1, "pkg.a", "local", None, 1, "pkg.a", "local", None)         # unchanged
    for eid in (20, 21, 22):
        back.add(eid, None, None, "unresolved", None, 2, qual[2], "import", ["pkg.b", "pkg.c"])
    back = pickle.loads(pickle.dumps(back))
    front.extend(back)
    assert (front.n, list(front.edge_ids)) == (5, [10, 11, 20, 21, 22])
    assert front.by_resolution == {"local": 2, "import": 3}
    got = [r for t in front.tables for r in t.to_pylist()]
    assert [r["edge_id"] for r in got] == [10, 20, 21, 22]
    assert {r["dst_qualname"] for r in got} == {None}       # the write joins them back
    assert got[1]["candidates"] == ["pkg.b", "pkg.c"] and got[1]["resolution"] == "import"
    a, b = resolve_rows._Reads(), resolve_rows._Reads()
    a.add("a.py", 5, {"x", "y"})
    b.add("b.py", -3, set())
    b.add("c.py", 1 << 70, {"z"})
    a.extend(pickle.loads(pickle.dumps(b)))
    assert dict(a.items()) == {"a.py": (5, {"x", "y"}), "b.py": (-3, set()), "c.py": (1 << 70, {"z"})}


def test_progress_counts_every_edge_once(unresolved, tmp_path, monkeypatch):
    """With the helper's files shown as they take them (`_Progress`), every edge is
    still counted once."""
    shutil.copy(unresolved, tmp_path / "bar.duckdb")
    monkeypatch.setattr(passes, "PARALLEL_MIN_EDGES", 0)
    monkeypatch.setattr(passes, "PROGRESS_MIN_EDGES", 0)
    ticks = []

    class Bar:
        def __init__(self, total, **kw):
            self.total = total

        def update(self, n):
            ticks.append(n)

        def close(self):
            pass
    import tqdm.auto
    monkeypatch.setattr(tqdm.auto, "tqdm", Bar)
    con = duckdb.connect(str(tmp_path / "bar.duckdb"))
    try:
        con.execute("BEGIN")
        stats = passes.resolve_edges(con, None, processes=2, progress=True)
        con.execute("COMMIT")
    finally:
        con.close()
    assert sum(ticks) == stats.edges > 1000


@pytest.mark.parametrize("front, seen, expected, idle", [
    # the back end: nothing taken yet (5), e.py, again, d.py and c.py (no edges), never
    # backwards, b.py where the two ends met
    (False, [5, 4, 4, 2, 3, 1], [3, 10, 2], 0),
    # the front end: nothing taken yet (0), a.py, again, b.py and c.py (no edges), never
    # backwards, d.py where the two ends met
    (True, [0, 1, 1, 3, 2, 4], [5, 2, 10], 5),
], ids=["back", "front"])
def test_progress_counts_each_file_once_as_taken(front, seen, expected, idle):
    ticks = []
    paths = ["a.py", "b.py", "c.py", "d.py", "e.py"]
    spans = {"a.py": (0, 0, 5), "b.py": (0, 5, 7), "d.py": (0, 7, 17), "e.py": (0, 17, 20)}
    show = parallel._Progress(paths, spans, ticks.append, front=front)
    for k in seen:
        show(k)
    assert ticks == expected
    parallel._Progress(paths, spans, None, front=front)(idle)     # no bar: nothing to show


def test_hung_helper_is_killed_and_its_files_done_here(unresolved, tmp_path, monkeypatch):
    """A helper that hangs (here: a lock it can never take, as after a fork while another
    thread held it) shows no progress; after `HELPER_STALL_SECONDS` the main process kills
    it and evaluates its files itself, with the rows of one process. The other helper
    takes every file left meanwhile."""
    import threading
    one = _resolved(unresolved, str(tmp_path / "one.duckdb"), processes=1)
    monkeypatch.setattr(passes, "PARALLEL_MIN_EDGES", 0)
    monkeypatch.setattr(parallel, "HELPER_STALL_SECONDS", 0.5)
    started = _spy_helpers(monkeypatch)
    main_pid = os.getpid()
    evaluate = parallel._evaluate
    held = threading.Lock()
    held.acquire()                          # held in the main process when it forks
    first = str(tmp_path / "hangs")         # made by the helper that hangs: the first to start

    redone = []                             # the files the main process took over

    def hanging_in_helper(m, res, part_rows, spans, imports_of, paths, tick):
        if os.getpid() == main_pid:
            if isinstance(paths, list):         # the fallback: a list, not the taker
                redone.extend(paths)
            return evaluate(m, res, part_rows, spans, imports_of, paths, tick)
        try:
            os.close(os.open(first, os.O_CREAT | os.O_EXCL))
        except FileExistsError:             # the other helper: evaluates as usual
            return evaluate(m, res, part_rows, spans, imports_of, paths, tick)

        def hang(_edges):                   # after its first file: never returns
            held.acquire()
        return evaluate(m, res, part_rows, spans, imports_of, paths, hang)
    monkeypatch.setattr(parallel, "_evaluate", hanging_in_helper)
    with pytest.warns(UserWarning, match="helper process made no progress"):
        two = _resolved(unresolved, str(tmp_path / "two.duckdb"), processes=2)
    held.release()
    assert len(redone) == 1                 # the file it took, then hung on
    assert started == [True]
    for name in ("edges", "imports", "deps", "candidates"):
        assert one[name] == two[name], name


def test_slow_helper_that_shows_progress_is_waited_for(unresolved, tmp_path, monkeypatch):
    """A helper still working after the main process is done, for longer than
    `HELPER_STALL_SECONDS` but beating within it, is waited for: its own rows are used,
    sent through the pipe as the main process reads them."""
    import time
    monkeypatch.setattr(parallel, "HELPER_STALL_SECONDS", 2.0)
    main_pid = os.getpid()
    evaluate = parallel._evaluate

    def slow_in_helper(m, res, part_rows, spans, imports_of, paths, tick):
        got = evaluate(m, res, part_rows, spans, imports_of, paths, tick)
        if os.getpid() != main_pid:
            for _ in range(12):             # 3 s in all, a beat every 0.25 s
                time.sleep(0.25)
                tick(0)
        return got
    monkeypatch.setattr(parallel, "_evaluate", slow_in_helper)
    sizes = []                              # of the result as it came through the pipe
    loads = parallel.pickle.loads
    monkeypatch.setattr(parallel.pickle, "loads", lambda data: sizes.append(len(data)) or loads(data))
    one, two = _one_and_two(unresolved, tmp_path, monkeypatch)     # no fallback, same rows
    assert one["stats"].edges == two["stats"].edges > 1000
    # more than a pipe holds (64 KiB on Linux): had the main process waited without
    # reading, the helper would have stalled writing it, and been killed
    assert sizes and sizes[0] > 65536


def test_helper_works_out_what_files_provide_before_its_first_file(unresolved, tmp_path, monkeypatch):
    """A two-process full run has the helper work out every file's `provides` tokens from
    the model (`parallel.Meanwhile`, before its first file) and `deps.write` store those:
    the same `resolve_deps` rows as one process working them out after evaluation, and
    the main process never works them out itself."""
    from workbench.resolve import deps
    calls = []
    column = deps.provides_column

    def spy(con, m, paths):
        got = column(con, m, paths)
        calls.append((os.getpid(), con is None, len(got[0])))
        return got
    monkeypatch.setattr(deps, "provides_column", spy)
    one = _resolved(unresolved, str(tmp_path / "one.duckdb"), processes=1)
    assert calls == [(os.getpid(), False, len(one["deps"]))]     # in `deps.write`
    calls.clear()
    ran = []
    meanwhile = parallel.Meanwhile

    class Spy(meanwhile):
        def __init__(self, fn):
            super().__init__(fn)
            ran.append(self)
    monkeypatch.setattr(passes, "Meanwhile", Spy)
    monkeypatch.setattr(passes, "PARALLEL_MIN_EDGES", 0)
    two = _resolved(unresolved, str(tmp_path / "two.duckdb"), processes=2)
    assert calls == []                  # the helper's (another process), not this one's
    assert len(ran) == 1 and ran[0].result is not None
    assert ran[0].result[0] == sorted(r[0] for r in one["deps"])
    assert one["deps"] == two["deps"] and one["edges"] == two["edges"]
    assert any(row[3] for row in two["deps"])               # tokens were written


def test_provides_column_holds_the_tokens_provides_gives(unresolved):
    """`deps.provides_column` (a full run's: the argument rows from the model) and
    `deps.provides` (incremental runs': from the table) agree; so does the column of a
    model that lacks some argument row (from the table then)."""
    from workbench.resolve import deps
    from workbench.resolve.model import Model
    con = duckdb.connect(unresolved, read_only=True)
    try:
        m = Model(con, bulk_bindings=True)
        paths = sorted(m.paths)[:40] + ["no/such/file.py"]
        assert m.holds_every_arg_row()
        got_paths, column = deps.provides_column(None, m, reversed(paths))    # no query
        want = deps.provides(con, m, paths)
        m._args_unscoped = 1            # as if a row had no scope: read from the table
        assert not m.holds_every_arg_row()
        assert deps.provides_column(con, m, paths)[1].to_pylist() == column.to_pylist()
    finally:
        con.close()
    assert got_paths == sorted(paths)
    texts = column.to_pylist()
    assert texts == [sorted(f"{t}={d}" for t, d in want.get(p, {}).items()) for p in got_paths]
    assert sum(map(len, texts)) > 100 and texts[got_paths.index("no/such/file.py")] == []
