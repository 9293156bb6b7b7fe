"""Run the bundled notebooks headless (nbclient), with parameters, and time them.

    python -m workbench.notebooks                       # every notebook, default parameters
    python -m workbench.notebooks 01_outline_lab --repo sample_repos/tsapp --out executed/

Each notebook has one code cell tagged ``parameters`` (the papermill convention). Parameters
given here are injected as a new cell right after it, so the notebook's own defaults stay
readable and papermill users get the same behaviour.
"""
from __future__ import annotations

import argparse
import os
import sys
import time
from dataclasses import dataclass
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
# Notebooks whose lessons are written for the standard library: --repo does not apply to them.
STDLIB_NOTEBOOKS = {"05_context_engineering"}
NOTEBOOKS = REPO / "notebooks"
SAMPLES = REPO / "sample_repos"


def sample_repo(name: str = "pyshop") -> str:
    """Absolute path of a bundled sample repository (``sample_repos/<name>``)."""
    return str(SAMPLES / name)


def stdlib_root() -> str:
    """The standard library of the running interpreter (real code at scale, always present)."""
    import sysconfig
    return sysconfig.get_paths()["stdlib"]


def stdlib_sample(paths, dest: str | None = None) -> str:
    """A copy of some standard-library files (paths relative to the stdlib root, files or
    package folders): the same real code, indexed in a second. ``dest`` defaults to a folder
    in the user cache named after the selection, so its index is cached like any other."""
    import hashlib
    import shutil
    root = stdlib_root()
    if dest is None:
        key = hashlib.sha256("\n".join([root, *paths]).encode()).hexdigest()[:10]
        dest = os.path.join(os.path.dirname(cache_db(root)), f"stdlib-sample-{key}")
    for rel in paths:
        src = os.path.join(root, rel)
        dst = os.path.join(dest, rel)
        os.makedirs(os.path.dirname(dst), exist_ok=True)
        if os.path.isdir(src):
            shutil.copytree(src, dst, dirs_exist_ok=True,
                            ignore=shutil.ignore_patterns("__pycache__", "test", "tests"))
        else:
            shutil.copy2(src, dst)
    return dest


#: A small, scripted history for the bundled pyshop sample: (file, old text, new text).
#: Kinds of change: a body edited, a nested function edited, a method added, a function
#: deleted, a file added, a function only reformatted, a comment and a docstring edited
#: (the last three are not changes of code).
DEMO_EDITS = [
    ("shop/pricing.py", "def clamp_rate(rate):\n    return max(",
     "def clamp_rate(rate):\n    if rate is None:\n        return 0.0\n    return max("),
    ("shop/pricing.py", "            if value >= threshold:", "            if value > threshold:"),
    ("shop/pricing.py", "def round_price(amount):\n    return round(amount, PRICE_DIGITS)",
     "def round_price(amount):\n    return round(\n        amount,\n        PRICE_DIGITS,\n    )"),
    ("shop/orders.py", "    def _log(self, message):\n        _audit_log.append(message)\n",
     "    def _log(self, message):\n        _audit_log.append(message)\n\n"
     "    def is_empty(self):\n        return not self.items\n"),
    ("shop/orders.py", "def cancel_order(order):\n    order.transition(\"cancelled\")",
     "def cancel_order(order, reason=\"\"):\n    order.transition(\"cancelled\")\n    order._log(reason)"),
    ("shop/orders.py", "\n\ndef audit_trail():\n    return list(_audit_log)\n", "\n"),
    ("shop/orders.py", "def _on_shipped(order):\n", "def _on_shipped(order):\n    # shipping needs a paid order\n"),
    ("shop/orders.py", "    \"\"\"Place an order: reserve", "    \"\"\"Place one order: reserve"),
    ("shop/returns.py", None, "\"\"\"Returned goods.\"\"\"\n\n\ndef accept_return(order, items):\n"
     "    return [i for i in items if i in order.items]\n"),
]


def demo_history(dest: str | None = None) -> tuple[str, str, str]:
    """A git repository with two tagged revisions, `v1` (a copy of the bundled pyshop sample)
    and `v2` (DEMO_EDITS applied): (path, "v1", "v2"). Built once in the user cache (or
    `dest`) and reused. Needs the `git` command."""
    import shutil
    import subprocess
    src = sample_repo("pyshop")
    dest = dest or os.path.join(os.path.dirname(cache_db(src)), "demo-history-pyshop")
    env = {**os.environ, "GIT_AUTHOR_NAME": "workbench", "GIT_AUTHOR_EMAIL": "workbench@example.org",
           "GIT_COMMITTER_NAME": "workbench", "GIT_COMMITTER_EMAIL": "workbench@example.org"}

    def git(*args):
        subprocess.run(["git", "-C", dest, *args], check=True, capture_output=True, env=env)
    if os.path.isdir(os.path.join(dest, ".git")):
        r = subprocess.run(["git", "-C", dest, "rev-parse", "--verify", "--quiet", "v2"], capture_output=True)
        if r.returncode == 0:
            return dest, "v1", "v2"
        shutil.rmtree(dest)
    shutil.copytree(src, dest, ignore=shutil.ignore_patterns("*.duckdb", "*.wal", "*.model", "*.model.log", "__pycache__"))
    git("init", "-q")
    git("add", "-A")
    git("commit", "-q", "-m", "v1")
    git("tag", "v1")
    for rel, old, new in DEMO_EDITS:
        path = os.path.join(dest, rel)
        if old is None:
            with open(path, "w", encoding="utf-8") as fh:
                fh.write(new)
            continue
        with open(path, encoding="utf-8") as fh:
            text = fh.read()
        if old not in text:
            raise ValueError(f"demo edit does not apply to {rel}: {old[:40]!r}")
        with open(path, "w", encoding="utf-8") as fh:
            fh.write(text.replace(old, new, 1))
    git("add", "-A")
    git("commit", "-q", "-m", "v2")
    git("tag", "v2")
    return dest, "v1", "v2"


def cache_db(repo) -> str:
    """The default database file for a repository: one per absolute path, in the user cache
    (`workbench.locations.default_db`)."""
    from .locations import default_db
    return default_db(repo)


_PRIVATE_DIRS: list[str] = []


def _remove_private_dirs() -> None:
    import shutil
    while _PRIVATE_DIRS:
        shutil.rmtree(_PRIVATE_DIRS.pop(), ignore_errors=True)


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except OSError:             # another user's process
        return True
    return True


def _remove_orphans(tmp: str) -> None:
    """Private databases of kernels that died without exiting cleanly (killed)."""
    import shutil
    for d in Path(tmp).glob("workbench-*-*"):
        pid = d.name.split("-")[1]
        if d.is_dir() and pid.isdigit() and int(pid) != os.getpid() and not _alive(int(pid)):
            shutil.rmtree(d, ignore_errors=True)


def private_db(name: str) -> str:
    """A database path in a new temporary folder, removed when the process (the kernel)
    exits; folders left by killed kernels are removed the next time one is made."""
    import atexit
    import tempfile
    tmp = tempfile.gettempdir()
    _remove_orphans(tmp)
    if not _PRIVATE_DIRS:
        atexit.register(_remove_private_dirs)
    folder = tempfile.mkdtemp(prefix=f"workbench-{os.getpid()}-", dir=tmp)
    _PRIVATE_DIRS.append(folder)
    return os.path.join(folder, os.path.basename(name))


def open_repo(repo, db: str | None = None, **kw):
    """Index ``repo`` (incrementally) and open it: what every notebook's first cell does.

    ``db=None`` uses :func:`cache_db`. Kernels share that file: the workbench opens it
    read-only, so another kernel's index run writes a snapshot and swaps it in (this one
    sees it on its next query). When another process holds the file open for writing and
    does not let go within ``wait`` seconds (default 60), this kernel indexes into a
    private temporary database instead of failing; that database is removed when the
    kernel exits. The index runs behind a labelled progress bar (tqdm; ``progress=False``
    for none).
    """
    from .api import index
    from .snapshot import IndexBusy
    kw.setdefault("progress", True)
    kw.setdefault("wait", 60)
    db = db or cache_db(repo)
    os.makedirs(os.path.dirname(os.path.abspath(db)), exist_ok=True)
    try:
        return index(repo, db=db, **kw)
    except IndexBusy:
        return index(repo, db=private_db(db), **kw)


def show_missing_as_empty() -> None:
    """In this kernel, show missing values (None, NaN) in pandas tables as empty cells
    instead of `None`/`NaN` (an IPython display formatter; the data is not changed)."""
    try:
        from IPython import get_ipython
    except ImportError:  # pragma: no cover
        return
    ip = get_ipython()
    if ip is None:
        return
    import pandas as pd

    def as_html(df):
        return df.to_html(na_rep="", notebook=True, max_rows=pd.get_option("display.max_rows"),
                          max_cols=pd.get_option("display.max_columns"), show_dimensions=len(df) > 60,
                          float_format=None)

    def as_text(df, p, cycle):
        p.text(df.to_string(na_rep="", max_rows=pd.get_option("display.max_rows"),
                            max_cols=pd.get_option("display.max_columns")))

    ip.display_formatter.formatters["text/html"].for_type(pd.DataFrame, as_html)
    ip.display_formatter.formatters["text/plain"].for_type(pd.DataFrame, as_text)


def sql_engine(wb):
    """A SQLAlchemy engine (duckdb-engine) over the workbench's own connection, for jupysql:

        engine = sql_engine(wb)
        %sql engine --alias wb

    (duckdb-engine cannot open a second connection to a file this process already has open
    with another configuration, so the engine hands out cursors of the workbench's
    connection, ``wb.cursor()``: they follow a re-index like ``wb`` does.)
    """
    import sqlalchemy
    from duckdb_engine import ConnectionWrapper
    return sqlalchemy.create_engine("duckdb:///:memory:",
                                    creator=lambda: ConnectionWrapper(wb.cursor()))


def notebook_paths() -> list[Path]:
    """The bundled notebooks in reading order (files starting with ``_`` are not notebooks)."""
    return sorted(p for p in NOTEBOOKS.glob("[0-9]*.ipynb"))


def inject_parameters(nb, params: dict) -> None:
    """Insert ``name = value`` assignments after the cell tagged ``parameters``."""
    import nbformat
    if not params:
        return
    src = "# Injected parameters\n" + "\n".join(f"{k} = {v!r}" for k, v in params.items())
    cell = nbformat.v4.new_code_cell(src, metadata={"tags": ["injected-parameters"]})
    for i, c in enumerate(nb.cells):
        if "parameters" in c.get("metadata", {}).get("tags", []):
            nb.cells.insert(i + 1, cell)
            return
    nb.cells.insert(0, cell)


@dataclass
class RunResult:
    path: Path
    seconds: float
    nb: object
    error: str | None = None         # why the run stopped (None: every cell ran)

    @property
    def ok(self) -> bool:
        return self.error is None

    def __str__(self) -> str:
        return f"{self.path.name}: {self.seconds:.1f}s" + ("" if self.ok else f"  FAILED: {self.error}")


def _error_summary(exc: BaseException) -> str:
    """One line saying why a notebook stopped (the exception's last line, not the traceback)."""
    import re
    text = re.sub(r"\x1b\[[0-9;]*m", "", str(exc)).strip()      # no terminal colours
    lines = [ln for ln in text.splitlines() if ln.strip()]
    if type(exc).__name__ == "CellTimeoutError":      # its text ends in a preview of the cell
        return "CellTimeoutError: the cell did not finish in its time"
    tail = lines[-1] if lines else type(exc).__name__
    return f"{type(exc).__name__}: {tail}"[:300]


def _cell_label(index: int, cell) -> str:
    """`cell 3 (first line)`: which cell of the run stopped it (counted from 1, the injected
    parameters included, as in the executed copy)."""
    first = next((ln.strip() for ln in str(cell.get("source", "")).splitlines() if ln.strip()), "")
    return f"cell {index + 1} ({first[:60]})"


def execute(path, params: dict | None = None, *, timeout: int = 300, cwd=None,
            out=None, time_limit: float | None = None, raise_errors: bool = True) -> RunResult:
    """Execute one notebook top to bottom.

    ``timeout`` is per cell; ``time_limit`` (seconds) bounds the whole notebook (no cell
    waits past it). ``cwd`` defaults to the notebook's folder (as in JupyterLab). When
    ``out`` is a folder, the executed notebook (with outputs, as far as it ran) is written
    there. A failing cell raises the ``nbclient`` error, or with ``raise_errors=False`` is
    recorded in ``RunResult.error``.
    """
    import nbformat
    from nbclient import NotebookClient

    from .shellwait import slice_shell_waits
    path = Path(path)
    nb = nbformat.read(path, as_version=4)
    inject_parameters(nb, params or {})
    t0 = time.perf_counter()
    deadline = None if time_limit is None else t0 + time_limit

    def cell_timeout(_cell):
        if deadline is None:
            return timeout
        return max(1, int(min(timeout, deadline - time.perf_counter())))

    current = {}

    def started(cell, cell_index, **_):
        current["at"] = _cell_label(cell_index, cell)

    def kernel_ready(**_):          # replies read within a slice even when a wake-up is lost
        slice_shell_waits(client.kc)

    client = NotebookClient(nb, timeout=timeout, timeout_func=cell_timeout, kernel_name="python3",
                            startup_timeout=120, shutdown_kernel="immediate", on_cell_start=started,
                            on_notebook_start=kernel_ready,
                            resources={"metadata": {"path": str(cwd or path.parent)}})
    error = None
    try:
        client.execute()
    except Exception as exc:  # noqa: BLE001  (a cell error, a timeout, a dead kernel)
        if raise_errors:
            raise
        error = _error_summary(exc)
        if "at" in current:
            error += f" [at {current['at']}]"
        if deadline is not None and time.perf_counter() >= deadline - 1:
            error = f"over the time limit of {time_limit:g}s ({error})"
    finally:
        secs = time.perf_counter() - t0
        if out:
            Path(out).mkdir(parents=True, exist_ok=True)
            nbformat.write(nb, Path(out) / path.name)
    return RunResult(path, secs, nb, error)


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(prog="python -m workbench.notebooks", description=__doc__,
                                formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("names", nargs="*", help="notebook names (default: all), e.g. 01_outline_lab")
    p.add_argument("--repo", help="repository to study (sets REPO; not for 05, which uses the stdlib)")
    p.add_argument("--small", action="store_true", help="SMALL=True: heavy cells use a subset")
    p.add_argument("--out", help="write executed notebooks (with outputs) to this folder")
    p.add_argument("--timeout", type=int, default=600, help="seconds per cell (default 600)")
    p.add_argument("--time-limit", type=float, default=None, metavar="SECONDS",
                   help="seconds per notebook (default: no limit beyond the per-cell timeout)")
    a = p.parse_args(argv)
    paths = notebook_paths()
    if a.names:
        want = {n.removesuffix(".ipynb") for n in a.names}
        unknown = sorted(want - {q.stem for q in paths})
        if unknown:
            p.error(f"no notebook named {', '.join(unknown)}")
        paths = [q for q in paths if q.stem in want]
    params = {}
    if a.repo:
        params["REPO"] = os.path.abspath(a.repo)
    if a.small:
        params["SMALL"] = True
    results = []
    for q in paths:
        p_ = dict(params)
        if q.stem in STDLIB_NOTEBOOKS and "REPO" in p_:
            del p_["REPO"]
            print(f"{q.name}: teaches on the standard library; --repo ignored", flush=True)
        r = execute(q, p_, timeout=a.timeout, out=a.out, time_limit=a.time_limit, raise_errors=False)
        results.append(r)
        print(r, flush=True)
    failed = [r for r in results if not r.ok]
    print(f"{len(results) - len(failed)} of {len(results)} notebooks ran"
          + (f"; failed: {', '.join(r.path.stem for r in failed)}" if failed else "")
          + (f" (executed copies in {a.out})" if a.out else ""), flush=True)
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
