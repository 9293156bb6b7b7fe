"""Benchmark: cross-file resolution alone, on a database indexed without it.

    .venv/bin/python bench/resolve_bench.py DB [--runs 3] [--code DIR] [--keep OUT]

DB was indexed with `resolve=False` (e.g. the standard library). Each run copies DB,
then resolves everything in a fresh process (`resolve_edges(con)` in one transaction,
as the indexer does) and prints its wall and CPU time and peak memory. `--code DIR`
measures the workbench package found in DIR (an older commit unpacked with
`git archive`); `--keep OUT` keeps the last run's resolved database as OUT.
"""
from __future__ import annotations

import argparse
import json
import os
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent

_CHILD = r"""
import os, sys
code = os.environ["WB_BENCH_CODE"]
sys.meta_path[:] = [f for f in sys.meta_path if not getattr(f, "__module__", "").startswith("__editable__")]
sys.path.insert(0, code)
import json, resource, time
import duckdb
from workbench.resolve import resolve_edges
con = duckdb.connect(sys.argv[1])
t0, c0 = time.perf_counter(), time.process_time()
con.execute("BEGIN")
st = resolve_edges(con, None)
con.execute("COMMIT")
con.close()
ru, rc = resource.getrusage(resource.RUSAGE_SELF), resource.getrusage(resource.RUSAGE_CHILDREN)
print(json.dumps({"cpu_all": ru.ru_utime + ru.ru_stime + rc.ru_utime + rc.ru_stime, "peak_children": rc.ru_maxrss / 1024, "wall": time.perf_counter() - t0, "cpu": time.process_time() - c0,
                  "edges": st.edges, "peak": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024}))
"""


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("db")
    ap.add_argument("--runs", type=int, default=3)
    ap.add_argument("--code", default=str(REPO))
    ap.add_argument("--keep")
    a = ap.parse_args()
    env = dict(os.environ, WB_BENCH_CODE=str(Path(a.code).resolve()))
    with tempfile.TemporaryDirectory() as tmp:
        db = os.path.join(tmp, "run.duckdb")
        for i in range(a.runs):
            shutil.copy(a.db, db)
            out = subprocess.run([sys.executable, "-c", _CHILD, db], env=env, check=True,
                                 capture_output=True, text=True).stdout
            r = json.loads(out.strip().splitlines()[-1])
            print(f"run {i + 1}: resolve {r['wall']:.2f} s wall, {r['cpu']:.2f} s CPU, "
                  f"({r['cpu_all']:.2f} s CPU with child processes), {r['edges']} edges, "
                  f"peak RSS {r['peak']:.0f} MiB (children {r['peak_children']:.0f} MiB)", flush=True)
        if a.keep:
            shutil.copy(db, a.keep)


if __name__ == "__main__":
    main()
