"""Go's module path comes from `go.mod` (`lang.go._module_prefix`), a root package's name from
its package clause (`lang.go._package_clause`): a missing or unreadable file means no name,
but a database error is not taken for one."""
from __future__ import annotations

from types import SimpleNamespace

import duckdb
import pytest

from workbench.resolve.lang.go import _module_prefix, _package_clause


def _model(tmp_path, root, paths=()):
    con = duckdb.connect(str(tmp_path / "meta.duckdb"))
    con.execute("CREATE TABLE meta (key VARCHAR, value VARCHAR)")
    if root is not None:
        con.execute("INSERT INTO meta VALUES ('root', ?)", [str(root)])
    return SimpleNamespace(con=con, paths=set(paths))


def test_module_path_from_the_root_go_mod_else_one_below(tmp_path):
    repo = tmp_path / "repo"
    (repo / "svc").mkdir(parents=True)
    (repo / "svc" / "go.mod").write_text("module\n\nmodule example.com/svc\n")
    m = _model(tmp_path, repo, ["svc/go.mod", "svc/main.go"])
    assert _module_prefix(m) == "example.com/svc"       # a line without a path is skipped
    (repo / "go.mod").write_text("// the root\nmodule example.com/root // a comment\n")
    assert _module_prefix(m) == "example.com/root"


def test_no_root_or_no_go_mod_is_no_module_path(tmp_path):
    repo = tmp_path / "repo"
    repo.mkdir()
    assert _module_prefix(_model(tmp_path, repo, ["sub/go.mod"])) is None    # listed, gone
    (tmp_path / "meta.duckdb").unlink()
    assert _module_prefix(_model(tmp_path, None)) is None


def test_a_database_error_is_raised_not_taken_for_no_go_mod(tmp_path):
    repo = tmp_path / "repo"
    repo.mkdir()
    (repo / "go.mod").write_text("module example.com/root\n")
    m = _model(tmp_path, repo)
    m.con.close()
    with pytest.raises(duckdb.Error):
        _module_prefix(m)
    m.con = duckdb.connect()                            # no meta table
    with pytest.raises(duckdb.CatalogException):
        _module_prefix(m)


def test_package_clause_read_from_the_file_none_when_missing(tmp_path):
    repo = tmp_path / "repo"
    repo.mkdir()
    (repo / "main.go").write_text("// Command demo.\npackage main\n\nfunc main() {}\n")
    (repo / "doc.go").write_text("// no clause here\n")
    m = _model(tmp_path, repo)
    assert _package_clause(m, "main.go") == "main"
    assert _package_clause(m, "doc.go") is None
    assert _package_clause(m, "gone.go") is None        # not on disk
    m.con.close()
    (tmp_path / "meta.duckdb").unlink()
    assert _package_clause(_model(tmp_path, None), "main.go") is None     # no root named


def test_package_clause_raises_a_database_error(tmp_path):
    repo = tmp_path / "repo"
    repo.mkdir()
    (repo / "main.go").write_text("package main\n")
    m = _model(tmp_path, repo)
    m.con.close()
    with pytest.raises(duckdb.Error):
        _package_clause(m, "main.go")
    m.con = duckdb.connect()                            # no meta table
    with pytest.raises(duckdb.CatalogException):
        _package_clause(m, "main.go")
