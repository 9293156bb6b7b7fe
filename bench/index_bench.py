"""Benchmark: index the Python standard library cold, against raw tree-sitter parsing.

Each run measures, with the baseline (a raw single-process tree-sitter parse of the same
files) in the same run:

* the cold index without and with cross-file resolution (the default), as ratios to the
  raw parse (targets: <= 3x without, <= 2x with);
* peak memory of that default index: the largest resident set of the main process and of
  any one of its child processes, a parser worker or the resolution helper (target <=
  600 MB), and the largest sum over all its processes at once
  (proportional set sizes, so pages a forked process shares count once);
* re-indexing after changing one file, with resolution, in process (target < 0.25 s; then
  once more in that process, where the resolver's model of the last run is kept) and
  through the CLI, interpreter start included (target < 1.0 s);
* a small sample repository (pyshop) indexed cold through the CLI (target < 1.0 s).

Each figure also shows the CPU time it took (all processes of the run): on a shared
machine wall times swing with the load, CPU times much less.

Every index runs in a fresh process, so runs do not share caches or peak-memory counters.
The package's modules are byte-compiled once before the runs, as an install has them after
its first run: an interpreter started with PYTHONDONTWRITEBYTECODE would otherwise compile
them from source in every CLI run (~0.07-0.1 s of CPU, a cost users do not pay).

    .venv/bin/python bench/index_bench.py [--root DIR] [--jobs N] [--runs 3] [--code DIR] [--implicit]

`--code DIR` measures the workbench package found in DIR instead of this checkout (an
older commit unpacked with `git archive`, to compare in the same run). `--implicit`
indexes with implicit call edges on (`index(implicit=True)`; the re-indexes keep the
database's setting).
"""
from __future__ import annotations

import argparse
import json
import os
import shutil
import subprocess
import sys
import sysconfig
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent

# run in a child process: index ROOT into DB, report wall time, phases and peak memory;
# then optionally append to one file and re-index in the same process
_PRELUDE = r"""
import os, sys
code = os.environ["WB_BENCH_CODE"]
# measure the package in `code`, not an editable install of this checkout
sys.meta_path[:] = [f for f in sys.meta_path if not getattr(f, "__module__", "").startswith("__editable__")]
sys.path.insert(0, code)
"""
_CHILD = _PRELUDE + r"""
import json, resource, time
from workbench.indexer import index
root, db, resolve, touch = sys.argv[1], sys.argv[2], sys.argv[3] == "1", sys.argv[4]
jobs = int(sys.argv[5]) if sys.argv[5] != "0" else None
setting = {"implicit": True} if os.environ.get("WB_BENCH_IMPLICIT") else {}
t0 = time.perf_counter()
r = index(root, db, jobs=jobs, progress=False, resolve=resolve, **setting)
ru, rc = resource.getrusage(resource.RUSAGE_SELF), resource.getrusage(resource.RUSAGE_CHILDREN)
out = {"wall": time.perf_counter() - t0, "phases": r.timings,
       "cpu": ru.ru_utime + ru.ru_stime + rc.ru_utime + rc.ru_stime,
       "peak_self": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024,
       "peak_children": resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss / 1024}


def edit_and_reindex(key, text):
    with open(os.path.join(root, touch), "a", encoding="utf-8") as fh:
        fh.write(text)
    open(db + ".timed", "w").close()    # the memory sampler pauses meanwhile
    t0, c0 = time.perf_counter(), time.process_time()
    r = index(root, db, jobs=jobs, progress=False, resolve=resolve)
    out[key] = time.perf_counter() - t0
    out[key + "_cpu"] = time.process_time() - c0
    os.remove(db + ".timed")
    out[key + "_phases"] = r.timings
    return r


if touch:
    r = edit_and_reindex("reindex", "\n\ndef _bench_added_in_process(x):\n    return x + 1\n")
    out["reindex_changed"] = r.changed
    # once more: a process that stays (a server, a notebook) re-indexes again and again
    r = edit_and_reindex("reindex2", "\n\ndef _bench_added_again(x):\n    return x + 2\n")
    out["reindex2_kept"] = bool(getattr(getattr(r, "resolve_stats", None), "model_kept", False))
print(json.dumps(out))
"""


def raw_parse_seconds(root: str) -> tuple[float, int]:
    """Parse every file the index would parse, in this process, and nothing else."""
    from tree_sitter import Parser

    from workbench.languages import detect, grammar, refine
    from workbench.scan import scan
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
    t0, c0 = time.perf_counter(), time.process_time()
    for parser, data in blobs:
        parser.parse(data)
    return time.perf_counter() - t0, time.process_time() - c0, len(blobs)


_IMPLICIT: dict = {}      # the child's environment for `--implicit`


def _env(code: str) -> dict:
    return {**os.environ, "WB_BENCH_CODE": code, **_IMPLICIT}


def _tree(pid: int) -> list[int]:
    """`pid` and all its descendants (Linux /proc; just `pid` elsewhere)."""
    out = [pid]
    try:
        for task in os.listdir(f"/proc/{pid}/task"):
            with open(f"/proc/{pid}/task/{task}/children") as fh:
                for child in fh.read().split():
                    out += _tree(int(child))
    except OSError:
        pass
    return out


def _pss_mib(pid: int) -> float | None:
    """The proportional set size of `pid` (its share of pages shared with other
    processes), None where /proc does not say."""
    try:
        with open(f"/proc/{pid}/smaps_rollup") as fh:
            for line in fh:
                if line.startswith("Pss:"):
                    return int(line.split()[1]) / 1024
    except (OSError, ValueError):
        pass
    return None


def child_index(code: str, root: str, db: str, resolve: bool, touch: str = "",
                jobs: int | None = None) -> dict:
    """Run `_CHILD`; its result, plus `peak_pss`: the largest sum of the proportional set
    sizes of the child and all its processes (parser workers, the resolution helper),
    sampled every 20 ms (None where /proc has no `smaps_rollup`), except while the child
    times a re-index (it holds the file `<db>.timed` meanwhile): reading `smaps_rollup`
    walks the page tables of a ~600 MB process, 5-8 ms of CPU each time, and on two
    cores that slowed the re-index being timed by several hundredths of a second (its
    memory is far below the index's peak)."""
    import threading
    proc = subprocess.Popen([sys.executable, "-c", _CHILD, root, db, "1" if resolve else "0", touch,
                             str(jobs or 0)], env=_env(code), stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True)
    peak: list = [None]

    def sample():
        while proc.poll() is None:
            if os.path.exists(db + ".timed"):
                time.sleep(0.005)
                continue
            got = [_pss_mib(p) for p in _tree(proc.pid)]
            if got and got[0] is not None:
                total = sum(g for g in got if g is not None)
                peak[0] = total if peak[0] is None else max(peak[0], total)
            time.sleep(0.02)
    sampler = threading.Thread(target=sample, daemon=True)
    sampler.start()
    stdout, stderr = proc.communicate()
    sampler.join()
    if proc.returncode:
        raise subprocess.CalledProcessError(proc.returncode, "index child", stdout, stderr)
    return {**json.loads(stdout.strip().splitlines()[-1]), "peak_pss": peak[0]}


def cli_seconds(code: str, args: list[str]) -> tuple[float, float]:
    """Wall and CPU time of `workbench ARGS` in a new interpreter (its start included)."""
    import resource
    cmd = [sys.executable, "-c", _PRELUDE + "from workbench.cli import main; sys.exit(main())", *args]
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    t0 = time.perf_counter()
    subprocess.run(cmd, env=_env(code), check=True, stdout=subprocess.DEVNULL)
    wall = time.perf_counter() - t0
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    return wall, (after.ru_utime + after.ru_stime) - (before.ru_utime + before.ru_stime)


def one_run(args, corpus: str, tmp: str, k: int) -> None:
    code = args.code
    raw, raw_cpu, nparsed = raw_parse_seconds(corpus)

    def phases(t: dict) -> str:
        return ", ".join(f"{name} {v:.2f}s" for name, v in t.items())

    fast = child_index(code, corpus, os.path.join(tmp, f"fast{k}.duckdb"), resolve=False, jobs=args.jobs)
    db = os.path.join(tmp, f"full{k}.duckdb")
    full = child_index(code, corpus, db, resolve=True, touch="json/decoder.py", jobs=args.jobs)
    peak = max(full["peak_self"], full["peak_children"])
    with open(os.path.join(corpus, "json", "encoder.py"), "a", encoding="utf-8") as fh:
        fh.write("\n\ndef _bench_added_cli(x):\n    return x + 1\n")
    cli_reindex = cli_seconds(code, ["index", corpus, "--db", db, "-q"])
    shop = os.path.join(tmp, f"pyshop{k}")
    shutil.copytree(REPO / "sample_repos" / "pyshop", shop)
    cli_shop = cli_seconds(code, ["index", shop, "--db", os.path.join(tmp, f"pyshop{k}.duckdb"), "-q"])

    import duckdb
    con = duckdb.connect(db, read_only=True)
    files, lines = con.execute("SELECT count(*), coalesce(sum(line_count), 0) FROM files").fetchall()[0]
    symbols = con.execute("SELECT count(*) FROM symbols WHERE kind <> 'module'").fetchall()[0][0]
    edges = con.execute("SELECT count(*) FROM edges").fetchall()[0][0]
    con.close()
    size = os.path.getsize(db)
    jobs = args.jobs or os.cpu_count()
    load = os.getloadavg()
    print(f"## run {k}  (load average {load[0]:.2f} {load[1]:.2f} {load[2]:.2f})")
    print(f"files: {files} ({nparsed} parsed)  lines: {lines}  symbols: {symbols}  edges: {edges}")
    print(f"raw tree-sitter parse, same files, 1 process: {raw:.2f} s (cpu {raw_cpu:.2f} s)")
    print(f"index without cross-file resolution (jobs={jobs}): {fast['wall']:.2f} s "
          f"= {fast['wall'] / raw:.2f}x raw parse  (target <= 3x)  [{phases(fast['phases'])}]"
          f"  (cpu, all processes: {fast['cpu']:.1f} s)")
    print(f"index with cross-file resolution (default, jobs={jobs}): {full['wall']:.2f} s "
          f"= {full['wall'] / raw:.2f}x raw parse  (target <= 2x)  [{phases(full['phases'])}]"
          f"  (cpu, all processes: {full['cpu']:.1f} s)")
    print(f"peak RSS of the default index (largest of main process and any one child): {peak:.0f} MiB "
          f"= {peak * 2**20 / 1e6:.0f} MB (main {full['peak_self']:.0f} MiB, child "
          f"{full['peak_children']:.0f} MiB; target <= 600 MB = {600e6 / 2**20:.0f} MiB)")
    if full["peak_pss"] is not None:
        print(f"  all its processes together (largest sum of proportional set sizes, sampled "
              f"every 20 ms, not while a re-index is timed): {full['peak_pss']:.0f} MiB")
    print(f"database size: {size / 2**20:.1f} MiB")
    print(f"re-index after changing one file, with resolution, in process: {full['reindex']:.3f} s "
          f"(target < 0.25 s) [{full['reindex_changed']} changed; {phases(full['reindex_phases'])}]"
          f"  (cpu {full['reindex_cpu']:.2f} s)")
    print(f"  the same once more in that process: {full['reindex2']:.3f} s "
          f"[{'model kept' if full['reindex2_kept'] else 'model loaded'}; {phases(full['reindex2_phases'])}]"
          f"  (cpu {full['reindex2_cpu']:.2f} s)")
    print(f"re-index after changing one file, with resolution, through the CLI: {cli_reindex[0]:.3f} s "
          f"(target < 1.0 s, interpreter start included)  (cpu {cli_reindex[1]:.2f} s)")
    print(f"pyshop (16 files) indexed cold through the CLI: {cli_shop[0]:.3f} s (target < 1.0 s)"
          f"  (cpu {cli_shop[1]:.2f} s)")
    sys.stdout.flush()


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--root", default=sysconfig.get_paths()["stdlib"])
    ap.add_argument("--jobs", type=int, default=None)
    ap.add_argument("--runs", type=int, default=3)
    ap.add_argument("--code", default=str(REPO), help="directory holding the workbench package to measure")
    ap.add_argument("--implicit", action="store_true", help="index with implicit call edges on")
    args = ap.parse_args()
    if args.implicit:
        _IMPLICIT["WB_BENCH_IMPLICIT"] = "1"
    args.code = os.path.abspath(args.code)
    sys.meta_path[:] = [f for f in sys.meta_path if not getattr(f, "__module__", "").startswith("__editable__")]
    sys.path.insert(0, args.code)
    # the package's modules byte-compiled once, as any install has them after its first run
    # (or at install): with PYTHONDONTWRITEBYTECODE set, each CLI run would compile them again
    import compileall
    compileall.compile_dir(os.path.join(args.code, "workbench"), quiet=1)
    print(f"corpus: {args.root}; code: {args.code}; Python {sys.version.split()[0]}; "
          f"{os.cpu_count()} cores; package byte-compiled{'; implicit calls on' if args.implicit else ''}")
    for k in range(1, args.runs + 1):
        tmp = tempfile.mkdtemp(prefix="wb-bench-")
        try:
            # a copy, so the one-file changes do not touch the real corpus
            corpus = os.path.join(tmp, "corpus")
            shutil.copytree(args.root, corpus, symlinks=True,
                            ignore=shutil.ignore_patterns("site-packages", "__pycache__"))
            one_run(args, corpus, tmp, k)
        finally:
            shutil.rmtree(tmp, ignore_errors=True)


if __name__ == "__main__":
    main()
