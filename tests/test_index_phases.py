"""An index run written into a snapshot commits its rows before resolution (so their
Arrow copies and the transaction's buffers go before the resolver's model is built);
nobody sees that commit: a run that fails later leaves the database as it was, or none."""
from __future__ import annotations

import os
import shutil

import duckdb
import pytest

import workbench.resolve
from conftest import SAMPLES, write
from workbench import snapshot
from workbench.indexer import index


def _rows(db: str) -> dict:
    con = duckdb.connect(db, read_only=True)
    try:
        return {t: sorted(con.execute(f"SELECT * EXCLUDE ({ids}) FROM {t}").fetchall(), key=repr)
                for t, ids in (("files", "file_id, mtime"), ("symbols", "symbol_id, file_id, parent_id"),
                               ("edges", "edge_id, src_id, dst_id"), ("imports", "file_id, src_id"))}
    finally:
        con.close()


class _Boom(RuntimeError):
    pass


def _failing_resolution(monkeypatch, seen: list):
    def boom(con, *a, **k):
        # on a snapshot the run's rows are committed by now (see the module doc)
        seen.append(snapshot.private(con))
        raise _Boom("resolution failed")
    monkeypatch.setattr(workbench.resolve, "resolve_edges", boom)


def test_a_snapshot_connection_is_private_only_while_written(tmp_path):
    db = str(tmp_path / "p.duckdb")
    with snapshot.write_index(db) as con:          # a first index: a new file
        assert snapshot.private(con)
        con.execute("CREATE TABLE t (x INT)")
    assert not snapshot.private(con)
    with snapshot.write_index(db, in_place=True) as con:   # nobody reads: in place
        assert not snapshot.private(con)
    fd = snapshot.hold_reader(db)                   # somebody reads: a snapshot
    try:
        with snapshot.write_index(db, in_place=True) as con:
            assert snapshot.private(con)
    finally:
        os.close(fd)


def test_a_first_index_failing_after_the_early_commit_leaves_no_database(tmp_path, monkeypatch):
    root = tmp_path / "shop"
    shutil.copytree(SAMPLES / "pyshop", root)
    db = str(tmp_path / "first.duckdb")
    seen: list = []
    _failing_resolution(monkeypatch, seen)
    with pytest.raises(_Boom):
        index(root, db, progress=False)
    assert seen == [True]
    assert not os.path.exists(db)
    # no snapshot or WAL left behind (the writer lock file stays, as after any run)
    assert sorted(os.listdir(tmp_path)) == ["first.duckdb.lock", "shop"]


def test_a_snapshot_run_failing_after_the_early_commit_keeps_the_old_state(tmp_path, monkeypatch):
    root = tmp_path / "shop"
    shutil.copytree(SAMPLES / "pyshop", root)
    db = str(tmp_path / "shop.duckdb")
    index(root, db, progress=False)
    before = _rows(db)
    write(root, "shop/added_later.py", "def added():\n    return 1\n")
    seen: list = []
    _failing_resolution(monkeypatch, seen)
    fd = snapshot.hold_reader(db)                   # a reader: the run writes a snapshot
    try:
        with pytest.raises(_Boom):
            index(root, db, progress=False)
    finally:
        os.close(fd)
    assert seen == [True]
    assert _rows(db) == before
    assert not [p for p in os.listdir(tmp_path) if "snapshot" in p]
    monkeypatch.undo()
    report = index(root, db, progress=False)        # the next run does the work
    assert report.added == 1
    assert any(r[0] == "shop/added_later.py" for r in _rows(db)["files"])


def test_an_in_place_run_failing_rolls_back_in_one_transaction(tmp_path, monkeypatch):
    root = tmp_path / "shop"
    shutil.copytree(SAMPLES / "pyshop", root)
    db = str(tmp_path / "shop.duckdb")
    index(root, db, progress=False)
    before = _rows(db)
    write(root, "shop/added_later.py", "def added():\n    return 1\n")
    seen: list = []
    _failing_resolution(monkeypatch, seen)
    with pytest.raises(_Boom):
        index(root, db, progress=False)             # one file changed, nobody reads: in place
    assert seen == [False]
    assert _rows(db) == before
