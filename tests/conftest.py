"""Shared fixtures: the sample repositories, a copy helper, and the stdlib index."""
from __future__ import annotations

import os
import shutil
import sys
import sysconfig
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
SAMPLES = ROOT / "sample_repos"
sys.path.insert(0, str(Path(__file__).resolve().parent))


@pytest.fixture(scope="session", autouse=True)
def own_cache_dir(tmp_path_factory):
    """Default databases of the test session go to a folder of its own, never into the
    user's cache (`workbench.locations`; kernels started by the tests inherit it)."""
    old = os.environ.get("WORKBENCH_CACHE_DIR")
    os.environ["WORKBENCH_CACHE_DIR"] = str(tmp_path_factory.mktemp("cache"))
    yield os.environ["WORKBENCH_CACHE_DIR"]
    if old is None:
        os.environ.pop("WORKBENCH_CACHE_DIR", None)
    else:
        os.environ["WORKBENCH_CACHE_DIR"] = old


@pytest.fixture
def sample_copy(tmp_path):
    """Copy a sample repository to tmp_path (tests may edit it) and return its path."""
    def make(name: str) -> Path:
        dst = tmp_path / name
        shutil.copytree(SAMPLES / name, dst)
        return dst
    return make


@pytest.fixture(scope="session")
def stdlib_db(tmp_path_factory):
    """The Python standard library indexed once per test session."""
    from workbench.indexer import index
    db = str(tmp_path_factory.mktemp("stdlib") / "stdlib.duckdb")
    index(sysconfig.get_paths()["stdlib"], db, progress=False)
    return db


@pytest.fixture(scope="session")
def sample_dbs(tmp_path_factory):
    """Every sample repository (views_helpers.REPOS) indexed once per session: {name: db path}.
    Defined here, not in a helper module the tests import from: a fixture imported into
    several test modules is a fixture of each, built once per module."""
    from views_helpers import REPOS
    from workbench.indexer import index
    out = {}
    base = tmp_path_factory.mktemp("views_samples")
    for name in REPOS:
        db = str(base / f"{name}.duckdb")
        index(SAMPLES / name, db, progress=False, jobs=1)
        out[name] = db
    return out


@pytest.fixture(scope="session")
def wbs(sample_dbs):
    """Read-only workbenches of the sample repositories (never written: shared by the session)."""
    import workbench
    opened = {name: workbench.open(db, read_only=True) for name, db in sample_dbs.items()}
    yield opened
    for wb in opened.values():
        wb.close()


def write(root: Path, rel: str, text: str | bytes) -> Path:
    p = root / rel
    p.parent.mkdir(parents=True, exist_ok=True)
    if isinstance(text, bytes):
        p.write_bytes(text)
    else:
        p.write_text(text, encoding="utf-8")
    return p


RICH_VERSION = "15.0.0"     # a real library of 100 Python files, fetched at run time


@pytest.fixture(scope="session")
def rich_repo(tmp_path_factory):
    """The source of the `rich` library (its sdist from the package index, unpacked):
    real code at the size of a typical project. Skipped when the index cannot be reached."""
    import subprocess
    import tarfile
    dest = tmp_path_factory.mktemp("rich")
    r = subprocess.run([sys.executable, "-m", "pip", "download", f"rich=={RICH_VERSION}", "--no-deps",
                        "--no-binary", ":all:", "-q", "-d", str(dest)], capture_output=True, text=True)
    sdist = next(dest.glob("rich-*.tar.gz"), None)
    if r.returncode != 0 or sdist is None:
        if os.environ.get("CI"):
            raise RuntimeError(f"pip download rich failed: {r.stderr[-2000:]}")
        pytest.skip("cannot download the rich sdist: " + (r.stderr.strip().splitlines() or ["?"])[-1])
    with tarfile.open(sdist) as tar:
        tar.extractall(dest, filter="data")
    return dest / f"rich-{RICH_VERSION}"
