"""Concurrency: readers (notebooks, servers, CLI calls) and index runs of several processes
on one database. Readers never fail and pick up the new state; a second writer waits and
says so; a writer that does not let go makes an index run give up with one sentence;
``kill -9`` at any moment leaves the state before or after the run, never a broken one."""
from __future__ import annotations

import os
import shutil
import signal
import subprocess
import sys
import textwrap
import time
from pathlib import Path

import duckdb
import pytest

import workbench
from conftest import SAMPLES, write
from workbench.indexer import index

pytestmark = pytest.mark.skipif(sys.platform == "win32", reason="POSIX locks and signals")
ROOT = Path(__file__).resolve().parent.parent


def _py(code: str, *args: str, **kw) -> subprocess.Popen:
    return subprocess.Popen([sys.executable, "-c", textwrap.dedent(code), *args], cwd=ROOT,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, **kw)


def _cli(*args: str, **kw) -> subprocess.Popen:
    return subprocess.Popen([sys.executable, "-m", "workbench.cli", *args], cwd=ROOT,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, **kw)


def _wait_for_line(proc: subprocess.Popen, text: str, timeout: float = 60) -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        line = proc.stdout.readline()
        if text in line:
            return
        if not line and proc.poll() is not None:
            raise AssertionError(f"helper exited: {proc.stderr.read()}")
    raise AssertionError(f"helper never printed {text!r}")


def _content(db: str) -> dict:
    """What an index holds, extraction-level (no cross-file resolution)."""
    con = duckdb.connect(db, read_only=True)
    try:
        return {"files": con.execute("SELECT path, sha256, status FROM files ORDER BY path").fetchall(),
                "symbols": con.execute("SELECT path, qualname, start_line, end_line FROM symbols "
                                       "ORDER BY ALL").fetchall(),
                "root": con.execute("SELECT value FROM meta WHERE key = 'root'").fetchall()}
    finally:
        con.close()


@pytest.fixture
def shop(tmp_path):
    root = tmp_path / "pyshop"
    shutil.copytree(SAMPLES / "pyshop", root)
    db = str(tmp_path / "shop.duckdb")
    index(root, db, jobs=1, progress=False)
    return root, db


HOLD = """
    import sys, time, workbench
    db, mode = sys.argv[1], sys.argv[2]
    wb = workbench.open(db, read_only=(mode != "rw"))
    n0 = wb.sql("SELECT count(*) FROM symbols").fetchall()[0][0]
    print("open", n0, flush=True)
    for _ in range(600 if mode == "watch" else 0):   # answer while another process indexes
        n = wb.sql("SELECT count(*) FROM symbols").fetchall()[0][0]
        if n != n0:
            print("sees", n, wb.tool("read_outline", path="shop/added.py").text.splitlines()[0],
                  flush=True)
            break
        time.sleep(0.05)
    sys.stdin.read()                        # hold the database until told to go
"""


def test_an_open_reader_keeps_reading_and_picks_up_a_new_index(shop):
    root, db = shop
    reader = _py(HOLD, db, "watch", stdin=subprocess.PIPE)
    try:
        _wait_for_line(reader, "open")
        write(root, "shop/added.py", "def added():\n    return 1\n")
        run = subprocess.run([sys.executable, "-m", "workbench.cli", "index", str(root), "--db",
                              db, "-q"], cwd=ROOT, capture_output=True, text=True, timeout=300)
        assert run.returncode == 0, run.stderr
        assert "Traceback" not in run.stderr
        _wait_for_line(reader, "sees")
    finally:
        reader.communicate("", timeout=60)
    assert reader.returncode == 0, reader.stderr


def test_readers_polling_during_index_runs_never_fail(shop, tmp_path):
    root, db = shop
    poller = _py("""
        import sys, time, workbench
        db, stop = sys.argv[1], sys.argv[2]
        ok = failed = 0
        seen = set()
        import os
        while not os.path.exists(stop):
            try:
                with workbench.open(db, read_only=True) as wb:
                    seen.add(wb.sql("SELECT count(*) FROM files").fetchall()[0][0])
                    wb.tool("list_files")
                ok += 1
                if ok == 1:
                    print("ready", flush=True)
            except Exception as exc:
                failed += 1
                print("FAILED", type(exc).__name__, str(exc).splitlines()[0], flush=True)
        print("done", ok, failed, sorted(seen), flush=True)
    """, db, str(tmp_path / "stop"))
    try:
        _wait_for_line(poller, "ready")
        for k in range(6):                              # index runs while it polls
            write(root, f"shop/extra_{k}.py", f"def extra_{k}():\n    return {k}\n")
            index(root, db, jobs=1, progress=False)
            time.sleep(0.3)                             # an edit loop, not a busy loop
    finally:
        (tmp_path / "stop").touch()
        out, err = poller.communicate(timeout=120)
    last = out.strip().splitlines()[-1].split(maxsplit=3)
    assert last[0] == "done", out + err
    ok, failed, seen = int(last[1]), int(last[2]), last[3]
    assert failed == 0, out
    assert ok > 2 and seen != "[16]", out          # it read while the runs added files
    assert len(_content(db)["files"]) == 22


def test_workbench_resolve_does_not_stop_an_open_reader(shop):
    root, db = shop
    reader = _py(HOLD, db, "ro", stdin=subprocess.PIPE)
    try:
        _wait_for_line(reader, "open")
        run = subprocess.run([sys.executable, "-m", "workbench.cli", "resolve", db, "-q"],
                             cwd=ROOT, capture_output=True, text=True, timeout=300)
    finally:
        reader.communicate("", timeout=60)
    assert run.returncode == 0 and "Traceback" not in run.stderr, run.stderr
    assert reader.returncode == 0


def test_a_second_index_run_waits_for_the_first(shop):
    root, db = shop
    for k in range(40):                                 # enough work that the runs overlap
        write(root, f"gen/m{k}.py", "".join(f"def f{i}():\n    return {i}\n" for i in range(50)))
    runs = [_cli("index", str(root), "--db", db, "-q") for _ in range(2)]
    outs = [r.communicate(timeout=300) for r in runs]
    for r, (out, err) in zip(runs, outs):
        assert r.returncode == 0, err
        assert "Traceback" not in err
    fresh = str(Path(db).with_name("fresh.duckdb"))
    index(root, fresh, jobs=1, progress=False)
    assert _content(db)["files"] == _content(fresh)["files"]


def test_an_index_run_waits_for_a_writer_then_gives_up_with_one_sentence(shop):
    root, db = shop
    holder = _py(HOLD, db, "rw", stdin=subprocess.PIPE)
    try:
        _wait_for_line(holder, "open")
        run = subprocess.run([sys.executable, "-m", "workbench.cli", "index", str(root), "--db",
                              db, "-q", "--wait", "1"], cwd=ROOT, capture_output=True, text=True,
                             timeout=300)
    finally:
        holder.communicate("", timeout=60)
    assert run.returncode == 2
    lines = run.stderr.strip().splitlines()
    assert lines[0].startswith("workbench: ") and "is open for writing by process" in lines[0]
    assert lines[-1].startswith("workbench index: ") and "gave up after waiting 1 s" in lines[-1]
    assert "Traceback" not in run.stderr and len(lines) == 2


def test_a_workbench_in_this_process_follows_an_index_run(shop):
    root, db = shop
    wb = workbench.open(db)
    try:
        wb.create_function("twice", lambda x: 2 * x, ["BIGINT"], "BIGINT")
        cur = wb.cursor()
        before = wb.sql("SELECT count(*) FROM symbols").fetchall()[0][0]
        write(root, "shop/added.py", "def added():\n    return 1\n")
        report = index(root, db, jobs=1, progress=False)           # another writer, same process
        assert report.added == 1
        after = wb.sql("SELECT twice(count(*)) FROM symbols").fetchall()[0][0]
        assert after == 2 * (before + 2)                           # module + function
        assert wb.tool("resolve_symbol", name="added").text.startswith("shop.added.added")
        assert wb.cursor().execute("SELECT count(*) FROM symbols").fetchall() == [(before + 2,)]
        assert cur.execute("SELECT count(*) FROM files").fetchall()  # an old cursor still reads
        wb.reindex(progress=False)                                  # and through itself
        assert wb.sql("SELECT count(*) FROM symbols").fetchall() == [(before + 2,)]
    finally:
        wb.close()


# ---------------------------------------------------------------- kill -9

def _kill_during(args: list[str], delay: float | None, writing=None) -> int:
    """Start `workbench ARGS`, kill -9 its process group after `delay` seconds, or as soon
    as `writing()` is true (the run writes the database)."""
    proc = subprocess.Popen([sys.executable, "-m", "workbench.cli", *args], cwd=ROOT,
                            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                            start_new_session=True)
    if writing is None:
        time.sleep(delay)
    else:
        deadline = time.monotonic() + 120
        while not writing() and proc.poll() is None and time.monotonic() < deadline:
            time.sleep(0.002)
    try:
        os.killpg(proc.pid, signal.SIGKILL)             # the run and its parser processes
    except ProcessLookupError:
        pass
    return proc.wait(timeout=60)


def _stdlib_slice(dst: Path, n: int, salt: str = "", changed: int | None = None) -> None:
    """The first `n` stdlib modules; with `salt`, appended to the first `changed` of them."""
    import sysconfig
    src = Path(sysconfig.get_paths()["stdlib"])
    for k, p in enumerate(sorted(src.glob("*.py"))[:n]):
        if salt and changed is not None and k >= changed:
            continue
        write(dst, p.name, p.read_text(encoding="utf-8", errors="replace") + salt)


@pytest.mark.slow
@pytest.mark.parametrize("reader", [False, True], ids=["in-place", "snapshot"])
def test_kill_9_during_a_re_index_leaves_the_state_before_or_after(tmp_path, reader):
    root = tmp_path / "lib"
    _stdlib_slice(root, 80)
    db = str(tmp_path / "k.duckdb")
    index(root, db, progress=False)
    before = _content(db)
    # few changed files are written in place when nobody reads, many into a snapshot
    _stdlib_slice(root, 80, salt="\n\ndef _changed():\n    return 1\n", changed=80 if reader else 20)
    after_db = str(tmp_path / "after.duckdb")
    index(root, after_db, progress=False)
    after = _content(after_db)
    holder = _py(HOLD, db, "ro", stdin=subprocess.PIPE) if reader else None
    try:
        if holder:
            _wait_for_line(holder, "open")
        outcomes = []
        wal = Path(db + ".wal")

        def writing():                                 # a snapshot or the in-place WAL
            return wal.exists() or any(tmp_path.glob(".k.duckdb.snapshot-*.wal"))
        for delay in (None, 0.8, 1.6, 2.6, 3.6):
            rc = _kill_during(["index", str(root), "--db", db, "-q"], delay,
                              writing if delay is None else None)
            now = _content(db)
            assert now in (before, after), f"killed after {delay} s: a state neither before nor after"
            outcomes.append((rc, now == after))
            if now == after:                           # finished before the kill: start again
                shutil.copyfile(db, tmp_path / "done.duckdb")
                break
    finally:
        if holder:
            holder.communicate("", timeout=60)
    assert any(rc == -signal.SIGKILL for rc, _ in outcomes)
    run = index(root, db, progress=False)               # the next run finishes the work
    assert _content(db) == after and not list(tmp_path.glob(".k.duckdb.snapshot-*"))
    assert run.files == 80


@pytest.mark.slow
def test_kill_9_during_a_first_index_leaves_no_half_database(tmp_path, capsys):
    root = tmp_path / "lib"
    _stdlib_slice(root, 100)
    db = str(tmp_path / "first.duckdb")
    killed = False
    for delay in (0.8, 1.6, 2.4):
        if os.path.exists(db):
            break
        killed |= _kill_during(["index", str(root), "--db", db, "-q"], delay) == -signal.SIGKILL
        if os.path.exists(db):                         # the run finished in time: a complete index
            assert _content(db)["root"] == [(str(root),)]
        else:
            from workbench.cli import main
            assert main(["stats", db]) == 2
            err = capsys.readouterr().err.strip()
            assert len(err.splitlines()) == 1 and "no workbench database" in err
    assert killed
    index(root, db, progress=False)
    assert _content(db)["root"] == [(str(root),)]
    assert not list(tmp_path.glob(".first.duckdb.snapshot-*"))
