"""The SQL boundary: `workbench sql --safe` (and `workbench.open(db, safe=True)`) runs SQL
nobody reviewed without file, network or extension access, with locked configuration,
capped memory and time; the Python API is read-only unless asked for write access."""
from __future__ import annotations

import duckdb
import pytest

import workbench
from workbench.cli import main


@pytest.fixture(scope="module")
def db(tmp_path_factory, request):
    from conftest import SAMPLES
    path = str(tmp_path_factory.mktemp("sqlsafe") / "shop.duckdb")
    workbench.index(SAMPLES / "pyshop", db=path, progress=False).close()
    return path


@pytest.mark.parametrize("query", [
    "SELECT * FROM read_text('/etc/passwd')",
    "SELECT * FROM read_csv('/etc/passwd')",
    "SELECT * FROM glob('/etc/*')",
    "COPY files TO '{tmp}/leak.csv'",
    "EXPORT DATABASE '{tmp}/dump'",
    "ATTACH '{tmp}/other.duckdb' AS other",
    "INSTALL httpfs",
    "SET enable_external_access = true",
    "SET memory_limit = '64GB'",
    "CREATE TABLE files2 AS SELECT * FROM files",
    "DELETE FROM files",
])
def test_safe_sql_cannot_leave_the_index(db, tmp_path, capsys, query):
    q = query.replace("{tmp}", str(tmp_path))
    assert main(["sql", db, q, "--safe"]) == 1
    out, err = capsys.readouterr()
    assert "root:x:0:0" not in out and err.startswith("workbench sql: ")
    assert not list(tmp_path.iterdir())


def test_safe_sql_still_sees_the_tables_views_and_macros(db, capsys):
    assert main(["sql", db, "SELECT count(*) FROM symbols WHERE kind = 'class'", "--safe",
                 "--csv"]) == 0
    assert capsys.readouterr().out.splitlines()[1] != "0"
    assert main(["sql", db, "SELECT count(*) FROM find_callers('shop.pricing.compute_total')",
                 "--safe", "--csv"]) == 0
    assert main(["sql", db, "SELECT count(*) FROM call_edges", "--safe", "--csv"]) == 0


def test_safe_sql_is_stopped_after_its_timeout(db, capsys):
    code = main(["sql", db, "SELECT count(*) FROM range(1000000000000) a, range(10) b",
                 "--safe", "--timeout", "1"])
    assert code == 1
    assert capsys.readouterr().err.strip() == "workbench sql: stopped after 1 s (--timeout)"


def test_the_python_api_is_read_only_unless_asked(db, tmp_path):
    import shutil
    copy = str(tmp_path / "copy.duckdb")
    shutil.copyfile(db, copy)
    with workbench.open(copy) as wb:
        with pytest.raises(duckdb.Error, match="read-only"):
            wb.sql("CREATE TABLE notes (x INTEGER)")
    with workbench.open(copy, read_only=False) as wb:
        wb.sql("CREATE TABLE notes (x INTEGER)")
    with workbench.open(copy, safe=True) as wb:
        assert wb.sql("SELECT count(*) FROM notes").fetchall() == [(0,)]
        with pytest.raises(duckdb.Error, match="disabled by configuration"):
            wb.sql("SELECT * FROM read_text('/etc/passwd')").fetchall()
