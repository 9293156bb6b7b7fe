"""How resolution writes its rows back: a full run writes the edges table anew and swaps it
in (`writeback._rebuild_edges`), an incremental one updates rows; a private full run then
checkpoints before writing the rest, so the old table's blocks are reused.

The rows must be those the row-by-row `UPDATE` gives, the table keeps its declared columns,
the call-graph SQL keeps working on the swapped table, and the database file keeps few
free blocks."""
from __future__ import annotations

import os
import shutil
from contextlib import contextmanager

import duckdb
import pytest

import workbench.resolve.passes as passes
import workbench.resolve.rows as resolve_rows
import workbench.resolve.writeback as writeback
from conftest import SAMPLES
from workbench import schema, store
from workbench.indexer import index
from workbench.resolve import resolve_edges

_TABLES = {"edges": "*", "call_candidates": "*", "resolve_deps": "*",
           "imports": "* EXCLUDE (file_id)", "meta": "* EXCLUDE (value)"}


def _dump(db: str) -> dict:
    con = duckdb.connect(db, read_only=True)
    try:
        out = {t: sorted(con.execute(f"SELECT {cols} FROM {t}").fetchall(), key=repr)
               for t, cols in _TABLES.items()}
        out["columns"] = con.execute("""SELECT column_name, data_type, is_nullable FROM duckdb_columns()
                                        WHERE table_name = 'edges' ORDER BY column_index""").fetchall()
        return out
    finally:
        con.close()


@contextmanager
def _statements(monkeypatch):
    """The first word of each statement `store.run` executes inside the block."""
    statements: list[str] = []
    real_run = store.run

    def run(con, sql, params=None):
        statements.append(sql.strip().split()[0].upper())
        return real_run(con, sql, params)
    monkeypatch.setattr(store, "run", run)
    try:
        yield statements
    finally:
        monkeypatch.setattr(store, "run", real_run)


def _unresolved_copy(tmp_path, repo: str) -> str:
    root = tmp_path / repo
    shutil.copytree(SAMPLES / repo, root)
    db = str(tmp_path / f"{repo}.duckdb")
    index(root, db, progress=False, resolve=False)
    return db


def _resolve(db: str, dst: str, rebuild: bool, monkeypatch) -> int:
    """Resolve a copy of `db` fully, with the table written anew or (`rebuild` False) row
    by row; returns how many times the table was written anew."""
    shutil.copy(db, dst)
    real_write, real_rebuild, rebuilt = passes._write_back, writeback._rebuild_edges, []

    def write_back(con, rows, imp_rows, rebuild=False, **kw):
        assert rebuild                                  # a full run asks for the new table
        return real_write(con, rows, imp_rows, rebuild=want, **kw)

    def rebuild_edges(con, rows):
        rebuilt.append(1)
        return real_rebuild(con, rows)
    want = rebuild
    monkeypatch.setattr(passes, "_write_back", write_back)
    monkeypatch.setattr(writeback, "_rebuild_edges", rebuild_edges)
    monkeypatch.setattr(resolve_rows, "_WRITE_BATCH", 7)      # many small Arrow tables, each its own dictionary
    con = store.connect(dst)
    try:
        store.run(con, "BEGIN TRANSACTION")
        resolve_edges(con, None, processes=1)
        store.run(con, "COMMIT")
        assert schema.is_current(con)                   # the swapped table counts as the declared one
        # the stored call-graph SQL reads the new table
        assert store.one(con, "SELECT count(*) FROM call_edges")[0] == \
            store.one(con, "SELECT count(*) FROM edges WHERE kind = 'calls'")[0]
        assert store.one(con, "SELECT count(*) FROM duckdb_tables() WHERE table_name = '_wb_edges'")[0] == 0
    finally:
        con.close()
    monkeypatch.undo()
    return len(rebuilt)


@pytest.mark.parametrize("repo", ["pyshop", "tsapp", "cnative"])
def test_rebuilt_table_holds_the_rows_the_update_gives(tmp_path, monkeypatch, repo):
    db = _unresolved_copy(tmp_path, repo)
    assert _resolve(db, str(tmp_path / "rebuilt.duckdb"), True, monkeypatch) == 1
    assert _resolve(db, str(tmp_path / "updated.duckdb"), False, monkeypatch) == 0
    rebuilt, updated = _dump(str(tmp_path / "rebuilt.duckdb")), _dump(str(tmp_path / "updated.duckdb"))
    assert rebuilt["edges"] and rebuilt["call_candidates"] or repo != "pyshop"
    assert rebuilt == updated
    # the DuckDB settings the rebuild changes for its write are back as they were
    con = duckdb.connect(str(tmp_path / "rebuilt.duckdb"), read_only=True)
    fresh = duckdb.connect()
    try:
        q = "SELECT current_setting('threads'), current_setting('write_buffer_row_group_count')"
        assert con.execute(q).fetchall() == fresh.execute(q).fetchall()
    finally:
        con.close()
        fresh.close()


def test_incremental_runs_update_rows_and_equal_a_fresh_index(tmp_path, monkeypatch):
    root = tmp_path / "shop"
    shutil.copytree(SAMPLES / "pyshop", root)
    db = str(tmp_path / "shop.duckdb")
    index(root, db, progress=False)
    seen = []
    real = passes._write_back

    def spy(con, rows, imp_rows, rebuild=False, **kw):
        seen.append(rebuild)
        return real(con, rows, imp_rows, rebuild=rebuild, **kw)
    monkeypatch.setattr(passes, "_write_back", spy)
    with open(root / "shop" / "models.py", "a", encoding="utf-8") as fh:    # an edit: not a full run
        fh.write("\n\ndef later(x):\n    return len(x)\n")
    assert index(root, db, progress=False).changed == 1
    assert seen == [False]
    fresh = str(tmp_path / "fresh.duckdb")
    index(root, fresh, progress=False)
    a, b = _dump(db), _dump(fresh)
    key = ("SELECT e.path, s.qualname, e.kind, e.dst_name, e.line, e.resolution, e.dst_qualname, e.candidates "
           "FROM edges e LEFT JOIN symbols s ON s.symbol_id = e.src_id")
    rows = []
    for path in (db, fresh):
        con = duckdb.connect(path, read_only=True)
        rows.append(sorted(con.execute(key).fetchall(), key=repr))
        con.close()
    assert rows[0] == rows[1]
    assert a["columns"] == b["columns"]


def test_a_private_full_run_checkpoints_after_the_new_table(tmp_path, monkeypatch):
    """A first index (a new file) commits and checkpoints once the edges table is written
    anew; the rows equal those of a run in one transaction (`con=`, in place)."""
    root = tmp_path / "shop"
    shutil.copytree(SAMPLES / "pyshop", root)
    monkeypatch.setattr(passes, "PRIVATE_COMMIT_MIN_ROWS", 5)       # the sample's rows count as many
    db = str(tmp_path / "first.duckdb")
    with _statements(monkeypatch) as statements:
        index(root, db, progress=False)
    assert "CHECKPOINT" in statements
    in_place = str(tmp_path / "in_place.duckdb")
    con = store.connect(in_place)
    try:
        index(root, in_place, progress=False, con=con)
    finally:
        con.close()
    a, b = _dump(db), _dump(in_place)
    assert a["edges"] and a == b


def test_a_first_index_failing_after_the_checkpoint_leaves_no_database(tmp_path, monkeypatch):
    root = tmp_path / "shop"
    shutil.copytree(SAMPLES / "pyshop", root)
    monkeypatch.setattr(passes, "PRIVATE_COMMIT_MIN_ROWS", 5)

    def boom(*a, **k):
        raise RuntimeError("candidates failed")
    monkeypatch.setattr(passes, "_write_candidates", boom)
    db = str(tmp_path / "first.duckdb")
    with pytest.raises(RuntimeError, match="candidates failed"):
        index(root, db, progress=False)
    assert not os.path.exists(db)


def test_the_stdlib_index_keeps_few_free_blocks(stdlib_db):
    """An `UPDATE` of every edge left the old row versions' blocks free in the file (a
    third of its blocks); written anew, with the rest written after a checkpoint, about a
    tenth stay free."""
    con = duckdb.connect(stdlib_db, read_only=True)
    try:
        total, free = con.execute("SELECT total_blocks, free_blocks FROM pragma_database_size()").fetchall()[0]
    finally:
        con.close()
    assert free <= 0.2 * total, (free, total)


def test_the_resolve_command_checkpoints_its_snapshot_after_the_new_table(tmp_path, monkeypatch):
    """`workbench resolve` after `index --no-resolve` writes a snapshot: it commits and
    checkpoints once the edges table is written anew, as a first index does, and gives the
    rows an index with resolution gives."""
    from workbench.cli import main
    root = tmp_path / "shop"
    shutil.copytree(SAMPLES / "pyshop", root)
    monkeypatch.setattr(passes, "PRIVATE_COMMIT_MIN_ROWS", 5)       # the sample's rows count as many
    db = str(tmp_path / "later.duckdb")
    index(root, db, progress=False, resolve=False)
    with _statements(monkeypatch) as statements:
        assert main(["resolve", db, "-q"]) == 0
    assert statements.count("CHECKPOINT") == 1
    at_once = str(tmp_path / "at_once.duckdb")
    index(root, at_once, progress=False)
    a, b = _dump(db), _dump(at_once)
    assert a["edges"] and a == b
