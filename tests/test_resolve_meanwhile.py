"""An incremental run with a kept model begins its longest scans on a cursor before the
model's refresh (`workbench.resolve.meanwhile`): the text scans of `deps.quiet` and the
prefetch of bindings (`Model.prefetch_begin`). The cursor sees the committed tables, so
those jobs read the unchanged files' rows only and the run's connection reads the changed
files'. Whatever was begun, the rows and decisions equal those of the same steps done on
the run's connection alone."""
from __future__ import annotations

import os
import random
import time
from pathlib import Path

import duckdb
import pytest

from drift import differences
from test_resolve_lazy import _BINDINGS, _callee_keys, _check_lookups_equal, _only, _released
from workbench.indexer import index
from workbench.resolve import deps, kept
from workbench.resolve.meanwhile import Meanwhile
from workbench.resolve.model import Model

REPO = Path(__file__).resolve().parent.parent
SAMPLES = REPO / "sample_repos"


def test_jobs_run_in_order_on_a_cursor_that_sees_committed_rows(tmp_path):
    con = duckdb.connect(str(tmp_path / "m.duckdb"))
    con.execute("CREATE TABLE t (x INTEGER)")
    con.execute("INSERT INTO t VALUES (1), (2)")
    con.execute("BEGIN TRANSACTION")
    con.execute("INSERT INTO t VALUES (3)")         # not committed: the cursor does not see it
    mw = Meanwhile(con)
    try:
        order = []
        first = mw.submit(lambda cur: (order.append(1), cur.execute("SELECT sum(x) FROM t").fetchall())[1])
        failing = mw.submit(lambda cur: cur.execute("SELECT * FROM no_such_table").fetchall())
        last = mw.submit(lambda cur: (order.append(3), cur.execute("SELECT count(*) FROM t").fetchall())[1])
        assert mw.result(last) == [(2,)]
        assert mw.result(first) == [(3,)]
        with pytest.raises(duckdb.Error):
            mw.result(failing)
        assert order == [1, 3]
    finally:
        mw.close()
    assert con.execute("SELECT sum(x) FROM t").fetchall() == [(6,)]
    con.execute("COMMIT")
    con.close()


@pytest.mark.parametrize("sample", ["pyshop", "tsapp", "javaservice", "goservice", "rustlib", "cnative"])
def test_a_begun_prefetch_equals_one_on_the_runs_connection(tmp_path, sample):
    """A file's rows replaced in an open transaction (lines moved, as a re-index would):
    the prefetch begun on a cursor (the other files' rows) and finished on the connection
    (the changed file's) holds exactly what a prefetch on the connection alone holds, and
    what the bulk load of that state holds for those files."""
    db = str(tmp_path / "s.duckdb")
    index(SAMPLES / sample, db, jobs=1, progress=False)
    con = duckdb.connect(db)
    try:
        rng = random.Random(sample)
        paths = sorted(p for (p,) in con.execute("SELECT DISTINCT path FROM bindings").fetchall())
        changed = rng.sample(paths, k=1)
        con.execute("BEGIN TRANSACTION")
        con.execute("CREATE TEMP TABLE _mine AS SELECT * FROM bindings WHERE path = ?", changed)
        con.execute("DELETE FROM bindings WHERE path = ?", changed)
        con.execute("INSERT INTO bindings SELECT * REPLACE (line + 7 AS line) FROM _mine")
        bulk = Model(con, bulk_bindings=True)
        plain, begun = _released(con), _released(con)
        files = sorted(set(rng.sample(paths, k=max(1, len(paths) // 2))) | set(changed))
        keys = rng.sample(_callee_keys(con), k=max(1, len(_callee_keys(con)) // 2)) + ["no_such_callee"]
        mw = Meanwhile(con)
        try:
            begun.prefetch_begin(mw, files, keys, changed)
            assert begun._begun is not None
            job = begun._begun[1]
            begun.prefetch(files, keys, resolving=1)
            assert mw.result(job) is not None        # its rows were taken
        finally:
            mw.close()
        plain.prefetch(files, keys, resolving=1)
        assert begun._lazy_loaded == plain._lazy_loaded == set(files)
        for key in keys:
            assert list(begun.args_by_callee[key]) == list(plain.args_by_callee[key]) \
                == list(bulk.args_by_callee.get(key, ())), key
        _check_lookups_equal(begun, _only(bulk, files), random.Random(1))
        plain.fill_pending()
        for name in _BINDINGS:
            assert {k: v for k, v in getattr(begun, name).items() if v} == \
                {k: v for k, v in getattr(plain, name).items() if v}, name
        con.execute("ROLLBACK")
    finally:
        con.close()


def _edit(root: Path, rel: str, text: str) -> None:
    with open(root / rel, "a", encoding="utf-8") as fh:
        fh.write(text)
    t = time.time() + 2
    os.utime(root / rel, (t, t))


@pytest.mark.parametrize("other_names_it", [False, True])
def test_begun_quiet_scans_and_a_second_changed_file(tmp_path, monkeypatch, other_names_it):
    """Two files changed in one run, with a kept model: a new function in `a.py` is quiet
    unless the other changed file's new rows name it (read on the run's connection: the
    cursor's scans leave the changed files out). The edges equal a fresh index's."""
    kept.forget()
    root = tmp_path / "repo"
    root.mkdir()
    (root / "a.py").write_text("def used():\n    return 1\n", encoding="utf-8")
    (root / "b.py").write_text("from a import used\n\n\ndef caller():\n    return used()\n",
                               encoding="utf-8")
    (root / "c.py").write_text("import a\n\n\ndef other():\n    return a.used()\n", encoding="utf-8")
    db, fresh_db = str(tmp_path / "inc.duckdb"), str(tmp_path / "fresh.duckdb")
    index(root, db, jobs=1, progress=False)
    seen = []
    quiet = deps.quiet
    monkeypatch.setattr(deps, "quiet", lambda con, before, m, started=None: (
        seen.append((started is not None, r := quiet(con, before, m, started))), r)[1])
    _edit(root, "a.py", "\n\ndef brand_new_helper(x):\n    return x\n")
    _edit(root, "b.py", "\n\ndef more():\n    return brand_new_helper(2)\n" if other_names_it
          else "\n\ndef more():\n    return 2\n")
    report = index(root, db, jobs=1, progress=False)
    assert report.resolve_stats.model_kept
    assert seen and seen[0][0], "the quiet scans were not begun meanwhile"
    assert ("a.py" in seen[0][1]) == (not other_names_it)
    index(root, fresh_db, jobs=1, progress=False)
    assert differences(db, fresh_db) == []
    kept.forget()
