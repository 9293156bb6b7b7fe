"""Memory between the phases of an index run, and what a failed run leaves.

Bulk inserts must not keep their Arrow columns alive until the run's transaction ends (a
registered view would: its catalog entry stays until commit), and a run that fails after
its rows are stored leaves the database as it was, or none on a first index."""
from __future__ import annotations

import os
import shutil

import duckdb
import pyarrow as pa
import pytest

import workbench.resolve
from conftest import SAMPLES, write
from workbench import attach, snapshot, store
from workbench.indexer import index


def _rows(db: str) -> dict:
    con = duckdb.connect(db, read_only=True)
    try:
        return {t: sorted(con.execute(f"SELECT * EXCLUDE ({ids}) FROM {t}").fetchall(), key=repr)
                for t, ids in (("files", "file_id, mtime"), ("symbols", "symbol_id, file_id, parent_id"),
                               ("edges", "edge_id, src_id, dst_id"), ("imports", "file_id, src_id"))}
    finally:
        con.close()


def test_inserted_columns_are_let_go_before_the_transaction_ends(tmp_path):
    con = store.connect(str(tmp_path / "t.duckdb"))
    try:
        n = 100_000
        values = {pa.string(): [f"dir/file_{i:07d}.py" * 4 for i in range(n)], pa.int64(): list(range(n)),
                  pa.int32(): [0] * n, pa.float64(): [0.0] * n}
        store.run(con, "BEGIN TRANSACTION")
        before = pa.total_allocated_bytes()
        cols = {f.name: pa.array(values[f.type], f.type) for f in store._TYPES["files"]}
        grown = pa.total_allocated_bytes() - before
        assert grown > 8 * n                              # the columns are Arrow memory
        assert store.insert_columns(con, "files", cols) == n
        del cols
        assert pa.total_allocated_bytes() - before < grown // 10   # gone, the transaction still open
        assert store.one(con, "SELECT count(*) FROM files")[0] == n
        store.run(con, "COMMIT")
    finally:
        con.close()


class _Boom(RuntimeError):
    pass


def _failing_resolution(monkeypatch):
    def boom(con, *a, **k):
        raise _Boom("resolution failed")
    monkeypatch.setattr(workbench.resolve, "resolve_edges", boom)


def test_a_first_index_failing_in_resolution_leaves_no_database(tmp_path, monkeypatch):
    root = tmp_path / "shop"
    shutil.copytree(SAMPLES / "pyshop", root)
    db = str(tmp_path / "first.duckdb")
    _failing_resolution(monkeypatch)
    with pytest.raises(_Boom):
        index(root, db, progress=False)
    assert not os.path.exists(db)
    # no snapshot or WAL left behind (the writer lock file stays, as after any run)
    assert sorted(os.listdir(tmp_path)) == ["first.duckdb.lock", "shop"]


@pytest.mark.parametrize("reader", [False, True], ids=["in-place", "snapshot"])
def test_a_re_index_failing_in_resolution_keeps_the_old_state(tmp_path, monkeypatch, reader):
    root = tmp_path / "shop"
    shutil.copytree(SAMPLES / "pyshop", root)
    db = str(tmp_path / "shop.duckdb")
    index(root, db, progress=False)
    before = _rows(db)
    write(root, "shop/added_later.py", "def added():\n    return 1\n")
    _failing_resolution(monkeypatch)
    fd = snapshot.hold_reader(db) if reader else None    # a reader: the run writes a snapshot
    try:
        with pytest.raises(_Boom):
            index(root, db, progress=False)
    finally:
        if fd is not None:
            os.close(fd)
    assert _rows(db) == before
    assert not [p for p in os.listdir(tmp_path) if "snapshot" in p]
    monkeypatch.undo()
    assert index(root, db, progress=False).added == 1     # the next run does the work
    assert any(r[0] == "shop/added_later.py" for r in _rows(db)["files"])


def _seen_from_another_connection(monkeypatch) -> list:
    """Make resolution first record which files a second connection to the database sees
    (what is committed so far), then resolve as usual."""
    seen = []
    real = workbench.resolve.resolve_edges

    def spy(con, *a, **k):
        cur = attach.cursor(con)        # (`con.cursor()` of an attached run: the instance's own database)
        try:
            seen.append(sorted(r[0] for r in cur.execute("SELECT path FROM files").fetchall()))
        finally:
            cur.close()
        return real(con, *a, **k)
    monkeypatch.setattr(workbench.resolve, "resolve_edges", spy)
    return seen


def test_a_private_run_commits_its_rows_before_resolution(tmp_path, monkeypatch):
    """A first index writes a new file nobody can open yet: its extracted rows are
    committed before resolution (DuckDB writes them out while the process is small)."""
    root = tmp_path / "shop"
    shutil.copytree(SAMPLES / "pyshop", root)
    db = str(tmp_path / "first.duckdb")
    seen = _seen_from_another_connection(monkeypatch)
    report = index(root, db, progress=False)
    assert seen and len(seen[0]) == report.files > 0
    monkeypatch.undo()
    fresh = str(tmp_path / "fresh.duckdb")
    index(root, fresh, progress=False)
    assert _rows(db) == _rows(fresh)          # the same index as in one transaction


def test_an_in_place_run_stays_one_transaction(tmp_path, monkeypatch):
    root = tmp_path / "shop"
    shutil.copytree(SAMPLES / "pyshop", root)
    db = str(tmp_path / "shop.duckdb")
    index(root, db, progress=False)
    write(root, "shop/added_later.py", "def added():\n    return 1\n")
    seen = _seen_from_another_connection(monkeypatch)
    index(root, db, progress=False)           # few files changed, nobody reads: in place
    assert seen and "shop/added_later.py" not in seen[0]


def test_is_private_names_only_new_files_and_snapshots(tmp_path):
    db = str(tmp_path / "x.duckdb")
    with snapshot.write_index(db) as con:     # a first index: a new file
        assert snapshot.is_private(con)
        store.run(con, "CREATE TABLE t (a INTEGER)")
    assert not snapshot.is_private(con)
    with snapshot.write_index(db, in_place=True) as con:    # nobody reads: in place
        assert not snapshot.is_private(con)
    with snapshot.write_index(db, in_place=False) as con:   # a snapshot
        assert snapshot.is_private(con)


def test_the_pool_run_leaves_this_process_the_main_languages_queries(tmp_path, monkeypatch):
    """A run that parses in parser processes compiles, meanwhile, the queries of its most
    common languages in this process: the next incremental run parses here."""
    from workbench import compiled_queries, indexer
    monkeypatch.setattr(compiled_queries, "_COMPILED", {})
    root = tmp_path / "repo"
    root.mkdir()
    for i in range(indexer.POOL_MIN_FILES + 8):
        (root / f"m{i}.py").write_text(f"def f{i}():\n    return {i}\n")
    for i in range(3):
        (root / f"s{i}.go").write_text(f"package main\n\nfunc G{i}() int {{ return {i} }}\n")
    (root / "one.rb").write_text("def r\n  1\nend\n")
    monkeypatch.setattr(indexer, "WARM_LANGUAGES", 2)
    index(root, str(tmp_path / "db.duckdb"), jobs=2, progress=False, resolve=False)
    assert set(compiled_queries._COMPILED) == {"python", "go"}      # the two with most files


def test_warm_queries_skip_skipped_and_unknown_files(monkeypatch):
    from workbench import compiled_queries, indexer
    from workbench.scan import ScanEntry
    monkeypatch.setattr(compiled_queries, "_COMPILED", {})
    parts = [[(ScanEntry("a.py", "/x/a.py", 1, 0.0, "too large"), None),
              (ScanEntry("b.unknownext", "/x/b.unknownext", 1, 0.0), None),
              (ScanEntry("c.rs", "/x/c.rs", 1, 0.0), None)]]
    indexer._warm_queries(parts)
    assert set(compiled_queries._COMPILED) == {"rust"}


def test_warm_queries_leave_rare_languages_alone(monkeypatch):
    """A language with a few files among many (four D files in the standard library) is
    not worth compiling in every full run."""
    from workbench import compiled_queries, indexer
    from workbench.scan import ScanEntry
    monkeypatch.setattr(compiled_queries, "_COMPILED", {})
    files = [f"m{i}.py" for i in range(60)] + ["a.go", "b.go", "c.go", "x.rs"]
    indexer._warm_queries([[(ScanEntry(f, "/x/" + f, 1, 0.0), None) for f in files]])
    assert set(compiled_queries._COMPILED) == {"python"}


def _compiled_here(part, root=None, max_bytes=None):
    """Stands in for `indexer._process_chunk` in a parser process: the languages whose
    queries that process holds before it extracts anything."""
    from workbench import compiled_queries
    return sorted(compiled_queries._COMPILED)


def test_parser_processes_start_with_the_main_languages_queries_compiled(monkeypatch):
    """The main languages' queries are compiled before the parser processes are forked,
    so each inherits them instead of compiling its own."""
    import multiprocessing

    from workbench import compiled_queries, indexer
    from workbench.scan import ScanEntry
    if multiprocessing.get_start_method() != "fork":
        pytest.skip("parser processes inherit this process's memory only when forked")
    monkeypatch.setattr(compiled_queries, "_COMPILED", {})
    monkeypatch.setattr(indexer, "_process_chunk", _compiled_here)
    parts = [[(ScanEntry(f"m{i}.py", f"/x/m{i}.py", 1, 0.0), None)] for i in range(4)]
    got = indexer._pool_extract(parts, 2, "/x", 100, lambda n: None)
    assert got == [["python"]] * 4
