"""Benchmark: symbol lookups with common names on the Python standard library.

Each lookup runs in a fresh process (`find_definition` and `find_callers`, as agent tools
and as Python API calls); the bench prints its wall time and the process's peak resident
memory, three runs each. With `--baseline DIR` (another checkout of this project, e.g. an
older commit unpacked with `git archive`) the same lookups run against that code in the
same session, alternating, and the ratios are printed. A process that passes `--rss-cap`
or `--timeout` is stopped and reported as such (the lookups of older code could take
most of the machine's memory).

    .venv/bin/python bench/lookup_bench.py [--db FILE] [--baseline DIR] [--names a,b,c]

Target (default mode): every lookup < 1 s and < 500 MB peak RSS.
"""
from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import sysconfig
import tempfile
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent.parent

# One lookup in a child process: the workbench of `sys.path[0]` (this checkout or the
# baseline's). Imports and loading the tokenizer are excluded from the time (a server has
# done both before its first request); the peak RSS includes them. The lookup is the first
# query of the process, so DuckDB reads the tables from the file inside the timed part.
CHILD = r"""
import resource, sys, time
sys.path.insert(0, sys.argv[1])
import workbench
from workbench.views.tokens import get_tokenizer
get_tokenizer().count("warm up")
db, how, name = sys.argv[2:5]
wb = workbench.open(db, read_only=True)
t = time.perf_counter()
if how.startswith("tool:"):
    r = wb.tool(how[5:], symbol=name)
    size = len(r.text)
else:
    try:
        rows = getattr(wb, how)(name)
        size = len(rows)
    except LookupError as exc:          # an ambiguous name: the answer is the error
        size = len(str(exc))
secs = time.perf_counter() - t
print(f"{secs:.4f} {size} {resource.getrusage(resource.RUSAGE_SELF).ru_maxrss}")
"""

HOWS = ("tool:find_definition", "tool:find_callers", "find_definition", "find_callers")


def rss_of(pid: int) -> int:
    """Resident set size of a process in bytes (0 when it is gone)."""
    try:
        with open(f"/proc/{pid}/status") as fh:
            for line in fh:
                if line.startswith("VmRSS:"):
                    return int(line.split()[1]) * 1024
    except OSError:
        pass
    return 0


def run_one(code_dir: str, db: str, how: str, name: str, rss_cap: int, timeout: float) -> dict:
    t0 = time.perf_counter()
    p = subprocess.Popen([sys.executable, "-c", CHILD, code_dir, db, how, name],
                         stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    peak, stopped = 0, None
    while p.poll() is None:
        peak = max(peak, rss_of(p.pid))
        if peak > rss_cap:
            stopped = f"stopped at {rss_cap / 2**30:.1f} GB RSS"
        elif time.perf_counter() - t0 > timeout:
            stopped = f"stopped after {timeout:.0f} s"
        if stopped:
            p.kill()
            p.wait()
            break
        time.sleep(0.05)
    wall = time.perf_counter() - t0
    out, err = p.communicate()
    if stopped:
        return {"secs": wall, "rss": peak, "size": None, "note": stopped}
    if p.returncode != 0:
        return {"secs": wall, "rss": peak, "size": None, "note": "failed: " + err.strip().splitlines()[-1]}
    secs, size, maxrss_kb = out.strip().splitlines()[-1].split()   # DuckDB may print a progress bar first
    return {"secs": float(secs), "rss": max(peak, int(maxrss_kb) * 1024), "size": int(size), "note": ""}


def build_index(tmp: str) -> str:
    sys.path.insert(0, str(HERE))
    from workbench.indexer import index
    db = os.path.join(tmp, "stdlib.duckdb")
    t = time.perf_counter()
    index(sysconfig.get_paths()["stdlib"], db, progress=False)
    print(f"indexed the standard library in {time.perf_counter() - t:.1f} s -> {db}")
    return db


def fmt(r: dict) -> str:
    if r["note"]:
        return f"{r['secs']:7.2f} s {r['rss'] / 2**20:7.0f} MB  ({r['note']})"
    return f"{r['secs']:7.3f} s {r['rss'] / 2**20:7.0f} MB"


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--db", help="an index of the standard library (default: build one)")
    ap.add_argument("--baseline", help="another checkout of this project to compare against")
    ap.add_argument("--names", default="__init__,setUp,get")
    ap.add_argument("--hows", default=",".join(HOWS))
    ap.add_argument("--runs", type=int, default=3)
    ap.add_argument("--rss-cap", type=float, default=8.0, help="GB; a process above it is stopped")
    ap.add_argument("--timeout", type=float, default=120.0, help="seconds per lookup")
    a = ap.parse_args(argv)
    tmp = tempfile.mkdtemp(prefix="wb-lookup-bench-")
    db = a.db or build_index(tmp)
    cap = int(a.rss_cap * 2**30)
    codes = [("current", str(HERE))] + ([("baseline", a.baseline)] if a.baseline else [])
    print(f"load: {os.getloadavg()[0]:.2f} {os.getloadavg()[1]:.2f} {os.getloadavg()[2]:.2f}")
    worst = {"secs": 0.0, "rss": 0}
    for name in a.names.split(","):
        for how in a.hows.split(","):
            res = {label: [] for label, _ in codes}
            for _ in range(a.runs):
                for label, code in codes:
                    res[label].append(run_one(code, db, how, name, cap, a.timeout))
            for label, _ in codes:
                rs = res[label]
                med = sorted(rs, key=lambda r: r["secs"])[len(rs) // 2]
                peak = max(r["rss"] for r in rs)
                size = rs[0]["size"]
                print(f"{name:10} {how:22} {label:8} median {fmt(med)}  max RSS {peak / 2**20:6.0f} MB"
                      + (f"  answer {size} " if size is not None else "")
                      + ("" if len(rs) == 1 else "  runs: " + ", ".join(f"{r['secs']:.2f}" for r in rs)))
                if label == "current":
                    worst["secs"] = max(worst["secs"], max(r["secs"] for r in rs))
                    worst["rss"] = max(worst["rss"], peak)
            if a.baseline:
                cur = statistics.median(r["secs"] for r in res["current"])
                base = statistics.median(r["secs"] for r in res["baseline"])
                stopped = any(r["note"] for r in res["baseline"])
                print(f"{'':10} {'':22} baseline/current time {'>' if stopped else ''}{base / cur:.0f}x, "
                      f"peak RSS {'>' if stopped else ''}"
                      f"{max(r['rss'] for r in res['baseline']) / max(r['rss'] for r in res['current']):.1f}x")
    print(f"worst current lookup: {worst['secs']:.3f} s, {worst['rss'] / 2**20:.0f} MB peak RSS "
          f"(target < 1 s, < 500 MB)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
