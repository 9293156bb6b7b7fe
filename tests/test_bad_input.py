"""Bad input never stops indexing and always leaves a clear status on the files row."""
from __future__ import annotations

import os

import duckdb
import pytest

from conftest import write
from workbench.indexer import index


def _files(db):
    con = duckdb.connect(db, read_only=True)
    try:
        return {r[0]: r[1:] for r in con.execute(
            "SELECT path, status, skip_reason, message, encoding, error_count FROM files").fetchall()}
    finally:
        con.close()


@pytest.fixture
def messy_repo(tmp_path):
    root = tmp_path / "messy"
    write(root, "good.py", "def ok():\n    return 1\n")
    write(root, "image.py", b"\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR" + bytes(range(256)))
    write(root, "latin.py", "def caf\xe9():\n    return 'd\xe9j\xe0'\n".encode("latin-1"))
    write(root, "empty.py", "")
    write(root, "huge.py", "x = 1\n" * 400_000)
    write(root, "broken.py", "def f(:\n    pass\n\ndef g():\n    return 2\n")
    write(root, "loop/inner.py", "def inner():\n    pass\n")
    os.symlink("..", root / "loop" / "back")            # a symlink loop
    os.symlink("/etc/passwd", root / "escape.txt")       # a symlink out of the root
    os.symlink("good.py", root / "alias.py")             # a symlink inside the root
    os.mkfifo(root / "pipe.py")                          # not a regular file
    write(root, "secret.py", "def hidden():\n    pass\n")
    return root


def test_bad_input_gets_a_status_and_never_crashes(messy_repo, tmp_path, monkeypatch):
    import workbench.indexer as indexer
    real_read = indexer.read_beneath

    def fake_read(root, rel, limit=None):           # root can read anything: simulate EACCES
        if rel.endswith("secret.py"):
            raise PermissionError(13, "Permission denied")
        return real_read(root, rel, limit)
    monkeypatch.setattr(indexer, "read_beneath", fake_read)
    db = str(tmp_path / "m.duckdb")
    report = index(messy_repo, db, jobs=1, max_bytes=1_000_000, progress=False)
    files = _files(db)
    assert files["good.py"][0] == "ok"
    assert files["image.py"][:2] == ("skipped", "binary")
    assert files["latin.py"][0] == "ok" and files["latin.py"][3] == "latin-1"
    assert "not valid UTF-8" in files["latin.py"][2]
    assert files["empty.py"][0] == "ok"
    assert files["huge.py"][0] == "skipped" and files["huge.py"][1].startswith("too large: 2400000 bytes")
    assert files["broken.py"][0] == "partial" and files["broken.py"][4] > 0
    assert files["loop/inner.py"][0] == "ok"
    assert files["loop/back"][:2] == ("skipped", "symlink to a directory (not followed)")
    assert files["escape.txt"][:2] == ("skipped", "symlink leaves the repository")
    assert files["alias.py"][:2] == ("skipped", "symlink to good.py (indexed there)")
    assert files["pipe.py"][:2] == ("skipped", "not a regular file")
    assert files["secret.py"][0] == "failed" and files["secret.py"][1].startswith("unreadable")
    assert report.added == len(files)


def test_latin1_file_still_yields_its_symbols(messy_repo, tmp_path):
    db = str(tmp_path / "m.duckdb")
    index(messy_repo, db, jobs=1, progress=False)
    con = duckdb.connect(db, read_only=True)
    names = {r[0] for r in con.execute("SELECT name FROM symbols WHERE path = 'latin.py'").fetchall()}
    con.close()
    assert "caf\ufffd" in names or "café" in names


def test_broken_file_keeps_definitions_after_the_error(messy_repo, tmp_path):
    db = str(tmp_path / "m.duckdb")
    index(messy_repo, db, jobs=1, progress=False)
    con = duckdb.connect(db, read_only=True)
    rows = con.execute("SELECT qualname, start_line, end_line FROM symbols "
                       "WHERE path = 'broken.py' AND kind <> 'module' ORDER BY start_line").fetchall()
    con.close()
    assert ("broken.g", 4, 5) in rows


def test_ghost_method_is_clipped_and_flagged():
    from workbench.extract import extract_file
    from workbench.languages import SPECS
    src = (b"class A:\n"
           b"    def one(self):\n"
           b"        x = foo(1,\n"
           b"        return x\n"
           b"\n"
           b"    def two(self):\n"
           b"        return 2\n"
           b"\n"
           b"\n"
           b"def after():\n"
           b"    return 3\n")
    rows = extract_file("m.py", src, SPECS["python"])
    got = {s[3]: (s[1], s[5], s[6], s[13]) for s in rows.symbols}
    assert rows.status == "partial" and rows.error_count > 0
    # tree-sitter's recovery stretched A and A.one to the end of the file
    assert got["m.A"] == ("class", 1, 7, True)
    assert got["m.A.one"] == ("method", 2, 4, True)
    assert got["m.A.two"] == ("method", 6, 7, False)
    assert got["m.after"] == ("function", 10, 11, False)


def test_gitignore_builtin_and_user_globs(tmp_path):
    from workbench.scan import scan
    root = tmp_path / "r"
    write(root, ".gitignore", "*.log\nbuild/\n!keep.log\n")
    write(root, "a.py", "x = 1\n")
    write(root, "debug.log", "noise\n")
    write(root, "keep.log", "kept\n")
    write(root, "build/out.py", "x = 1\n")
    write(root, "node_modules/m/index.js", "x\n")
    write(root, "sub/.gitignore", "*.tmp\n!a.tmp\n")
    write(root, "sub/b.tmp", "x\n")
    write(root, "sub/a.tmp", "x\n")
    write(root, "gen/skip_me.py", "x = 1\n")
    write(root, "venv/lib.py", "x = 1\n")               # no pyvenv.cfg: a real package
    write(root, "env2/pyvenv.cfg", "home = /usr\n")
    res = scan(root, exclude=("gen/",))
    paths = sorted(e.path for e in res.entries)
    assert paths == [".gitignore", "a.py", "env2/pyvenv.cfg", "keep.log", "sub/.gitignore",
                     "sub/a.tmp", "venv/lib.py"]
    assert res.ignored_dirs == {"build": 1, "node_modules": 1, "gen": 1}
    assert res.ignored_files == 2


def test_missing_root_is_a_clear_error(tmp_path):
    with pytest.raises(NotADirectoryError, match="not a directory"):
        index(tmp_path / "nope", str(tmp_path / "x.duckdb"), progress=False)
