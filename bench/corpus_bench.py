"""Corpus indexing at scale: 40 real packages (source distributions fetched at run time with
`pip download`, cached, never committed) indexed into one corpus with both engines
and against a serial baseline.

The baseline, measured in the same run, is `serial`: the same tasks one after another in
this process (`--engine local --jobs 1`). A round indexes every size with every engine
(serial, local, dask in turn), so a load spike on a shared machine hits all of them alike;
`--runs` rounds are made, or as many as `--budget` seconds allow (a round is never cut).

Prints, per engine and corpus size (10, 20, 40 repositories by default; three rounds):
wall time, repositories per second, its ratio to the serial run of the same round, the
sum of the tasks' times and of the CPU time their processes used (on a loaded machine the
wall time is mostly waiting for a core; CPU time shows each engine's own cost), rows
written, peak resident memory per worker; how time grows from the smallest to the largest
size; a re-run that finds nothing changed; whether the engines wrote the same rows; the
machine's load before and after (the figures are noisy on a shared machine).

    .venv/bin/python bench/corpus_bench.py [--sizes 10,20,40] [--runs 3]
                                           [--engines serial,local,dask] [--jobs 2]
                                           [--budget SECONDS] [--cache DIR] [--out FILE]
"""
from __future__ import annotations

import argparse
import hashlib
import os
import platform
import re
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from workbench import schema  # noqa: E402
from workbench.corpus import index_corpus, open_corpus  # noqa: E402
from workbench.corpus.inputs import archive_stem  # noqa: E402

# Popular pure-Python packages, pinned. The first 40 that download are the corpus (the last
# five are spares for a package the registry cannot serve as an sdist).
PACKAGES = """
requests==2.34.2 six==1.17.0 urllib3==2.8.0 idna==3.20 attrs==26.1.0 click==8.5.1 jinja2==3.1.6
itsdangerous==2.2.0 werkzeug==3.1.9 flask==3.1.3 packaging==26.3 pyparsing==3.3.3
python-dateutil==4.0.0 toml==0.10.2 tomli==2.5.0 tomlkit==0.15.2 sqlparse==0.6.1 wcwidth==0.9.4
colorama==0.4.6 tqdm==4.70.1 rich==15.0.0 decorator==5.3.1 more-itertools==11.2.1 jmespath==1.1.0
pycparser==3.12 pluggy==1.7.0 iniconfig==2.3.1 toolz==1.2.0 cachetools==8.0.0 tabulate==0.10.0
markdown==3.11.3 mistune==3.4.0 bleach==6.4.0 soupsieve==4.1.1 beautifulsoup4==4.15.0
sortedcontainers==2.4.0 platformdirs==4.14.5 pyflakes==4.1.0 pycodestyle==2.15.0 jsonschema==4.26.0
pathspec==1.1.1 boltons==26.2.0 humanize==4.17.0 parso==0.8.7 docopt==0.6.2
""".split()
WANT = 40


def _norm(name: str) -> str:
    return re.sub(r"[-_.]+", "_", name).lower()


def cache_dir() -> Path:
    base = os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache")
    return Path(base) / "context-workbench" / "bench-sdists"


def find_sdist(cache: Path, spec: str) -> Path | None:
    name, version = spec.split("==")
    for p in cache.iterdir() if cache.is_dir() else ():
        stem = archive_stem(p.name)
        if stem and "-" in stem:
            n, v = stem.rsplit("-", 1)
            if _norm(n) == _norm(name) and v == version:
                return p
    return None


def fetch(cache: Path, log) -> list[Path]:
    """The sdists of PACKAGES, downloaded into `cache` when missing (three at a time)."""
    cache.mkdir(parents=True, exist_ok=True)
    missing = [s for s in PACKAGES if find_sdist(cache, s) is None]

    def get(spec):
        r = subprocess.run([sys.executable, "-m", "pip", "download", "-q", "--no-deps",
                            "--no-binary", ":all:", spec, "-d", str(cache)],
                           capture_output=True, text=True)
        return spec, r.returncode, r.stderr.strip().splitlines()[-1:] if r.returncode else []

    if missing:
        log(f"fetching {len(missing)} sdists with pip download into {cache} ...")
        t0 = time.perf_counter()
        with ThreadPoolExecutor(3) as pool:
            for spec, rc, err in pool.map(get, missing):
                if rc:
                    log(f"  could not fetch {spec}: {' '.join(err)}")
        log(f"  fetched in {time.perf_counter() - t0:.0f}s")
    found = [p for s in PACKAGES if (p := find_sdist(cache, s)) is not None]
    return found[:WANT]


def load() -> str:
    try:
        return " ".join(Path("/proc/loadavg").read_text().split()[:3])
    except OSError:
        return "n/a"


def rows_digest(folder: Path) -> tuple[dict, str]:
    """Rows per table and one hash over every row (meta values aside: roots and times)."""
    with open_corpus(folder) as c:
        counts, h = {}, hashlib.sha256()
        for table in schema.TABLES:
            cols = [x for x in schema.columns(table) if not (table == "meta" and x == "value")]
            counts[table] = c.sql(f"SELECT count(*) FROM {table}").fetchall()[0][0]
            for row in c.sql(f"SELECT repo, {', '.join(cols)} FROM {table} ORDER BY ALL").fetchall():
                h.update(repr(row).encode())
    return counts, h.hexdigest()[:16]


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--sizes", default="10,20,40")
    ap.add_argument("--runs", type=int, default=3)
    ap.add_argument("--engines", default="serial,local,dask",
                    help="serial (the baseline: one process), local (process pool), dask")
    ap.add_argument("--jobs", type=int, default=2)
    ap.add_argument("--budget", type=float, default=None,
                    help="start no new round after this many seconds (the rounds made are reported)")
    ap.add_argument("--cache", default=str(cache_dir()), help="where the sdists are kept")
    ap.add_argument("--out", default=None, help="also write the output to this file")
    a = ap.parse_args(argv)
    lines: list[str] = []

    def log(text=""):
        print(text, flush=True)
        lines.append(text)
        if a.out:                     # written as it goes: an interrupted run keeps its lines
            Path(a.out).parent.mkdir(parents=True, exist_ok=True)
            Path(a.out).write_text("\n".join(lines) + "\n", encoding="utf-8")

    sizes = [int(x) for x in a.sizes.split(",")]
    engines = a.engines.split(",")
    log(f"corpus_bench: {platform.python_version()} on {platform.machine()}, {os.cpu_count()} cores; "
        f"load before: {load()}; {time.strftime('%Y-%m-%d %H:%M')}")
    sdists = fetch(Path(a.cache), log)
    if len(sdists) < max(sizes):
        log(f"only {len(sdists)} sdists available; sizes above that are left out")
        sizes = [s for s in sizes if s <= len(sdists)] or [len(sdists)]
    total_mb = sum(p.stat().st_size for p in sdists) / 1e6
    log(f"corpus: {len(sdists)} sdists, {total_mb:.1f} MB compressed: "
        + ", ".join(archive_stem(p.name) for p in sdists))
    log(f"engines {engines} (serial: 1 process, the baseline; the others {a.jobs} workers), "
        f"sizes {sizes}, up to {a.runs} rounds (fresh corpus folder per run; the dask wall time "
        "includes starting the LocalCluster; serial's peak memory is this bench process's)")
    log()
    work = Path(tempfile.mkdtemp(prefix="corpus-bench-"))
    results: dict = {}
    digests: dict = {}

    def spec(engine):        # (engine, jobs) as index_corpus takes them
        return ("local", 1) if engine == "serial" else (engine, a.jobs)

    try:
        log(f"{'engine':<7}{'repos':>6}{'run':>5}{'wall s':>9}{'repo/s':>8}{'vs ' + engines[0]:>11}"
            f"{'task s':>9}{'cpu s':>8}{'indexed':>8}{'failed':>7}{'rows':>11}{'peak MB/worker':>20}")
        t_start, runs, last = time.perf_counter(), 0, {}
        for run in range(a.runs):
            if run and a.budget and time.perf_counter() - t_start > a.budget:
                log(f"(budget of {a.budget:.0f}s spent: {run} of {a.runs} rounds made)")
                break
            runs = run + 1
            for size in sizes:
                inputs = [str(p) for p in sdists[:size]]
                for engine in engines:
                    out = work / f"{engine}-{size}-{run}"
                    name, jobs = spec(engine)
                    t0 = time.perf_counter()
                    rep = index_corpus(inputs, out, engine=name, jobs=jobs, progress=False,
                                       dashboard=False, info=lambda s: None)
                    wall = time.perf_counter() - t0
                    rows = sum(rep.rows().values())
                    peaks = sorted(rep.peak_rss_by_worker().values(), reverse=True)
                    task = sum(r.seconds for r in rep.repos)
                    cpu = sum(r.cpu_seconds for r in rep.repos)
                    results.setdefault(("cpu", engine, size), []).append(cpu)
                    results.setdefault((engine, size), []).append(wall)
                    ratio = results[(engines[0], size)][run] / wall   # speed-up over the baseline
                    log(f"{engine:<7}{size:>6}{run + 1:>5}{wall:>9.1f}{size / wall:>8.2f}{ratio:>10.2f}x"
                        f"{task:>9.1f}{cpu:>8.1f}{len(rep.indexed):>8}{len(rep.failed):>7}{rows:>11,}"
                        f"{' / '.join(f'{p:,.0f}' for p in peaks):>20}")
                    for failed, err in rep.failed.items():
                        log(f"    failed {failed}: {err}")
                    if size == max(sizes) and run == 0:
                        digests[engine] = rows_digest(out)
                    if size == max(sizes):        # the newest is kept for the re-run below
                        if engine in last:
                            shutil.rmtree(last[engine], ignore_errors=True)
                        last[engine] = out
                    else:
                        shutil.rmtree(out, ignore_errors=True)
        log()
        log(f"median over {runs} round{'s' if runs > 1 else ''}: wall time (s) by size; speed-up over "
            f"{engines[0]} (median of the per-round ratios); growth against the smallest size:")
        for engine in engines:
            med = {s: statistics.median(results[(engine, s)]) for s in sizes}
            speed = {s: statistics.median(b / w for b, w in zip(results[(engines[0], s)],
                                                                 results[(engine, s)])) for s in sizes}
            log(f"  {engine:<6} " + "   ".join(
                f"{s} repos {med[s]:.1f}s ({speed[s]:.2f}x; x{med[s] / med[sizes[0]]:.2f} time "
                f"for x{s / sizes[0]:.0f} repos)" for s in sizes))
        log(f"median CPU seconds of the tasks' processes, and against {engines[0]}:")
        for engine in engines:
            cpu = {s: statistics.median(results[("cpu", engine, s)]) for s in sizes}
            base = {s: statistics.median(results[("cpu", engines[0], s)]) for s in sizes}
            log(f"  {engine:<6} " + "   ".join(
                f"{s} repos {cpu[s]:.1f}s (x{cpu[s] / base[s]:.2f})" for s in sizes))
        for engine in engines:
            out = last[engine]
            name, jobs = spec(engine)
            t0 = time.perf_counter()
            rep = index_corpus([str(p) for p in sdists[:max(sizes)]], out, engine=name,
                               jobs=jobs, progress=False, dashboard=False, info=lambda s: None)
            log(f"re-run of {max(sizes)} unchanged repositories ({engine}): "
                f"{time.perf_counter() - t0:.2f}s, {len(rep.skipped)} skipped, {len(rep.indexed)} indexed")
        if len(digests) > 1:
            same = len({(tuple(c.items()), d) for c, d in digests.values()}) == 1
            log(f"same rows from {', '.join(digests)} ({max(sizes)} repos): {'yes' if same else 'NO'} "
                f"(digests {', '.join(d for _, d in digests.values())})")
        if digests:
            counts = next(iter(digests.values()))[0]
            log("rows per table: " + ", ".join(f"{t} {n:,}" for t, n in counts.items()))
    finally:
        shutil.rmtree(work, ignore_errors=True)
    log(f"load after: {load()}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
