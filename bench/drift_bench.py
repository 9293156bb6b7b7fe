"""Benchmark: does an incremental re-index drift from a fresh index? On the whole standard
library (a copy), each trial edits a few files the way people edit code (see
`tests/drift.py`), re-indexes incrementally, indexes the edited tree fresh, and counts the
edge and import rows that differ (the goal is 0), with the time of both.

    .venv/bin/python bench/drift_bench.py [--root DIR] [--trials 3] [--files 4]
"""
from __future__ import annotations

import argparse
import os
import random
import shutil
import sys
import sysconfig
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))
sys.path.insert(0, str(REPO / "tests"))

from drift import differences, mutate  # noqa: E402
from workbench.indexer import index  # noqa: E402


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--root", default=sysconfig.get_paths()["stdlib"])
    ap.add_argument("--trials", type=int, default=3)
    ap.add_argument("--files", type=int, default=4, help="files edited per trial")
    args = ap.parse_args()
    tmp = tempfile.mkdtemp(prefix="wb-drift-")
    try:
        corpus = Path(tmp) / "corpus"
        shutil.copytree(args.root, corpus, symlinks=True,
                        ignore=shutil.ignore_patterns("site-packages", "__pycache__"))
        db = os.path.join(tmp, "inc.duckdb")
        index(corpus, db, progress=False)
        load = os.getloadavg()
        print(f"corpus: {args.root}; load average {load[0]:.2f} {load[1]:.2f} {load[2]:.2f}")
        total = 0
        for k in range(1, args.trials + 1):
            rng = random.Random(k)
            done = mutate(corpus, rng, n_files=args.files, add_delete=(k == args.trials))
            t0 = time.perf_counter()
            r = index(corpus, db, progress=False)
            inc = time.perf_counter() - t0
            fresh = os.path.join(tmp, f"fresh{k}.duckdb")
            t0 = time.perf_counter()
            index(corpus, fresh, progress=False)
            full = time.perf_counter() - t0
            diff = differences(db, fresh)
            total += len(diff)
            print(f"trial {k}: {len(done)} edits ({r.changed} changed, {r.added} added, {r.removed} removed); "
                  f"incremental {inc:.2f} s [resolve {r.timings['resolve']:.2f} s, "
                  f"{getattr(r.resolve_stats, 'files', '?')} files resolved"
                  f"{', model kept' if getattr(r.resolve_stats, 'model_kept', False) else ''}], fresh {full:.2f} s; "
                  f"rows differing: {len(diff)}")
            for side, row in diff[:5]:
                print(f"    only in {side}: {row}")
            os.remove(fresh)
        print(f"drift rows over {args.trials} trials: {total} (goal 0)")
    finally:
        shutil.rmtree(tmp, ignore_errors=True)


if __name__ == "__main__":
    main()
