"""Benchmark: the call graph on the Python standard library.

Prints the share of call edges per resolution kind, `find_callers` and
`trace_call_chain(depth=3)` latency (median and p95 over a few hundred random functions
and methods), and the time to re-resolve after changing one file (targets: find_callers
median < 10 ms, depth-3 chain median < 50 ms).

    .venv/bin/python bench/graph_bench.py [--root DIR] [--samples N] [--seed S]
"""
from __future__ import annotations

import argparse
import os
import random
import shutil
import statistics
import sys
import sysconfig
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from workbench import graph, store  # noqa: E402
from workbench.indexer import index  # noqa: E402
from workbench.resolve import resolve_edges  # noqa: E402


def pct(xs: list[float], q: float) -> float:
    xs = sorted(xs)
    return xs[min(len(xs) - 1, int(round(q * (len(xs) - 1))))]


def timed(fn, *args, **kw) -> tuple[float, object]:
    t = time.perf_counter()
    out = fn(*args, **kw)
    return (time.perf_counter() - t) * 1000, out


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--root", default=sysconfig.get_paths()["stdlib"])
    ap.add_argument("--samples", type=int, default=300)
    ap.add_argument("--seed", type=int, default=7)
    ap.add_argument("--jobs", type=int, default=None)
    a = ap.parse_args(argv)
    tmp = tempfile.mkdtemp(prefix="wb-graph-bench-")
    try:
        corpus = os.path.join(tmp, "corpus")          # a copy: the one-file change stays there
        shutil.copytree(a.root, corpus, symlinks=True,
                        ignore=shutil.ignore_patterns("site-packages", "__pycache__"))
        db = os.path.join(tmp, "graph.duckdb")
        t0 = time.perf_counter()
        report = index(corpus, db, jobs=a.jobs, progress=False)
        wall = time.perf_counter() - t0
        con = store.connect(db)
        t1 = time.perf_counter()
        full = resolve_edges(con, None)
        full_s = time.perf_counter() - t1

        print(f"corpus: {a.root}")
        print(f"index (scan, parse, store, resolve): {wall:.2f} s; {report.files} files, "
              f"{report.symbols} symbols, {report.edges} edges")
        print(f"full re-resolution of every edge: {full_s:.2f} s ({full.edges} edges)")
        print()
        rows = store.run(con, """SELECT resolution, count(*) FROM edges WHERE kind = 'calls'
                                 GROUP BY 1 ORDER BY 2 DESC""")
        total = sum(n for _, n in rows)
        print(f"call edges: {total}")
        for res, n in rows:
            print(f"  {res:<12} {n:>8}  {n / total:6.1%}")
        resolved = sum(n for r, n in rows if r not in ("unresolved", "ambiguous", "name-unique"))
        print(f"  bound without guessing (not unresolved/ambiguous/name-unique): {resolved / total:.1%}")
        print()

        ids = [r[0] for r in store.run(con, """SELECT symbol_id FROM symbols
                                               WHERE kind IN ('function', 'method') ORDER BY symbol_id""")]
        rnd = random.Random(a.seed)
        sample = rnd.sample(ids, min(a.samples, len(ids)))
        graph.find_callers(con, sample[0])              # warm up
        graph.trace_call_chain(con, sample[0], depth=3)
        callers_ms, chain_ms, n_callers, n_chain = [], [], [], []
        for sid in sample:
            ms, out = timed(graph.find_callers, con, sid)
            callers_ms.append(ms)
            n_callers.append(len(out))
            ms, out = timed(graph.trace_call_chain, con, sid, depth=3)
            chain_ms.append(ms)
            n_chain.append(len(out))
        up_ms = [timed(graph.trace_call_chain, con, sid, depth=3, direction="up")[0] for sid in sample]
        print(f"latency over {len(sample)} random functions/methods (ms):")
        print(f"  find_callers            median {statistics.median(callers_ms):7.2f}  p95 {pct(callers_ms, .95):7.2f}"
              f"  (target median < 10)  mean callers {statistics.mean(n_callers):.1f}")
        print(f"  trace_call_chain(3)     median {statistics.median(chain_ms):7.2f}  p95 {pct(chain_ms, .95):7.2f}"
              f"  (target median < 50)  mean edges {statistics.mean(n_chain):.1f}")
        print(f"  trace_call_chain(3, up) median {statistics.median(up_ms):7.2f}  p95 {pct(up_ms, .95):7.2f}")
        print()

        print("re-resolve after changing one file (re-index = scan + parse + store + resolve):")
        for rel, old, new in [("colorsys.py", "def rgb_to_yiq(", "def rgb_to_yiq_renamed("),
                              ("json/decoder.py", "def py_scanstring(", "def py_scanstring_renamed("),
                              ("email/utils.py", "def formatdate(", "def formatdate_renamed(")]:
            p = Path(corpus, rel)
            p.write_text(p.read_text(encoding="utf-8").replace(old, new, 1), encoding="utf-8")
            con.close()
            t2 = time.perf_counter()
            rr = index(corpus, db, jobs=a.jobs, progress=False)
            reindex = time.perf_counter() - t2
            con = store.connect(db)
            t3 = time.perf_counter()
            st = resolve_edges(con, [rel])
            again = time.perf_counter() - t3
            stale = store.one(con, """SELECT count(*) FROM edges e LEFT JOIN symbols s ON s.symbol_id = e.dst_id
                                      WHERE e.dst_id IS NOT NULL AND s.symbol_id IS NULL""")[0]
            print(f"  {rel:<16} re-index {reindex:5.2f} s; resolution alone {again:5.2f} s over "
                  f"{st.files} affected files / {st.edges} edges; stale targets left: {stale}"
                  f" [{rr.changed} changed]")
        con.close()
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
