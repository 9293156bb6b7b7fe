"""Benchmark: index the Python standard library cold, against raw tree-sitter parsing.

Prints files, lines, symbols, edges, the index wall time, the raw parse time of the same
files measured in the same run (one process, parse only), their ratio, peak memory,
database size, and the time to re-index after changing one file.

    .venv/bin/python bench/index_bench.py [--root DIR] [--jobs N]
"""
from __future__ import annotations

import argparse
import os
import resource
import shutil
import sys
import sysconfig
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from workbench.indexer import index  # noqa: E402
from workbench.languages import detect, grammar, refine  # noqa: E402
from workbench.scan import scan  # noqa: E402


def raw_parse_seconds(root: str) -> tuple[float, int]:
    """Parse every file the index would parse, in this process, and nothing else."""
    from tree_sitter import Parser
    parsers: dict[str, Parser] = {}
    blobs = []
    for e in scan(root).entries:
        spec = detect(e.path)
        if e.skip_reason or spec is None or not spec.parse:
            continue
        with open(e.abspath, "rb") as fh:
            data = fh.read()
        if b"\x00" in data[:8192]:
            continue
        spec = refine(spec, e.path, data)
        if spec.grammar not in parsers:
            parsers[spec.grammar] = Parser(grammar(spec.grammar))
        blobs.append((parsers[spec.grammar], data))
    t0 = time.perf_counter()
    for parser, data in blobs:
        parser.parse(data)
    return time.perf_counter() - t0, len(blobs)


def peak_rss_mib() -> float:
    self_kb = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    kids_kb = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss
    return max(self_kb, kids_kb) / 1024


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--root", default=sysconfig.get_paths()["stdlib"])
    ap.add_argument("--jobs", type=int, default=None)
    args = ap.parse_args()
    tmp = tempfile.mkdtemp(prefix="wb-bench-")
    try:
        # Copy the corpus so the one-file change does not touch the real stdlib.
        corpus = os.path.join(tmp, "corpus")
        shutil.copytree(args.root, corpus, symlinks=True,
                        ignore=shutil.ignore_patterns("site-packages", "__pycache__"))
        db = os.path.join(tmp, "bench.duckdb")

        raw, nparsed = raw_parse_seconds(corpus)

        def phases(r) -> str:
            return ", ".join(f"{k} {v:.2f}s" for k, v in r.timings.items())

        db_fast = os.path.join(tmp, "fast.duckdb")
        t0 = time.perf_counter()
        fast = index(corpus, db_fast, jobs=args.jobs, progress=False, resolve=False)
        wall_fast = time.perf_counter() - t0

        t0 = time.perf_counter()
        report = index(corpus, db, jobs=args.jobs, progress=False)
        wall = time.perf_counter() - t0
        peak = peak_rss_mib()

        import duckdb
        con = duckdb.connect(db, read_only=True)
        files, lines = con.execute(
            "SELECT count(*), coalesce(sum(line_count), 0) FROM files").fetchall()[0]
        symbols = con.execute("SELECT count(*) FROM symbols WHERE kind <> 'module'").fetchall()[0][0]
        edges = con.execute("SELECT count(*) FROM edges").fetchall()[0][0]
        con.close()
        size = os.path.getsize(db) + (os.path.getsize(db + ".wal") if os.path.exists(db + ".wal") else 0)

        target = os.path.join(corpus, "json", "decoder.py")
        with open(target, "a", encoding="utf-8") as fh:
            fh.write("\n\ndef _bench_added(x):\n    return x + 1\n")
        t1 = time.perf_counter()
        re_report = index(corpus, db, jobs=args.jobs, progress=False)
        reindex = time.perf_counter() - t1
        t1 = time.perf_counter()
        re_fast = index(corpus, db_fast, jobs=args.jobs, progress=False, resolve=False)
        reindex_fast = time.perf_counter() - t1

        jobs = args.jobs or os.cpu_count()
        print(f"corpus: {args.root}")
        print(f"files: {files} ({nparsed} parsed)  lines: {lines}  symbols: {symbols}  edges: {edges}")
        print(f"raw tree-sitter parse, same files, 1 process: {raw:.2f} s")
        print(f"index without cross-file resolution (jobs={jobs}): {wall_fast:.2f} s "
              f"= {wall_fast / raw:.2f}x raw parse  (target <= 3x)  [{phases(fast)}]")
        print(f"index with cross-file resolution (default, jobs={jobs}): {wall:.2f} s "
              f"= {wall / raw:.2f}x raw parse  [{phases(report)}]")
        print(f"peak RSS (max of main process and one worker): {peak:.0f} MiB")
        print(f"database size: {size / 2**20:.1f} MiB")
        print(f"re-index after changing one file, without resolution: {reindex_fast:.3f} s "
              f"(target < 0.5 s) [{re_fast.changed} changed, {re_fast.unchanged} unchanged; {phases(re_fast)}]")
        print(f"re-index after changing one file, with resolution: {reindex:.3f} s "
              f"[{re_report.changed} changed; {phases(re_report)}]")
    finally:
        shutil.rmtree(tmp, ignore_errors=True)


if __name__ == "__main__":
    main()
