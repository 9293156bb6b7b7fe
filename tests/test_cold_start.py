"""A cold `workbench index` of a small repository loads only what indexing needs: not
pandas (which `pa.array` imports on first use), not pyarrow.compute, not the views, not
the Python API; and the fixed work of a run (connecting, the scan's ignore rules, the
bookkeeping) is skipped where it would change nothing."""
from __future__ import annotations

import json
import shutil
import subprocess
import sys
from pathlib import Path

import pyarrow as pa
import pytest

from workbench.store import arrow_array

SAMPLES = Path(__file__).resolve().parent.parent / "sample_repos"


@pytest.mark.parametrize("values, type_", [
    (["a", None, "b\u00e9", ""], pa.string()),
    ([1, None, -3, 2**40], pa.int64()),
    ([7, 8], pa.int32()),
    ([1.5, None, 0.0], pa.float64()),
    ([True, None, False] * 5, pa.bool_()),
    ([["x", "y"], None, [], ["z"]], pa.list_(pa.string())),
    ([], pa.string()),
    ([], pa.list_(pa.string())),
    ([None, None], pa.int64()),
    # the buffer-built cases (`store._plain_array`): ASCII strings, integers, no nulls
    (["abc", "", "x.y(z)"], pa.string()),
    (("t", "u"), pa.string()),
    ([3, -1, 2**62], pa.int64()),
    ((5, 6, 7), pa.int32()),
])
def test_arrow_array_equals_pa_array(values, type_):
    got = arrow_array(values, type_)
    got.validate(full=True)
    assert got.type == type_
    assert got.equals(pa.array(values, type=type_))


def test_arrow_array_of_large_strings_and_integers_does_not_import_pandas():
    """A parser process converts chunks of any size (the largest files of a big repository
    come first, in one chunk) without `pa.array`, which would import pandas there."""
    code = (
        "import sys, pickle\n"
        "import pyarrow as pa\n"
        "from workbench.store import PANDAS_FREE_MAX, arrow_array\n"
        "n = PANDAS_FREE_MAX + 10\n"
        "cases = [([f'n{i}' for i in range(n)], pa.string()),\n"
        "         ([None if i % 3 else f'\\u00e9{i}' for i in range(n)], pa.string()),\n"
        "         (list(range(n)), pa.int64()), ([None if i % 5 else i for i in range(n)], pa.int64())]\n"
        "got = [arrow_array(v, t) for v, t in cases]\n"
        "for a in got: a.validate(full=True)\n"
        "sys.stdout.buffer.write(pickle.dumps(('pandas' in sys.modules, cases, got)))\n")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, check=True)
    import pickle
    loaded, cases, got = pickle.loads(out.stdout)
    assert loaded is False
    for (values, type_), arr in zip(cases, got):
        assert arr.type == type_ and arr.equals(pa.array(values, type=type_))


def test_cli_index_of_a_small_repo_imports_only_what_it_needs(tmp_path):
    repo = tmp_path / "pyshop"
    shutil.copytree(SAMPLES / "pyshop", repo)
    code = (
        "import sys, json\n"
        "from workbench.cli import main\n"
        f"rc = main(['index', {str(repo)!r}, '--db', {str(tmp_path / 'x.duckdb')!r}, '-q'])\n"
        "print(json.dumps({'rc': rc, 'loaded': sorted(m for m in ('pandas', 'pyarrow.compute', "
        "'workbench.views', 'workbench.corpus', 'workbench.server', 'workbench.api', 'tqdm', "
        "'multiprocessing', 'concurrent.futures.process') "
        "if m in sys.modules)}))\n")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    got = json.loads(out.stdout.strip().splitlines()[-1])
    assert got == {"rc": 0, "loaded": []}


def test_re_indexes_keeping_the_model_do_not_import_pandas(tmp_path):
    """A process that indexes, then re-indexes after edits (its model kept: the readers of
    the edit found in the model's copy of `resolve_deps`) never imports pandas (~0.4 s)."""
    repo = tmp_path / "pyshop"
    shutil.copytree(SAMPLES / "pyshop", repo)
    target = repo / "shop" / "models.py"
    code = (
        "import sys, json\n"
        "from workbench.indexer import index\n"
        f"root, db, target = {str(repo)!r}, {str(tmp_path / 'x.duckdb')!r}, {str(target)!r}\n"
        "index(root, db, jobs=1, progress=False)\n"
        "kept = []\n"
        "for k in range(2):\n"
        "    open(target, 'a').write(f'\\n\\ndef _added_{k}(x):\\n    return x\\n')\n"
        "    kept.append(index(root, db, jobs=1, progress=False).resolve_stats.model_kept)\n"
        "print(json.dumps({'kept': kept, 'pandas': 'pandas' in sys.modules}))\n")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert json.loads(out.stdout.strip().splitlines()[-1]) == {"kept": [True, True], "pandas": False}


def test_a_repository_without_gitignore_or_excludes_does_not_load_pathspec(tmp_path):
    repo = tmp_path / "r"
    (repo / "pkg").mkdir(parents=True)
    (repo / "pkg" / "a.py").write_text("def f():\n    return 1\n")
    (repo / "pkg" / "a.pyc").write_bytes(b"\0")
    code = ("import sys\nfrom workbench.scan import scan\n"
            f"r = scan({str(repo)!r})\n"
            "print([e.path for e in r.entries], r.ignored_files, 'pathspec' in sys.modules)\n")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "['pkg/a.py'] 1 False"


# names and paths the built-in ignore globs must judge as pathspec does
_PROBES = ["a.pyc", "x/a.pyc", "x/a.pyc/", "a.pyc/b.py", "x/a.pyc/b.py", "a.pycx", "apyc",
           ".pyc", "a.so", "a.so.1", "lib/a.o", "a.a", "x/.DS_Store", "x/.DS_Store/", ".DS_Storex",
           "x.DS_Store", "m.min.js", "x/m.min.js.map", "min.js", "a.map", "yarn.lock", "x/yarn.lock/",
           "Cargo.lock", "poetry.lock", "a.lock/b", "db.duckdb", "db.duckdb.wal", "db.duckdbx", "db.duckdb.model",
           "db.duckdb.model.log", "db.duckdb.modelx",
           "package-lock.json", "x/package-lock.json", "package-lockXjson", "pnpm-lock.yaml",
           "pnpm-lock.yml", "a.class", "a.jar", "a.dll", "a.dylib", "src/main.py", "README",
           "a.pyc\n", "a\nb.pyc", "x/a\nb.pyc", "a.PYC", "\u00e9.pyc", "a b.lock", "dir/",
           "dir.so/", "x/y/z/w.pyo", "x/y.pyo/z/w.py", "*.pyc", "a.pyc.py"]


def test_builtin_ignores_match_what_pathspec_matches():
    import pathspec

    from workbench.scan import _BUILTIN_FILES, BUILTIN_IGNORED_FILES
    spec = pathspec.GitIgnoreSpec.from_lines(list(BUILTIN_IGNORED_FILES))
    got = {p: bool(_BUILTIN_FILES.match(p)) for p in _PROBES}
    assert got == {p: spec.match_file(p) for p in _PROBES}
    assert got["x/a.pyc"] and got["a.lock/b"] and not got["src/main.py"]    # both kinds occur


def test_builtin_ignores_by_name_match_the_whole_path_glob():
    """The walk judges each entry by its own name (`_builtin_name`): it enters no directory
    a glob matches, so for every path whose directories match none, the name alone must
    give the answer the whole path gives."""
    from workbench.scan import _BUILTIN_FILES, _builtin_name
    names = {part for p in _PROBES for part in p.split("/") if part} | {
        "x.lock", ".lock", "lock", "a.min.js", ".min.js", "a.duckdb.model.log", "tab\t.pyc",
        "\u00e9.so", "a.so\n", "ok.py", "a.PYC", "\x7f.pyc"}
    checked = 0
    for parent in ("", "src/", "x/y/"):
        for name in names:
            want = bool(_BUILTIN_FILES.match(parent + name))
            assert _builtin_name(name) == want, (parent, name)
            assert _builtin_name(name, is_dir=True) == bool(_BUILTIN_FILES.match(parent + name + "/")), name
            checked += 1
    assert checked > 100 and _builtin_name("a.pyc") and not _builtin_name("a.py")


def test_scan_with_user_globs_keeps_builtin_and_user_rules(tmp_path):
    from workbench.scan import scan
    for rel in ("keep.py", "drop/x.py", "a.lock", "b.pyc", "c.txt"):
        (tmp_path / rel).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / rel).write_text("x\n")
    # a user negation cannot bring back what a built-in glob ignores (those come last)
    r = scan(tmp_path, exclude=("drop/", "*.txt", "!a.lock"))
    assert [e.path for e in r.entries] == ["keep.py"]
    assert r.ignored_dirs == {"drop": 1} and r.ignored_files == 3
    r = scan(tmp_path)
    assert [e.path for e in r.entries] == ["c.txt", "drop/x.py", "keep.py"]


def test_writable_connections_install_the_call_graph_sql_once(tmp_path):
    import duckdb

    from workbench import schema, store
    db = str(tmp_path / "x.duckdb")
    con = store.connect(db)
    assert schema.is_current(con)
    con.close()
    con = duckdb.connect(db)            # someone replaces the view and drops a macro
    con.execute("CREATE OR REPLACE VIEW call_edges AS SELECT 1 AS x").fetchall()
    con.execute("DROP MACRO TABLE find_callers").fetchall()
    assert not schema.is_current(con)
    con.close()
    con = store.connect(db)             # the next writable connection puts them back
    try:
        assert schema.is_current(con)
        assert con.execute("SELECT count(*) FROM find_callers('f')").fetchall() == [(0,)]
        assert "caller" in [c[0] for c in con.execute("SELECT * FROM call_edges").description]
    finally:
        con.close()
    con = duckdb.connect(db)            # a missing table counts too
    con.execute("DROP TABLE call_candidates").fetchall()
    con.close()
    con = store.connect(db)
    try:
        assert schema.is_current(con)
        assert con.execute("SELECT count(*) FROM call_candidates").fetchall() == [(0,)]
    finally:
        con.close()


def test_set_meta_stores_strings_as_they_are_and_other_values_as_json(tmp_path):
    from workbench import store
    con = store.connect(str(tmp_path / "m.duckdb"))
    try:
        store.set_meta(con, a="x", b=["p", 1], c={"k": None}, d="")
        store.set_meta(con)
        store.set_meta(con, a="y")
        assert dict(con.execute("SELECT * FROM meta").fetchall()) == {
            "a": "y", "b": '["p", 1]', "c": '{"k": null}', "d": ""}
    finally:
        con.close()


_END = ("import sys\nsys.argv = ['workbench'] + sys.argv[1:]\n"
        "from workbench.cli import main\nrc = main()\nprint(f'main returned {rc}')\n"
        "sys.exit(rc)\n")


def test_the_program_ends_its_process_after_an_index_with_all_its_output(tmp_path):
    repo = tmp_path / "pyshop"
    shutil.copytree(SAMPLES / "pyshop", repo)
    db = str(tmp_path / "x.duckdb")
    out = subprocess.run([sys.executable, "-c", _END, "index", str(repo), "--db", db, "-q"],
                         capture_output=True, text=True)
    assert out.returncode == 0, out.stderr
    assert out.stdout.startswith(f"indexed {repo} -> {db} in ") and "main returned" not in out.stdout
    assert out.stdout.endswith("\n") and out.stderr == ""
    # an error is reported the usual way, with its status
    out = subprocess.run([sys.executable, "-c", _END, "index", str(tmp_path / "missing"), "--db", db],
                         capture_output=True, text=True)
    assert (out.returncode, out.stderr) == (2, f"workbench index: not a directory: {tmp_path / 'missing'}\n")
    # other commands return to their caller
    out = subprocess.run([sys.executable, "-c", _END, "stats", db], capture_output=True, text=True)
    assert out.returncode == 0 and out.stdout.endswith("main returned 0\n")
