"""Incremental re-index: the database equals a fresh index of the new tree (ids aside)."""
from __future__ import annotations

import os
import shutil
import time

import duckdb

from workbench.indexer import index

# Rows compared without ids: ids become the qualnames/paths they point to.
_QUERIES = {
    "files": "SELECT path, language, size_bytes, line_count, sha256, status, error_count, "
             "skip_reason, encoding, message, module FROM files",
    "symbols": "SELECT s.path, s.kind, s.name, s.qualname, p.qualname AS parent, s.start_line, "
               "s.end_line, s.start_byte, s.end_byte, s.signature, s.doc, s.decorators, "
               "s.visibility, s.is_truncated, s.is_declaration, s.body_start_line "
               "FROM symbols s LEFT JOIN symbols p ON p.symbol_id = s.parent_id",
    "edges": "SELECT src.qualname, e.kind, e.dst_name, d.qualname, e.dst_qualname, e.path, e.line, "
             "e.resolution, e.candidates FROM edges e JOIN symbols src ON src.symbol_id = e.src_id "
             "LEFT JOIN symbols d ON d.symbol_id = e.dst_id",
    "imports": "SELECT i.path, s.qualname, i.module, i.name, i.alias, i.line, i.resolved_path "
               "FROM imports i LEFT JOIN symbols s ON s.symbol_id = i.src_id",
}


def snapshot(db: str) -> dict[str, list]:
    con = duckdb.connect(db, read_only=True)
    try:
        return {t: sorted(con.execute(q).fetchall(), key=repr) for t, q in _QUERIES.items()}
    finally:
        con.close()


def _touch_later(path):
    st = os.stat(path)
    os.utime(path, (st.st_atime, st.st_mtime + 5))


def test_reindex_after_edit_add_delete_rename_equals_fresh_index(sample_copy, tmp_path):
    repo = sample_copy("pyshop")
    db = str(tmp_path / "inc.duckdb")
    first = index(repo, db, jobs=1, progress=False)
    assert first.added > 10 and first.changed == first.removed == first.unchanged == 0

    # edit: add a function to pricing.py; add a module; delete one; rename one
    pricing = repo / "shop" / "pricing.py"
    pricing.write_text(pricing.read_text() + "\n\ndef surcharge(total):\n    return add_tax(total, 'DE')\n")
    _touch_later(pricing)
    (repo / "shop" / "coupons.py").write_text("from shop.pricing import surcharge\n\n\n"
                                              "def coupon_total(t):\n    return surcharge(t) - 5\n")
    os.remove(repo / "shop" / "util" / "legacy.py")
    os.rename(repo / "shop" / "util" / "text.py", repo / "shop" / "util" / "strings.py")
    # touched but identical content: must count as unchanged, not re-parsed
    _touch_later(repo / "shop" / "models.py")

    second = index(repo, db, jobs=1, progress=False)
    assert (second.added, second.changed, second.removed) == (2, 1, 2)
    assert second.unchanged == first.added - 3
    assert second.parsed == 3

    fresh_db = str(tmp_path / "fresh.duckdb")
    index(repo, fresh_db, jobs=1, progress=False)
    assert snapshot(db) == snapshot(fresh_db)


def test_reindex_without_changes_parses_nothing(sample_copy, tmp_path):
    repo = sample_copy("tsapp")
    db = str(tmp_path / "a.duckdb")
    first = index(repo, db, jobs=1, progress=False)
    before = snapshot(db)
    again = index(repo, db, jobs=1, progress=False)
    assert again.parsed == 0 and again.unchanged == first.added
    assert snapshot(db) == before


def test_parallel_index_equals_serial_index(sample_copy, tmp_path):
    repo = sample_copy("pyshop")
    for name in ("javaservice", "goservice"):
        shutil.copytree(sample_copy(name), repo / name)
    serial, parallel = str(tmp_path / "s.duckdb"), str(tmp_path / "p.duckdb")
    index(repo, serial, jobs=1, progress=False)
    from workbench import indexer
    old = indexer._chunks
    try:   # force the pool even for a small tree
        index(repo, parallel, jobs=2, progress=False)
    finally:
        indexer._chunks = old
    assert snapshot(serial) == snapshot(parallel)


def test_interrupted_reindex_keeps_previous_state(sample_copy, tmp_path, monkeypatch):
    repo = sample_copy("pyshop")
    db = str(tmp_path / "x.duckdb")
    index(repo, db, jobs=1, progress=False)
    before = snapshot(db)
    (repo / "shop" / "models.py").write_text("def replaced():\n    pass\n")
    os.remove(repo / "shop" / "cli.py")
    index_interrupted_mid_write(repo, db, monkeypatch)
    assert snapshot(db) == before


def index_interrupted_mid_write(repo, db: str, monkeypatch) -> None:
    """Index with the first table write raising KeyboardInterrupt; check that it propagates."""
    from workbench import store

    def boom(*a, **k):
        raise KeyboardInterrupt("interrupted mid-write")
    monkeypatch.setattr(store, "insert_columns", boom)
    try:
        index(repo, db, jobs=1, progress=False)
    except KeyboardInterrupt:
        pass
    else:
        raise AssertionError("the interruption did not propagate")
    monkeypatch.undo()


def test_index_without_resolution_unbinds_edges_into_changed_files(sample_copy, tmp_path):
    repo = sample_copy("pyshop")
    db = str(tmp_path / "r.duckdb")
    index(repo, db, jobs=1, progress=False)
    con = duckdb.connect(db, read_only=True)
    bound = con.execute("SELECT count(*) FROM edges e JOIN symbols s ON s.symbol_id = e.dst_id "
                        "WHERE s.path = 'shop/pricing.py' AND e.path <> 'shop/pricing.py'").fetchall()[0][0]
    con.close()
    assert bound > 0                                   # other files' calls bound into pricing.py
    pricing = repo / "shop" / "pricing.py"
    pricing.write_text(pricing.read_text() + "\n# edited\n")
    _touch_later(pricing)
    report = index(repo, db, jobs=1, progress=False, resolve=False)
    assert report.changed == 1 and set(report.timings) == {"scan", "extract", "store", "resolve"}
    con = duckdb.connect(db, read_only=True)
    dangling = con.execute("SELECT count(*) FROM edges WHERE dst_id IS NOT NULL AND "
                           "dst_id NOT IN (SELECT symbol_id FROM symbols)").fetchall()[0][0]
    version = con.execute("SELECT count(*) FROM meta WHERE key = 'resolver_version'").fetchall()[0][0]
    con.close()
    assert dangling == 0 and version == 0
    # the next resolving run resolves everything again and equals a fresh index
    index(repo, db, jobs=1, progress=False)
    fresh = str(tmp_path / "fresh.duckdb")
    index(repo, fresh, jobs=1, progress=False)
    assert snapshot(db) == snapshot(fresh)


def test_an_index_written_by_other_extractor_code_is_rebuilt(sample_copy, tmp_path):
    """Rows are derived data: after an upgrade (another `extractor_version`) every file is
    extracted again, even those whose content did not change; the same code changes nothing."""
    repo = sample_copy("tsapp")
    db = str(tmp_path / "old.duckdb")
    first = index(repo, db, jobs=1, progress=False)
    again = index(repo, db, jobs=1, progress=False)
    assert again.changed == again.added == 0 and again.unchanged == first.added
    con = duckdb.connect(db)
    con.execute("UPDATE meta SET value = 'older-code' WHERE key = 'extractor_version'")
    con.execute("DELETE FROM symbols WHERE qualname LIKE '%.consoleLogger.%'")   # what old code lacked
    con.close()
    rebuilt = index(repo, db, jobs=1, progress=False)
    assert rebuilt.changed == first.added and rebuilt.unchanged == 0
    fresh = str(tmp_path / "fresh.duckdb")
    index(repo, fresh, jobs=1, progress=False)
    assert snapshot(db) == snapshot(fresh)
    assert any("consoleLogger.info" in row[3] for row in snapshot(db)["symbols"])


def test_a_database_resolved_by_other_resolver_code_is_resolved_in_full(sample_copy, tmp_path):
    from workbench.resolve import RESOLVER_VERSION, resolve_edges
    repo = sample_copy("pyshop")
    db = str(tmp_path / "r.duckdb")
    index(repo, db, jobs=1, progress=False)
    con = duckdb.connect(db)
    try:
        assert not resolve_edges(con, ["shop/pricing.py"]).full
        con.execute("UPDATE meta SET value = 'older-code' WHERE key = 'resolver_version'")
        assert resolve_edges(con, ["shop/pricing.py"]).full
        assert con.execute("SELECT value FROM meta WHERE key = 'resolver_version'").fetchall() == [
            (RESOLVER_VERSION,)]
    finally:
        con.close()


def test_ids_of_deleted_rows_are_never_given_again(tmp_path):
    """The file with the highest ids changes (a function added at its top): its new symbols
    must not take the ids its old ones had, or edges from unchanged files that still name
    those ids point at other functions (`vec_get` -> `vec_push`)."""
    root = tmp_path / "cnative"
    shutil.copytree(os.path.join(os.path.dirname(__file__), "..", "sample_repos", "cnative"), root)
    db = str(tmp_path / "x.duckdb")
    index(root, db, jobs=1, progress=False)
    con = duckdb.connect(db, read_only=True)
    try:
        last = con.execute("SELECT path FROM symbols ORDER BY symbol_id DESC LIMIT 1").fetchone()[0]
        before = con.execute("SELECT max(symbol_id) FROM symbols").fetchone()[0]
    finally:
        con.close()
    assert last == "src/vec.c"
    f = root / last
    f.write_text("static int shifted_first(int y) { return y; }\n" + f.read_text())
    st = f.stat()
    os.utime(f, (st.st_atime, st.st_mtime + 5))
    index(root, db, jobs=1, progress=False)
    con = duckdb.connect(db, read_only=True)
    try:
        wrong = con.execute("""SELECT e.path, e.line, e.dst_qualname, s.qualname FROM edges e
                               JOIN symbols s ON s.symbol_id = e.dst_id
                               WHERE e.dst_qualname IS DISTINCT FROM s.qualname""").fetchall()
        first_new = con.execute("SELECT min(symbol_id) FROM symbols WHERE path = ?", [last]).fetchone()[0]
    finally:
        con.close()
    assert wrong == []
    assert first_new > before
