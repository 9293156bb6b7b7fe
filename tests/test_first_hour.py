"""A new user's first hour leaves their tree as it was: default databases live in a per-user
cache folder keyed by the repository path, a kernel's private database goes away with the
kernel, and following README (index, run the notebooks, let JupyterLab save them, run the
tests) neither writes into the repository nor fails the tests."""
from __future__ import annotations

import os
import shutil
import subprocess
import sys
import textwrap
import time
from pathlib import Path

import pytest

import workbench
from workbench.locations import cache_dir, db_for, default_db
from workbench.stats import format_stats

ROOT = Path(__file__).resolve().parent.parent
SAMPLES = ROOT / "sample_repos"


@pytest.fixture
def cache(tmp_path, monkeypatch):
    monkeypatch.delenv("WORKBENCH_CACHE_DIR", raising=False)
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "xdg"))
    return tmp_path / "xdg" / "context-workbench"


def _files(root: Path) -> set[str]:
    return {p.relative_to(root).as_posix() for p in root.rglob("*") if p.is_file()}


def test_default_database_is_in_the_user_cache_keyed_by_the_repository_path(tmp_path, cache):
    one, two = tmp_path / "a" / "pyshop", tmp_path / "b" / "pyshop"
    for d in (one, two):
        shutil.copytree(SAMPLES / "pyshop", d)
    before = _files(one)
    assert cache_dir() == str(cache)
    with workbench.index(one, progress=False, jobs=1) as wb:
        assert wb.db == default_db(one) and Path(wb.db).parent == cache
        assert Path(wb.db).name.startswith("pyshop-") and Path(wb.db).exists()
        assert f"-> {wb.db}" in str(wb.report) and wb.db in repr(wb)        # shown in reports
        assert f"database: {wb.db}" in format_stats(wb.stats())
    assert _files(one) == before                                           # nothing in the repository
    assert default_db(two) != default_db(one)                              # one per path
    assert default_db(str(one) + "/") == default_db(one)
    assert db_for(one) == default_db(one) and db_for("x.duckdb") == "x.duckdb"
    os.environ["WORKBENCH_CACHE_DIR"] = str(tmp_path / "own")
    try:
        assert Path(default_db(one)).parent == tmp_path / "own"
    finally:
        del os.environ["WORKBENCH_CACHE_DIR"]


def test_cli_index_defaults_to_the_cache_and_commands_take_the_folder(tmp_path, cache, capsys):
    from workbench.cli import main
    repo = tmp_path / "pyshop"
    shutil.copytree(SAMPLES / "pyshop", repo)
    before = _files(repo)
    assert main(["index", str(repo), "-q", "--jobs", "1"]) == 0
    assert f"-> {default_db(repo)}" in capsys.readouterr().out
    assert _files(repo) == before
    assert main(["outline", str(repo), "shop/pricing.py"]) == 0               # the folder names its index
    assert "def compute_total" in capsys.readouterr().out
    assert main(["stats", str(tmp_path)]) == 2                             # a folder not indexed yet
    assert "not indexed yet" in capsys.readouterr().err


def test_a_kernels_private_database_is_removed_when_it_exits(tmp_path, cache):
    """While another process holds the repository's database, `open_repo` indexes into a
    private temporary database; it is gone once that process (the kernel) ends."""
    repo = tmp_path / "pyshop"
    shutil.copytree(SAMPLES / "pyshop", repo)
    env = dict(os.environ, XDG_CACHE_HOME=str(tmp_path / "xdg"), TMPDIR=str(tmp_path / "tmp"))
    (tmp_path / "tmp").mkdir()
    holder = subprocess.Popen([sys.executable, "-c", textwrap.dedent(f"""
        import sys, time, duckdb, workbench
        workbench.index({str(repo)!r}, progress=False, jobs=1).close()
        con = duckdb.connect(workbench.locations.default_db({str(repo)!r}))   # holds the write lock
        print("holding", flush=True)
        time.sleep(600)                                                     # killed below
        """)], env=env, stdout=subprocess.PIPE, text=True)
    try:
        assert holder.stdout.readline().strip() == "holding"
        kernel = subprocess.run([sys.executable, "-c", textwrap.dedent(f"""
            from workbench.notebooks import open_repo
            wb = open_repo({str(repo)!r}, progress=False, jobs=1, **OPEN_KW)
            print(wb.db)
            """).replace("**OPEN_KW", OPEN_KW)], env=env, capture_output=True, text=True, timeout=300)
        assert kernel.returncode == 0, kernel.stderr
        private = Path(kernel.stdout.strip().splitlines()[-1])
        assert private != Path(default_db(repo)) and private.is_relative_to(tmp_path / "tmp")
        assert not private.exists() and not private.parent.exists()
        assert list((tmp_path / "tmp").iterdir()) == []
        # a killed kernel's folder is removed by the next kernel that makes one
        dead = subprocess.run([sys.executable, "-c", "import os; print(os.getpid())"],
                              capture_output=True, text=True).stdout.strip()
        orphan = tmp_path / "tmp" / f"workbench-{dead}-abc"
        orphan.mkdir()
        (orphan / "x.duckdb").write_bytes(b"")
        again = subprocess.run([sys.executable, "-c", textwrap.dedent(f"""
            from workbench.notebooks import open_repo
            open_repo({str(repo)!r}, progress=False, jobs=1, **OPEN_KW)
            """).replace("**OPEN_KW", OPEN_KW)], env=env, capture_output=True, text=True, timeout=300)
        assert again.returncode == 0, again.stderr
        assert not orphan.exists() and list((tmp_path / "tmp").iterdir()) == []
    finally:
        holder.kill()
        holder.wait()


OPEN_KW = "wait=5"          # a writer that does not let go within 5 s: a private database


def _checkout(dest: Path) -> Path:
    """A git checkout of the project as it is now (tracked files, current contents)."""
    tracked = subprocess.run(["git", "-C", str(ROOT), "ls-files", "-z"], capture_output=True,
                             check=True).stdout.decode().split("\0")
    for rel in filter(None, tracked):
        src = ROOT / rel
        if src.is_file():
            (dest / rel).parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(src, dest / rel)
    git = ["git", "-C", str(dest), "-c", "user.name=t", "-c", "user.email=t@example.invalid"]
    subprocess.run(git[:3] + ["init", "-q"], check=True)
    subprocess.run(git + ["add", "-A"], check=True)
    subprocess.run(git + ["commit", "-qm", "checkout"], check=True)
    return dest


@pytest.mark.slow
def test_readme_flow_leaves_the_tree_clean_and_the_tests_green(tmp_path):
    proj = _checkout(tmp_path / "proj")
    env = dict(os.environ, PYTHONPATH=str(proj), XDG_CACHE_HOME=str(tmp_path / "xdg"),
               PLOOMBER_STATS_ENABLED="false", PLOOMBER_VERSION_CHECK_DISABLED="true")
    env.pop("WORKBENCH_CACHE_DIR", None)

    def run(*args, timeout=600):
        r = subprocess.run([sys.executable, *args], cwd=proj, env=env, capture_output=True, text=True,
                           timeout=timeout)
        assert r.returncode == 0, f"{args}:\n{r.stdout[-3000:]}\n{r.stderr[-3000:]}"
        return r.stdout

    # index a repository with the defaults, read it through the folder's name
    out = run("-m", "workbench.cli", "index", "sample_repos/pyshop", "-q", "--jobs", "1")
    assert str(tmp_path / "xdg" / "context-workbench") in out
    run("-m", "workbench.cli", "outline", "sample_repos/pyshop", "shop/orders.py")
    # run a notebook headless, then do what JupyterLab's autosave does: write the executed
    # notebook (outputs, execution counts, metadata) over the tracked one, and a checkpoint
    run("-m", "workbench.notebooks", "00_tour", "--out", str(tmp_path / "executed"))
    executed = (tmp_path / "executed" / "00_tour.ipynb").read_text(encoding="utf-8")
    assert '"execution_count": 1' in executed
    (proj / "notebooks" / "00_tour.ipynb").write_text(executed, encoding="utf-8")
    (proj / "notebooks" / ".ipynb_checkpoints").mkdir()
    (proj / "notebooks" / ".ipynb_checkpoints" / "00_tour-checkpoint.ipynb").write_text(executed)
    # the notebook tests compare sources, not outputs: still green
    run("-m", "pytest", "-q", "-p", "no:cacheprovider", "tests/test_notebooks.py",
        "-k", "committed or built or source_is_python")
    status = subprocess.run(["git", "-C", str(proj), "status", "--porcelain", "--untracked-files=all"],
                            capture_output=True, text=True, check=True).stdout.splitlines()
    assert status == [" M notebooks/00_tour.ipynb"]            # only the notebook the user ran
    leftovers = [p for p in proj.rglob("*") if p.suffix in (".duckdb", ".wal") or "workbench-" in p.name]
    assert leftovers == []                                     # no database, even an ignored one
