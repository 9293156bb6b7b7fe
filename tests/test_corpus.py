"""Corpus scale: export -> Parquet -> open_corpus answers like the databases; many
repositories indexed into one corpus (folders, archives, git revisions) on the local
engine and on Dask; failures recorded, unchanged inputs skipped, hostile archives refused."""
from __future__ import annotations

import io
import json
import os
import shutil
import subprocess
import tarfile
import time
import zipfile
from pathlib import Path

import duckdb
import pytest

import workbench
from workbench import schema
from workbench.cli import main
from workbench.corpus import (Corpus, LayoutError, ListError, export, index_corpus, open_corpus,
                              open_export)
from workbench.corpus import engines
from workbench.corpus.inputs import parse_inputs, read_list
from workbench import eval as ev
from workbench import tasks as task_sets

from conftest import SAMPLES

SOME = ("pyshop", "tsapp", "goservice")
# the call-graph macros, with arguments that give rows on pyshop
MACRO_QUERIES = [
    "SELECT * FROM find_callers('shop.pricing.compute_total')",
    "SELECT * FROM find_callees('shop.cli.main')",
    "SELECT * FROM find_definition('compute_total')",
    "SELECT * FROM trace_call_chain('shop.cli.main', 3, 'both')",
    "SELECT * FROM trace_call_chain('shop.pricing.clamp_rate', 2, 'up')",
]


def _same(a: list, b: list) -> bool:
    """The same rows (the macros' ORDER BY leaves ties, e.g. two calls on one line, in any order)."""
    key = lambda r: repr(r)  # noqa: E731
    return sorted(a, key=key) == sorted(b, key=key)


def _rows(con, sql, params=None):
    return con.execute(sql, params).fetchall() if params else con.execute(sql).fetchall()


@pytest.fixture(scope="module")
def exported(tmp_path_factory):
    """Some samples indexed into databases and exported side by side into one folder."""
    base = tmp_path_factory.mktemp("exported")
    dbs = {}
    for name in SOME:
        db = str(base / f"{name}.duckdb")
        workbench.index(SAMPLES / name, db=db, progress=False).close()
        export(db, base / "corpus" / name)
        dbs[name] = db
    return base / "corpus", dbs


# ---------------------------------------------------------------- export -> open_corpus

def test_every_table_reads_back_from_parquet_exactly(exported):
    folder, dbs = exported
    with open_corpus(folder) as c:
        assert c.names == sorted(SOME)
        for name, db in dbs.items():
            con = duckdb.connect(db, read_only=True)
            try:
                for table, cols in schema.TABLES.items():
                    names = ", ".join(col.name for col in cols)
                    want = _rows(con, f"SELECT {names} FROM {table} ORDER BY ALL")
                    got = _rows(c.con, f"SELECT {names} FROM {table} WHERE repo = ? ORDER BY ALL", [name])
                    assert got == want, (name, table)
                    assert want or table in ("call_candidates", "tasks", "eval_runs", "eval_results",
                                             "eval_calls"), (name, table)   # written by tasks / eval
                # the views have the tables' columns, in order, after `repo`
                for table in schema.TABLES:
                    cols = [d[0] for d in c.sql(f"SELECT * FROM {table} LIMIT 0").description]
                    assert cols == ["repo", *schema.columns(table)]
            finally:
                con.close()


def test_macros_answer_per_repository_as_on_the_database(exported):
    folder, dbs = exported
    with open_corpus(folder) as c, workbench.open(dbs["pyshop"], read_only=True) as wb:
        for q in MACRO_QUERIES:
            want = wb.sql(q).fetchall()
            assert want, q
            got = c.sql(q).fetchall()
            assert {r[0] for r in got} == {"pyshop"}, q       # other samples have no such names
            assert _same([r[1:] for r in got], want), q
        want = wb.sql("SELECT * FROM call_edges").fetchall()
        got = c.sql("SELECT * EXCLUDE (repo) FROM call_edges WHERE repo = 'pyshop'").fetchall()
        assert want and _same(got, want)


def test_macros_never_join_across_repositories(tmp_path, exported):
    """The same repository under two names: ids collide everywhere, yet each repository
    answers exactly its own rows (a join without `repo` would multiply them)."""
    _, dbs = exported
    for name in ("a", "b"):
        export(dbs["pyshop"], tmp_path / "twice" / name, repo=name)
    with open_corpus(tmp_path / "twice") as c, workbench.open(dbs["pyshop"], read_only=True) as wb:
        for q in MACRO_QUERIES:
            want = wb.sql(q).fetchall()
            got = c.sql(q).fetchall()
            assert len(got) == 2 * len(want), q
            for name in ("a", "b"):
                assert _same([r[1:] for r in got if r[0] == name], want), (q, name)
        want = wb.sql("SELECT * FROM call_edges").fetchall()
        got = c.sql("SELECT * FROM call_edges").fetchall()
        assert len(got) == 2 * len(want) and _same([r[1:] for r in got if r[0] == "b"], want)


def test_corpus_manifest_and_repos_view(exported):
    folder, dbs = exported
    m = json.loads((folder / "pyshop" / "manifest.json").read_text())
    con = duckdb.connect(dbs["pyshop"], read_only=True)
    meta = dict(con.execute("SELECT key, value FROM meta").fetchall())
    con.close()
    assert m["repo"] == "pyshop" and m["status"] == "ok" and m["format"] == "workbench-export"
    assert m["extractor_version"] == meta["extractor_version"]
    assert m["resolver_version"] == meta["resolver_version"]
    assert m["schema_version"] == schema.SCHEMA_VERSION
    assert set(m["tables"]) == set(schema.TABLES)
    with open_corpus(folder) as c:
        rows = c.sql("SELECT repo, status, files, symbols FROM repos ORDER BY repo").fetchall()
        n = c.sql("SELECT count(*) FROM symbols WHERE repo = 'pyshop'").fetchall()[0][0]
    assert [r[0] for r in rows] == sorted(SOME) and {r[1] for r in rows} == {"ok"}
    assert dict((r[0], r[3]) for r in rows)["pyshop"] == n == m["tables"]["symbols"]["rows"]


def test_one_export_is_a_corpus_of_one_and_opens_as_a_workbench(exported):
    folder, dbs = exported
    with open_corpus(folder / "tsapp") as c:
        assert c.names == ["tsapp"]
    with open_export(folder / "pyshop") as wb, workbench.open(dbs["pyshop"], read_only=True) as ref:
        assert wb.repo == "pyshop"
        assert wb.outline("shop/orders.py").text == ref.outline("shop/orders.py").text
        region = dict(path="shop/orders.py", start_line=1, end_line=30)
        assert wb.tool("read_region", **region).text == ref.tool("read_region", **region).text
        tmp = Path(wb.db).parent
    assert not tmp.exists()                     # the temporary copy goes with close()


def test_export_refuses_to_replace_a_folder_that_is_not_an_export(tmp_path, exported):
    _, dbs = exported
    keep = tmp_path / "mine"
    keep.mkdir()
    (keep / "notes.txt").write_text("precious")
    with pytest.raises(LayoutError, match="not a workbench export"):
        export(dbs["pyshop"], keep)
    assert (keep / "notes.txt").read_text() == "precious"
    assert [p.name for p in tmp_path.iterdir()] == ["mine"]      # no staging folder left
    export(dbs["pyshop"], tmp_path / "exp")
    export(dbs["tsapp"], tmp_path / "exp", repo="again")          # an export is replaced
    assert json.loads((tmp_path / "exp" / "manifest.json").read_text())["repo"] == "again"


def test_cli_export_and_sql_over_a_corpus(tmp_path, exported, capsys):
    _, dbs = exported
    assert main(["export", dbs["pyshop"], str(tmp_path / "c" / "pyshop")]) == 0
    assert main(["export", dbs["tsapp"], str(tmp_path / "c" / "tsapp"), "--repo", "ts"]) == 0
    capsys.readouterr()
    assert main(["sql", "--corpus", str(tmp_path / "c"), "--csv",
                 "SELECT repo, count(*) AS n FROM files GROUP BY repo ORDER BY repo"]) == 0
    out = capsys.readouterr().out.splitlines()
    assert out[0] == "repo,n" and [ln.split(",")[0] for ln in out[1:]] == ["pyshop", "ts"]
    assert main(["sql", "--corpus", str(tmp_path / "c"), "--csv",
                 "SELECT repo, caller FROM find_callers('shop.pricing.compute_total')"]) == 0
    assert "pyshop,shop.inventory.reserve" in capsys.readouterr().out
    assert main(["sql", "--corpus", str(tmp_path / "nowhere"), "SELECT 1"]) == 2
    assert "no corpus or export folder" in capsys.readouterr().err
    assert main(["export", str(tmp_path / "missing.duckdb"), str(tmp_path / "x")]) == 2


# ---------------------------------------------------------------- corpus index

def _tar(src: Path, dest: Path, top: str | None) -> Path:
    with tarfile.open(dest, "w:gz") as tf:
        tf.add(src, arcname=top or ".")
    return dest


def _zip(src: Path, dest: Path) -> Path:
    with zipfile.ZipFile(dest, "w") as zf:
        for p in sorted(src.rglob("*")):
            if p.is_file():
                zf.write(p, p.relative_to(src).as_posix())
    return dest


def _git_repo(src: Path, dest: Path) -> str:
    shutil.copytree(src, dest)
    env = {**os.environ, "GIT_AUTHOR_NAME": "t", "GIT_AUTHOR_EMAIL": "t@example.com",
           "GIT_COMMITTER_NAME": "t", "GIT_COMMITTER_EMAIL": "t@example.com"}
    for cmd in (["init", "-q"], ["add", "-A"], ["commit", "-q", "-m", "first"]):
        subprocess.run(["git", "-C", str(dest), *cmd], check=True, env=env, capture_output=True)
    (dest / "extra.rs").write_text("pub fn later() {}\n")       # not committed: not in the revision
    return "HEAD"


def _table_rows(con, table, where="", params=None, drop=()):
    cols = [c for c in schema.columns(table) if c not in drop]
    return _rows(con, f"SELECT {', '.join(cols)} FROM {table} {where} ORDER BY ALL", params)


@pytest.fixture(scope="module")
def inputs(tmp_path_factory):
    """A list file naming a folder, a tar.gz (one top folder), a zip (no top folder), a git
    revision, a broken archive and a folder that does not exist."""
    base = tmp_path_factory.mktemp("inputs")
    _tar(SAMPLES / "rustlib", base / "rustlib-1.0.tar.gz", "rustlib-1.0")
    _zip(SAMPLES / "cnative", base / "cnative.zip")
    (base / "broken.tar.gz").write_bytes((base / "rustlib-1.0.tar.gz").read_bytes()[:300])
    lines = [str(SAMPLES / "pyshop"), "rustlib-1.0.tar.gz", "cnative.zip name=c-native",
             "broken.tar.gz", "does/not/exist"]
    if shutil.which("git"):
        rev = _git_repo(SAMPLES / "goservice", base / "gitrepo")
        lines.append(f"gitrepo rev={rev} name=go-git")
    (base / "repos.txt").write_text("# a corpus for the tests\n" + "\n".join(lines) + "\n")
    return base


@pytest.fixture(scope="module")
def built(inputs, tmp_path_factory):
    out = tmp_path_factory.mktemp("built") / "corpus"
    report = index_corpus([str(inputs / "repos.txt")], out, jobs=2, progress=False)
    return out, report


def test_a_corpus_of_folders_archives_and_git_revisions(built, inputs):
    out, report = built
    want_ok = {"pyshop", "rustlib-1.0", "c-native"} | ({"go-git"} if shutil.which("git") else set())
    assert set(report.indexed) == want_ok
    assert set(report.failed) == {"broken", "exist"}
    assert all(r.cpu_seconds > 0 for r in report.repos if r.status == "indexed")   # measured in the worker
    assert "broken tar archive" in report.failed["broken"]
    assert "no such folder" in report.failed["exist"]
    with open_corpus(out) as c:
        assert c.names == sorted(want_ok)
        failed = dict(c.sql("SELECT repo, error FROM repos WHERE status = 'failed'").fetchall())
        assert failed == report.failed
        # each repository holds the same rows as indexing its folder directly
        for name, sample in (("pyshop", "pyshop"), ("rustlib-1.0", "rustlib"), ("c-native", "cnative"),
                             ("go-git", "goservice")):
            if name not in want_ok:
                continue
            db = str(out.parent / f"ref-{sample}.duckdb")
            workbench.index(SAMPLES / sample, db=db, progress=False).close()
            ref = duckdb.connect(db, read_only=True)
            for table in ("files", "symbols", "edges", "imports"):
                drop = ("mtime",)                   # archives carry their own mtimes
                assert (_table_rows(c.con, table, "WHERE repo = ?", [name], drop)
                        == _table_rows(ref, table, drop=drop)), (name, table)
            ref.close()
        # the git revision is the commit, not the working tree
        if "go-git" in want_ok:
            assert c.sql("SELECT count(*) FROM files WHERE repo = 'go-git' AND path = 'extra.rs'"
                         ).fetchall() == [(0,)]
            commit = c.sql("SELECT commit FROM repos WHERE repo = 'go-git'").fetchall()[0][0]
            assert len(commit) == 40
        # sources of archives are kept: views that read text work
        with c.repo("rustlib-1.0") as wb:
            path = wb.sql("SELECT path FROM files WHERE language = 'rust' ORDER BY path LIMIT 1").fetchall()[0][0]
            resp = wb.tool("read_region", path=path, start_line=1, end_line=5)
            assert not resp.error and resp.text.strip()


def test_a_rerun_skips_unchanged_inputs_and_redoes_changed_ones(inputs, tmp_path):
    work = tmp_path / "in"
    shutil.copytree(SAMPLES / "pyshop", work / "pyshop")
    shutil.copy(inputs / "rustlib-1.0.tar.gz", work / "rustlib-1.0.tar.gz")
    args = [str(work / "pyshop"), str(work / "rustlib-1.0.tar.gz")]
    out = tmp_path / "corpus"
    first = index_corpus(args, out, jobs=1, progress=False)
    assert sorted(first.indexed) == ["pyshop", "rustlib-1.0"]
    stamp = {n: json.loads((out / n / "manifest.json").read_text())["exported_at"] for n in first.indexed}
    again = index_corpus(args, out, jobs=1, progress=False)
    assert sorted(again.skipped) == ["pyshop", "rustlib-1.0"] and again.indexed == []
    # a touched archive and an edited folder are indexed again, each on its own
    time.sleep(1.1)
    os.utime(work / "rustlib-1.0.tar.gz")
    third = index_corpus(args, out, jobs=1, progress=False)
    assert third.indexed == ["rustlib-1.0"] and third.skipped == ["pyshop"]
    (work / "pyshop" / "shop" / "extra.py").write_text("def added():\n    return 1\n")
    fourth = index_corpus(args, out, jobs=1, progress=False)
    assert fourth.indexed == ["pyshop"] and fourth.skipped == ["rustlib-1.0"]
    with open_corpus(out) as c:
        assert c.sql("SELECT qualname FROM symbols WHERE repo = 'pyshop' AND name = 'added'"
                     ).fetchall() == [("shop.extra.added",)]
    assert json.loads((out / "pyshop" / "manifest.json").read_text())["exported_at"] >= stamp["pyshop"]
    # --force redoes everything; --prune drops what the inputs no longer name
    assert sorted(index_corpus(args, out, jobs=1, progress=False, force=True).indexed) == ["pyshop", "rustlib-1.0"]
    fifth = index_corpus(args[:1], out, jobs=1, progress=False)
    assert fifth.not_in_list == ["rustlib-1.0"] and (out / "rustlib-1.0").exists()
    sixth = index_corpus(args[:1], out, jobs=1, progress=False, prune=True)
    assert sixth.pruned == ["rustlib-1.0"] and not (out / "rustlib-1.0").exists()


def test_a_failed_repository_is_tried_again_and_replaces_nothing_else(tmp_path):
    out = tmp_path / "corpus"
    missing = tmp_path / "later"
    r = index_corpus([str(SAMPLES / "tsapp"), str(missing)], out, jobs=1, progress=False)
    assert r.indexed == ["tsapp"] and list(r.failed) == ["later"]
    shutil.copytree(SAMPLES / "rustlib", missing)
    r = index_corpus([str(SAMPLES / "tsapp"), str(missing)], out, jobs=1, progress=False)
    assert r.indexed == ["later"] and r.skipped == ["tsapp"]
    with open_corpus(out) as c:
        assert c.sql("SELECT repo, status FROM repos ORDER BY repo").fetchall() == [("later", "ok"), ("tsapp", "ok")]


def test_dask_engine_on_a_local_cluster_gives_the_rows_of_the_local_engine(inputs, built, tmp_path):
    pytest.importorskip("distributed")
    out_local, _ = built
    out = tmp_path / "dask"
    args = [str(SAMPLES / "pyshop"), str(inputs / "rustlib-1.0.tar.gz"), str(inputs / "broken.tar.gz")]
    r = index_corpus(args, out, engine="dask", jobs=2, progress=False, dashboard=False)
    assert sorted(r.indexed) == ["pyshop", "rustlib-1.0"] and list(r.failed) == ["broken"]
    assert len({x.worker for x in r.repos if x.worker}) >= 1
    assert all(x.cpu_seconds > 0 and x.peak_rss_mb > 0 for x in r.repos if x.status == "indexed")
    with open_corpus(out) as d, open_corpus(out_local) as loc:
        for table in schema.TABLES:
            drop = ("value",) if table == "meta" else ()        # root and indexed_at differ
            for name in ("pyshop", "rustlib-1.0"):
                a = _table_rows(d.con, table, "WHERE repo = ?", [name], drop)
                b = _table_rows(loc.con, table, "WHERE repo = ?", [name], drop)
                assert a == b, (table, name)
                assert a or table not in ("files", "symbols", "edges"), (table, name)


def _big_file_repo(root: Path) -> Path:
    """A repository whose one file is larger than what is parsed in the indexing process."""
    from workbench.indexer import IN_PROCESS_MAX_BYTES
    body = "".join(f"def f{i}(x):\n    return g{i}(x) + {i}\n\n\n" for i in range(12_000))
    assert len(body) > IN_PROCESS_MAX_BYTES
    (root / "pkg").mkdir(parents=True)
    (root / "pkg" / "big.py").write_text(body)
    return root


def test_dask_workers_index_a_repository_with_a_large_file(tmp_path):
    # a large file is parsed in its own memory-capped process; Dask's workers used to be
    # daemons, which may not start one ("daemonic processes are not allowed to have children")
    pytest.importorskip("distributed")
    repo = _big_file_repo(tmp_path / "bigrepo")
    r = index_corpus([str(repo)], tmp_path / "out", engine="dask", jobs=1, progress=False,
                     dashboard=False)
    assert r.indexed == ["bigrepo"] and not r.failed, r.failed
    with open_corpus(tmp_path / "out") as c:
        assert c.sql("SELECT count(*) FROM symbols WHERE path = 'pkg/big.py'").fetchall() == [(12_001,)]


def _index_in_daemon(root, db):
    from workbench.indexer import index
    index(root, db, jobs=2, progress=False)


def test_a_daemonic_process_indexes_large_files_itself(tmp_path):
    import multiprocessing
    repo = _big_file_repo(tmp_path / "bigrepo")
    db = tmp_path / "big.duckdb"
    p = multiprocessing.get_context("spawn").Process(target=_index_in_daemon, args=(str(repo), str(db)),
                                                     daemon=True)
    p.start()
    p.join(120)
    assert p.exitcode == 0
    con = duckdb.connect(str(db), read_only=True)
    try:
        assert con.execute("SELECT status, count(*) FROM files JOIN symbols USING (path) "
                           "GROUP BY status").fetchall() == [("ok", 12_001)]
    finally:
        con.close()


def test_corpus_index_cli(tmp_path, inputs, capsys):
    out = tmp_path / "corpus"
    rc = main(["corpus", "index", str(SAMPLES / "tsapp"), str(inputs / "broken.tar.gz"),
               "--out", str(out), "--jobs", "1", "-q"])
    text = capsys.readouterr().out
    assert rc == 1                                  # a repository failed: said, and the rest done
    assert "1 indexed" in text and "failed broken: broken tar archive" in text
    assert main(["corpus", "index", str(SAMPLES / "tsapp"), "--out", str(out), "--jobs", "1", "-q"]) == 0
    assert "1 unchanged" in capsys.readouterr().out
    assert main(["corpus", "index", str(SAMPLES / "tsapp"), "--out", str(out), "--scheduler", "tcp://x:1"]) == 2
    assert "(--scheduler) needs the dask engine (--engine dask)" in capsys.readouterr().err
    with pytest.raises(engines.EngineError, match="unknown engine 'spark'"):
        index_corpus([str(SAMPLES / "tsapp")], tmp_path / "other", engine="spark")
    assert not (tmp_path / "other").exists()        # refused before anything was written
    assert main(["corpus", "index", str(SAMPLES / "tsapp"), str(SAMPLES / "tsapp"), "--out", str(out)]) == 2
    assert "two repositories named 'tsapp'" in capsys.readouterr().err


# ---------------------------------------------------------------- inputs

def test_list_files(tmp_path):
    (tmp_path / "sub").mkdir()
    lst = tmp_path / "sub" / "repos.txt"
    lst.write_text("# comment\n\n../a\n'with space/b.tar.gz' name=bee\n/abs/c rev=v1.2  # trailing\n")
    got = read_list(str(lst))
    assert [(i.name, i.kind, i.path, i.rev) for i in got] == [
        ("a", "dir", str(tmp_path / "a"), None),
        ("bee", "archive", str(tmp_path / "sub" / "with space" / "b.tar.gz"), None),
        ("c@v1.2", "git", "/abs/c", "v1.2")]
    lst.write_text("x wat=1\n")
    with pytest.raises(ListError, match=r"repos.txt:1: expected PATH \[rev=REV\]"):
        read_list(str(lst))
    lst.write_text("x name=../evil\n")
    with pytest.raises(ListError, match="bad repository name"):
        read_list(str(lst))
    with pytest.raises(ListError, match="two repositories named 'x'"):
        parse_inputs([str(tmp_path / "x"), str(tmp_path / "y" / "x")])


def _hostile_tar(path: Path, member: str, kind: str = "file", target: str = "") -> Path:
    with tarfile.open(path, "w:gz") as tf:
        ok = tarfile.TarInfo("pkg/ok.py")
        data = b"def fine():\n    return 1\n"
        ok.size = len(data)
        tf.addfile(ok, io.BytesIO(data))
        info = tarfile.TarInfo(member)
        if kind == "file":
            payload = b"x = 1\n"
            info.size = len(payload)
            tf.addfile(info, io.BytesIO(payload))
        else:
            info.type = tarfile.SYMTYPE if kind == "symlink" else tarfile.LNKTYPE
            info.linkname = target
            tf.addfile(info)
    return path


def test_hostile_archives_never_write_outside_and_are_recorded(tmp_path):
    src = tmp_path / "archives"
    src.mkdir()
    escape = [_hostile_tar(src / "dotdot.tar.gz", "../../escaped.py"),
              _hostile_tar(src / "absolute.tar.gz", "/tmp/escaped-absolute.py")]
    zpath = src / "zipdotdot.zip"
    with zipfile.ZipFile(zpath, "w") as zf:
        zf.writestr("pkg/ok.py", "def fine():\n    return 1\n")
        zf.writestr("../../escaped.py", "x = 1\n")
    escape.append(zpath)
    links = [_hostile_tar(src / "symlink.tar.gz", "pkg/passwd", "symlink", "/etc/passwd"),
             _hostile_tar(src / "uplink.tar.gz", "pkg/up", "symlink", "../../.."),
             _hostile_tar(src / "hardlink.tar.gz", "pkg/hard", "hardlink", "../../outside")]
    out = tmp_path / "deep" / "corpus"
    r = index_corpus([str(p) for p in escape + links], out, jobs=1, progress=False)
    for p in escape:
        name = p.name.split(".")[0]
        assert "leaves the extraction folder" in r.failed[name], r.failed
    assert sorted(r.indexed) == ["hardlink", "symlink", "uplink"]
    assert not (tmp_path / "escaped.py").exists() and not (tmp_path / "deep" / "escaped.py").exists()
    assert not Path("/tmp/escaped-absolute.py").exists()
    with open_corpus(out) as c:
        warn = dict(c.sql("SELECT repo, warnings FROM repos WHERE status = 'ok'").fetchall())
        assert all(any("left out link" in w for w in ws) for ws in warn.values()), warn
        # one top folder (pkg/): the repository is rooted there
        assert c.sql("SELECT DISTINCT path FROM files ORDER BY 1").fetchall() == [("ok.py",)]
    for name in ("symlink", "uplink", "hardlink"):
        assert [p.name for p in (out / name / "src").iterdir()] == ["ok.py"]


# ---------------------------------------------------------------- per-repository work

def _symbols_or_fail(wb, fail_on):
    if wb.repo == fail_on:
        raise ValueError(f"no thanks, {wb.repo}")
    return wb.sql("SELECT count(*) FROM symbols").fetchall()[0][0]


def test_map_runs_per_repository_and_records_failures(exported):
    folder, dbs = exported
    with open_corpus(folder) as c:
        res = c.map(_symbols_or_fail, "tsapp", jobs=2, progress=False)
        assert list(res) == ["goservice", "pyshop"]
        assert res.errors == {"tsapp": "ValueError: no thanks, tsapp"}
        for name, n in res.items():
            assert n == c.sql("SELECT count(*) FROM symbols WHERE repo = ?", params=[name]).fetchall()[0][0]
        with pytest.raises(engines.EngineError, match="cannot be sent to worker processes"):
            c.map(lambda wb: 1, jobs=2, progress=False)
        assert c.map(lambda wb: wb.repo, jobs=1, progress=False) == {n: n for n in sorted(SOME)}


def test_eval_over_a_corpus_is_each_repositorys_eval(exported):
    folder, dbs = exported
    strategies = ["whole_file", "outline_region", "resolve"]
    with open_corpus(folder) as c:
        rel = c.evaluate(strategies, jobs=2, progress=False)
        per_repo = dict(c.sql("SELECT repo, count(*) FROM eval_results GROUP BY repo").fetchall())
        assert set(per_repo) == set(SOME)
        cols = [d[0] for d in rel.description][1:]
        for name in SOME:
            with workbench.open(dbs[name], read_only=True) as wb:
                rows, _ = task_sets.from_symbols(wb.con, kinds=["function", "method"], task_set="functions")
                want = ev.evaluate(wb, rows, strategies).results.to_pylist()
            assert len(want) == 3 * len(rows) > 0
            got = c.sql(f"SELECT {', '.join(cols)} FROM eval_results WHERE repo = ? "
                        "ORDER BY task_id, strategy", params=[name]).fetchall()
            want = sorted((tuple(r[k] for k in cols) for r in want),
                          key=lambda t: (t[cols.index("task_id")], t[cols.index("strategy")]))
            assert got == want, name
        by_repo = ev.distribution(c.con, "eval_results", by=("repo",)).fetchall()
        assert {r[0] for r in by_repo} == set(SOME)


def _die_on(item):
    if item == "die":
        os._exit(3)
    return item * 2


def test_a_worker_that_dies_takes_only_its_own_task(tmp_path):
    outs = {o.index: o for o in engines.run(_die_on, ["a", "die", "b", "c"], jobs=2)}
    assert outs[1].error and "WorkerDied" in outs[1].error
    assert [outs[i].value for i in (0, 2, 3)] == ["aa", "bb", "cc"]


def test_corpus_rejects_mixed_schema_versions_and_duplicate_names(tmp_path, exported):
    _, dbs = exported
    export(dbs["pyshop"], tmp_path / "c" / "one")
    export(dbs["pyshop"], tmp_path / "c" / "two")          # both say repo "pyshop"
    with pytest.raises(LayoutError, match="two exports of repository 'pyshop'"):
        Corpus(tmp_path / "c")
    shutil.rmtree(tmp_path / "c" / "two")
    m = json.loads((tmp_path / "c" / "one" / "manifest.json").read_text())
    m["schema_version"] = 99
    (tmp_path / "c" / "one" / "manifest.json").write_text(json.dumps(m))
    with pytest.raises(LayoutError, match="schema version 99"):
        open_corpus(tmp_path / "c")


def test_a_corpus_folder_inside_its_input_is_left_out_of_it(tmp_path):
    repo = tmp_path / "proj"
    shutil.copytree(SAMPLES / "pyshop", repo)
    out = repo / "corpus"
    assert index_corpus([str(repo)], out, jobs=1, progress=False).indexed == ["proj"]
    assert index_corpus([str(repo)], out, jobs=1, progress=False).skipped == ["proj"]
    with open_corpus(out) as c:
        assert c.sql("SELECT count(*) FROM files WHERE path LIKE 'corpus/%'").fetchall() == [(0,)]
        assert c.sql("SELECT count(*) FROM files").fetchall()[0][0] > 10


def test_without_sources_views_say_the_file_is_unreadable_and_one_run_at_a_time(inputs, tmp_path):
    from workbench.corpus import CorpusBusy
    from workbench.corpus.build import _Lock
    out = tmp_path / "corpus"
    r = index_corpus([str(inputs / "rustlib-1.0.tar.gz")], out, jobs=1, progress=False,
                     keep_sources=False)
    assert r.indexed == ["rustlib-1.0"] and not (out / "rustlib-1.0" / "src").exists()
    with open_corpus(out) as c:
        assert c.sql("SELECT has_source FROM repos").fetchall() == [(False,)]
        with c.repo("rustlib-1.0") as wb:
            path = wb.sql("SELECT path FROM files WHERE language = 'rust' LIMIT 1").fetchall()[0][0]
            assert wb.outline(path).tokens > 0                  # from the tables alone
            resp = wb.tool("read_region", path=path, start_line=1, end_line=3)
            assert resp.error
    with _Lock(out):
        with pytest.raises(CorpusBusy, match="another run is writing"):
            index_corpus([str(inputs / "rustlib-1.0.tar.gz")], out, jobs=1, progress=False)
