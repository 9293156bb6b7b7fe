"""Benchmark: the notebook views at scale, on `rich` (fetched with `pip download`) and on
the standard library. Three runs each, with the way it was done before measured in the same
run as the baseline:

* import cycles: the path-walking recursive query notebook 04 used (stopped after
  `--stop` seconds) against `graph.import_cycles` (strongly connected components) and the
  SQL closure notebook 04 now shows;
* the call-chain figure of `Console.print` (depth 3, both directions, as the explorer draws
  it uncollapsed): arrow heads added one `add_annotation` at a time against one assignment;
* outline caps: `read_outline` of every file with `max_children=40` (ranked from the index)
  against `max_children=None` (no ranking query): what the ranking costs.

    .venv/bin/python bench/scale_bench.py [--stdlib-db FILE] [--stop 60]
"""
from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import sysconfig
import tarfile
import threading
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent))

import duckdb  # noqa: E402

import workbench  # noqa: E402
from workbench import graph  # noqa: E402

OUT = HERE / "out"
RICH = "15.0.0"

OLD_CYCLES = """
WITH RECURSIVE dep AS (
    SELECT DISTINCT path AS src, resolved_path AS dst
    FROM imports WHERE resolved_path IS NOT NULL AND resolved_path <> path
), walk(start, here, trail) AS (
    SELECT src, dst, [src, dst] FROM dep
    UNION ALL
    SELECT w.start, d.dst, list_append(w.trail, d.dst)
    FROM walk w JOIN dep d ON d.src = w.here
    WHERE NOT list_contains(w.trail[2:], d.dst) AND len(w.trail) < 8
)
SELECT count(*) FROM (SELECT DISTINCT array_to_string(trail, ' -> ') FROM walk
                      WHERE here = start AND start = list_min(trail))
"""

SCC_SQL = """
WITH RECURSIVE dep AS (
    SELECT DISTINCT path AS src, resolved_path AS dst
    FROM imports WHERE resolved_path IS NOT NULL AND resolved_path <> path
), reach(src, dst) AS (
    SELECT src, dst FROM dep
    UNION
    SELECT r.src, d.dst FROM reach r JOIN dep d ON d.src = r.dst
), component AS (
    SELECT r.src AS file, least(r.src, min(r.dst)) AS first_file
    FROM reach r JOIN reach back ON back.src = r.dst AND back.dst = r.src
    GROUP BY r.src
)
SELECT count(*) FROM (SELECT first_file FROM component GROUP BY first_file)
"""


def rich_root() -> Path:
    dest = OUT / "rich"
    root = dest / f"rich-{RICH}"
    if not root.exists():
        dest.mkdir(parents=True, exist_ok=True)
        subprocess.run([sys.executable, "-m", "pip", "download", f"rich=={RICH}", "--no-deps",
                        "--no-binary", ":all:", "-q", "-d", str(dest)], check=True)
        with tarfile.open(next(dest.glob("rich-*.tar.gz"))) as tar:
            tar.extractall(dest, filter="data")
    return root


def timed(fn, runs: int = 3):
    times, result = [], None
    for _ in range(runs):
        t0 = time.perf_counter()
        result = fn()
        times.append(time.perf_counter() - t0)
    return statistics.median(times), times, result


def stoppable(con, sql: str, stop: float):
    """Run `sql`, interrupting it after `stop` seconds: (seconds, result or None)."""
    timer = threading.Timer(stop, con.interrupt)
    timer.start()
    t0 = time.perf_counter()
    try:
        return time.perf_counter() - t0, con.execute(sql).fetchall()[0][0]
    except duckdb.InterruptException:
        return time.perf_counter() - t0, None
    finally:
        timer.cancel()


def cycles(name: str, db: str, stop: float) -> None:
    with workbench.open(db, read_only=True) as wb:
        con = wb.con
        print(f"\n== import cycles, {name}")
        old = [stoppable(con, OLD_CYCLES, stop) for _ in range(1 if stop >= 60 else 3)]
        for secs, n in old:
            print(f"  path walk (before): {secs:7.2f}s " + (f"{n:,} cycles" if n is not None
                                                         else f"stopped after {stop:g}s, unfinished"))
        med, times, page = timed(lambda: graph.import_cycles(con))
        print(f"  import_cycles (SCC): median {med:7.3f}s  runs " + ", ".join(f"{t:.3f}" for t in times)
              + f"  -> {page.total} components, sizes {[c.size for c in page][:5]}")
        med2, times2, n = timed(lambda: con.execute(SCC_SQL).fetchall()[0][0])
        print(f"  SQL closure (SCC):   median {med2:7.3f}s  runs " + ", ".join(f"{t:.3f}" for t in times2)
              + f"  -> {n} components")
        done = [s for s, n in old if n is not None]
        base = statistics.median(done) if done else stop
        print(f"  ratio path walk / import_cycles: {'>' if not done else ''}{base / med:,.0f}x")


def chain_figure(db: str) -> None:
    import plotly.graph_objects as go

    from workbench import chainview
    with workbench.open(db, read_only=True) as wb:
        sid = graph.symbol_id(wb.con, "rich.console.Console.print")
        edges = graph.trace_call_chain(wb.con, sid, 3, "both", limit=2000)
        ids = {sid} | {e.src_id for e in edges} | {e.dst_id for e in edges}
        view = chainview.build(edges, sid, graph.symbols_by_id(wb.con, ids), collapse="none", max_nodes=10**6)
        pos = chainview.layered_layout(view)
        arrows = [dict(x=pos[v][0], y=pos[v][1], ax=pos[u][0], ay=pos[u][1], xref="x", yref="y",
                       axref="x", ayref="y", showarrow=True, arrowhead=2, text="")
                  for (u, v) in list(view.edges)[:150]]

        def one_by_one():
            fig = go.Figure()
            for a in arrows:
                fig.add_annotation(**a)
            return fig

        def at_once():
            fig = go.Figure()
            fig.update_layout(annotations=arrows)
            return fig
        print(f"\n== call-chain figure, rich Console.print depth 3 both: {len(view.nodes)} nodes, "
              f"{len(view.edges)} edges, {len(arrows)} arrow heads")
        b, bt, _ = timed(one_by_one)
        a, at, _ = timed(at_once)
        print(f"  add_annotation one by one (before): median {b:6.2f}s  runs " + ", ".join(f"{t:.2f}" for t in bt))
        print(f"  one assignment (after):             median {a:6.2f}s  runs " + ", ".join(f"{t:.2f}" for t in at))
        print(f"  ratio: {b / a:,.0f}x")


def outline_caps(name: str, db: str) -> None:
    from workbench.views import Rules, outline
    from workbench.views.lookup import source_files
    with workbench.open(db, read_only=True) as wb:
        paths = source_files(wb.con)
        print(f"\n== read_outline of every file, {name} ({len(paths)} files)")
        none, nt, _ = timed(lambda: [outline(wb, p, Rules(max_children=None)).tokens for p in paths])
        cap, ct, _ = timed(lambda: [outline(wb, p, Rules()).tokens for p in paths])
        capped = sum(1 for p in paths if "(all: max_children=none)" in outline(wb, p).text)
        print(f"  max_children=None (no ranking): median {none:6.2f}s  runs " + ", ".join(f"{t:.2f}" for t in nt))
        print(f"  max_children=40 (ranked):       median {cap:6.2f}s  runs " + ", ".join(f"{t:.2f}" for t in ct))
        print(f"  ratio ranked / none: {cap / none:.2f}; files where a cap applies: {capped}")


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--stdlib-db", help="an index of the standard library (default: built in bench/out)")
    ap.add_argument("--stop", type=float, default=60, help="seconds before the old query is stopped")
    a = ap.parse_args()
    print(f"load average at start: {os.getloadavg()}")
    OUT.mkdir(exist_ok=True)
    rich_db = str(OUT / "rich.duckdb")
    workbench.index(rich_root(), db=rich_db, progress=False).close()
    std_db = a.stdlib_db or str(OUT / "stdlib.duckdb")
    if not a.stdlib_db:
        workbench.index(sysconfig.get_paths()["stdlib"], db=std_db, progress=False).close()
    cycles("rich", rich_db, a.stop)
    cycles("stdlib", std_db, a.stop)
    chain_figure(rich_db)
    outline_caps("rich", rich_db)
    outline_caps("stdlib", std_db)
    print(f"\nload average at end: {os.getloadavg()}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
