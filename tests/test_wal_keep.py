"""An in-place re-index leaves a small write-ahead log unmerged (`snapshot._close_in_place`):
the database read back - read-only, read-write, by the next in-place run, through a
snapshot run - is the committed state, and a large log is checkpointed as before."""
from __future__ import annotations

import os

import duckdb

from test_reindex import index_interrupted_mid_write, snapshot
from workbench import snapshot as snap
from workbench.indexer import index


def _edit(repo, k: int) -> None:
    pricing = repo / "shop" / "pricing.py"
    pricing.write_text(pricing.read_text() + f"\n\ndef surcharge_{k}(total):\n    return add_tax(total, 'DE')\n")
    st = os.stat(pricing)
    os.utime(pricing, (st.st_atime, st.st_mtime + 5 * (k + 1)))


def _fresh(repo, tmp_path, name: str) -> dict:
    db = str(tmp_path / name)
    index(repo, db, jobs=1, progress=False)
    assert not os.path.exists(db + ".wal")      # a first index is a new file, checkpointed
    return snapshot(db)


def _with_kept_log(sample_copy, tmp_path):
    """pyshop indexed, one file edited and indexed again in place: a small log is kept."""
    repo = sample_copy("pyshop")
    db = str(tmp_path / "x.duckdb")
    index(repo, db, jobs=1, progress=False)
    _edit(repo, 0)
    index(repo, db, jobs=1, progress=False)
    assert os.path.exists(db + ".wal")
    return repo, db


def test_in_place_run_keeps_a_small_log_and_the_database_reads_back_whole(sample_copy, tmp_path):
    repo = sample_copy("pyshop")
    db = str(tmp_path / "x.duckdb")
    index(repo, db, jobs=1, progress=False)
    assert not os.path.exists(db + ".wal")
    _edit(repo, 0)
    run = index(repo, db, jobs=1, progress=False)
    assert run.changed == 1
    wal = db + ".wal"
    assert os.path.exists(wal) and 0 < os.path.getsize(wal) <= snap.WAL_KEEP_MAX
    expected = _fresh(repo, tmp_path, "fresh0.duckdb")
    assert snapshot(db) == expected                     # read-only: the log replayed in memory
    assert os.path.exists(wal)                          # ... and left alone
    # the next in-place run replays it, adds its own and still equals a fresh index
    _edit(repo, 1)
    assert index(repo, db, jobs=1, progress=False).changed == 1
    assert snapshot(db) == _fresh(repo, tmp_path, "fresh1.duckdb")
    # a read-write connection merges it at its close, as DuckDB always does
    con = duckdb.connect(db)
    con.close()
    assert not os.path.exists(wal)
    assert snapshot(db) == _fresh(repo, tmp_path, "fresh2.duckdb")


def test_a_log_over_the_limit_is_checkpointed_at_close(sample_copy, tmp_path, monkeypatch):
    repo = sample_copy("pyshop")
    db = str(tmp_path / "x.duckdb")
    index(repo, db, jobs=1, progress=False)
    monkeypatch.setattr(snap, "WAL_KEEP_MAX", 0)
    _edit(repo, 0)
    assert index(repo, db, jobs=1, progress=False).changed == 1
    assert not os.path.exists(db + ".wal")
    assert snapshot(db) == _fresh(repo, tmp_path, "fresh.duckdb")


def test_a_snapshot_run_takes_the_kept_log_along(sample_copy, tmp_path):
    """A reader present: the next run copies the database and its log into a snapshot,
    writes there and swaps it in, checkpointed - the log's rows are in the new file."""
    repo, db = _with_kept_log(sample_copy, tmp_path)
    fd = snap.hold_reader(db)                           # a Workbench reading: not in place
    try:
        _edit(repo, 1)
        assert index(repo, db, jobs=1, progress=False).changed == 1
    finally:
        os.close(fd)
    assert not os.path.exists(db + ".wal")
    assert snapshot(db) == _fresh(repo, tmp_path, "fresh.duckdb")


def test_a_failed_run_after_a_kept_log_leaves_the_committed_state(sample_copy, tmp_path, monkeypatch):
    repo, db = _with_kept_log(sample_copy, tmp_path)
    before = snapshot(db)
    _edit(repo, 1)
    index_interrupted_mid_write(repo, db, monkeypatch)
    assert snapshot(db) == before
