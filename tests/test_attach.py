"""Short index runs attach their database to the process's DuckDB instance (`attach`) and
detach it after: the file is free for anyone after the run, whether it succeeded or
failed, its write-ahead log checkpointed or left as asked, and a file the process holds
open otherwise is written through a connection of its own, as before."""
from __future__ import annotations

import os
import shutil
from pathlib import Path

import duckdb
import pytest

import workbench.resolve
from workbench import attach, snapshot
from workbench.indexer import index

SAMPLES = Path(__file__).resolve().parent.parent / "sample_repos"
REAL_RESOLVE = workbench.resolve.resolve_edges


def _attached_files() -> list[str]:
    inst = attach.warm()
    return [r[0] for r in inst.execute("SELECT path FROM duckdb_databases() WHERE path IS NOT NULL").fetchall()]


def _table(tmp_path) -> str:
    db = str(tmp_path / "t.duckdb")
    con = duckdb.connect(db)
    con.execute("CREATE TABLE t AS SELECT range AS x FROM range(1000)")
    con.close()
    return db


@pytest.mark.parametrize("checkpoint", [False, True])
def test_close_detaches_and_checkpoints_as_asked(tmp_path, checkpoint):
    db = _table(tmp_path)
    con = attach.connect(db)
    assert attach.attached(con) and db in _attached_files()
    assert con.execute("SELECT count(*) FROM t").fetchall() == [(1000,)]
    cur = attach.cursor(con)                    # another connection to the same database
    assert cur.execute("SELECT count(*) FROM t").fetchall() == [(1000,)]
    cur.close()
    con.execute("INSERT INTO t VALUES (-1)")
    assert os.path.exists(db + ".wal")
    attach.close(con, checkpoint=checkpoint)
    assert not attach.attached(con)
    assert db not in _attached_files()
    assert os.path.exists(db + ".wal") is not checkpoint
    other = duckdb.connect(db, read_only=True)  # the file is free, the row there
    try:
        assert other.execute("SELECT count(*) FROM t").fetchall() == [(1001,)]
    finally:
        other.close()


def test_a_file_open_in_another_instance_is_not_attached(tmp_path):
    db = _table(tmp_path)
    held = duckdb.connect(db)
    try:
        with pytest.raises(duckdb.Error):
            attach.connect(db)
        assert db not in _attached_files()
        con = snapshot._connect_in_place(db)    # a connection of its own, as before
        try:
            assert not attach.attached(con)
            assert con.execute("SELECT count(*) FROM t").fetchall() == [(1000,)]
        finally:
            con.close()
    finally:
        held.close()


def test_in_place_runs_attach_and_leave_nothing_attached(tmp_path, monkeypatch):
    root = tmp_path / "shop"
    shutil.copytree(SAMPLES / "pyshop", root)
    db = str(tmp_path / "shop.duckdb")
    index(root, db, jobs=1, progress=False)
    made = []
    real = attach.connect

    def spy(path):
        con = real(path)
        assert path in _attached_files()
        made.append(con)
        return con
    monkeypatch.setattr(attach, "connect", spy)
    target = root / "shop" / "models.py"
    assert target.exists()
    target.write_text(target.read_text() + "\n\ndef _attached_run(x):\n    return x\n")
    report = index(root, db, jobs=1, progress=False)
    assert report.changed == 1 and report.resolve_stats.model_kept
    assert len(made) == 1 and not attach.attached(made[0])
    assert os.path.realpath(db) not in _attached_files()
    # a run that fails detaches too: the next one works, in place
    target.write_text(target.read_text() + "\n\ndef _failed_run(x):\n    return x\n")

    class Boom(Exception):
        pass

    def boom(*a, **k):
        raise Boom()
    monkeypatch.setattr(workbench.resolve, "resolve_edges", boom)
    with pytest.raises(Boom):
        index(root, db, jobs=1, progress=False)
    assert len(made) == 2 and not attach.attached(made[1])
    assert os.path.realpath(db) not in _attached_files()
    monkeypatch.setattr(workbench.resolve, "resolve_edges", REAL_RESOLVE)
    assert index(root, db, jobs=1, progress=False).changed == 1
    assert len(made) == 3
    con = duckdb.connect(db, read_only=True)
    try:
        got = con.execute("SELECT count(*) FROM symbols WHERE name = '_failed_run'").fetchall()
    finally:
        con.close()
    assert got == [(1,)]

