"""Benchmark: index real code in the other languages, fetched from package registries.

For each corpus: files, symbols, edges, the raw tree-sitter parse time of the same files
(one process), the index wall time without and with cross-file resolution and their ratios
to the raw parse, file statuses, and the share of call edges bound without guessing.

Corpora (downloaded at run time into --cache, never committed; skipped with a message
when apt-get / npm cannot fetch them):

  go     Go standard library source       apt-get download golang-1.NN-src
  java   java.base of the JDK              apt-get download openjdk-17-source (lib/src.zip)
  rust   tokio                             apt-get download librust-tokio-dev
  cpp    fmt and googletest headers        apt-get download libfmt-dev libgtest-dev
  ts     zod (TypeScript sources + JS)     npm pack zod@3

    .venv/bin/python bench/languages_bench.py [--only go,java] [--cache DIR] [--jobs N]
"""
from __future__ import annotations

import argparse
import glob
import os
import shutil
import subprocess
import sys
import tempfile
import time
import zipfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench.index_bench import raw_parse_seconds  # noqa: E402
from workbench.indexer import index  # noqa: E402


def _run(cmd: list[str], cwd: str) -> None:
    subprocess.run(cmd, cwd=cwd, check=True, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)


def _apt(packages: list[str], dest: str) -> None:
    """Download Debian packages and unpack them (no installation, no root needed)."""
    with tempfile.TemporaryDirectory() as tmp:
        _run(["apt-get", "download", *packages], tmp)
        for deb in glob.glob(os.path.join(tmp, "*.deb")):
            _run(["dpkg-deb", "-x", deb, dest], tmp)


def _first_available(candidates: list[str]) -> str:
    for name in candidates:
        out = subprocess.run(["apt-cache", "show", name], capture_output=True, text=True)
        if out.returncode == 0 and out.stdout.strip():
            return name
    raise RuntimeError(f"none of {candidates} is known to apt")


def fetch_go(dest: str) -> str:
    _apt([_first_available([f"golang-1.{n}-src" for n in range(24, 17, -1)])], dest)
    return sorted(glob.glob(os.path.join(dest, "usr/share/go-*/src")) +
                  glob.glob(os.path.join(dest, "usr/lib/go-*/src")))[0]


def fetch_java(dest: str) -> str:
    _apt(["openjdk-17-source"], dest)
    src_zip = glob.glob(os.path.join(dest, "usr/lib/jvm/*/lib/src.zip"))[0]
    root = os.path.join(dest, "java.base")
    with zipfile.ZipFile(src_zip) as z:
        z.extractall(dest, [n for n in z.namelist() if n.startswith("java.base/")])
    return root


def fetch_rust(dest: str) -> str:
    _apt(["librust-tokio-dev"], dest)
    return glob.glob(os.path.join(dest, "usr/share/cargo/registry/tokio-*"))[0]


def fetch_cpp(dest: str) -> str:
    _apt(["libfmt-dev", "libgtest-dev"], dest)
    return os.path.join(dest, "usr/include")


def fetch_ts(dest: str) -> str:
    _run(["npm", "pack", "--silent", "zod@3"], dest)
    tgz = glob.glob(os.path.join(dest, "zod-*.tgz"))[0]
    shutil.unpack_archive(tgz, dest)
    return os.path.join(dest, "package")


CORPORA = {"go": fetch_go, "java": fetch_java, "rust": fetch_rust, "cpp": fetch_cpp, "ts": fetch_ts}


def corpus(name: str, cache: str, fetchers: dict | None = None) -> str:
    """The corpus root, fetched once into `cache/<name>` (a `.ready` file marks success)."""
    dest = os.path.join(cache, name)
    ready = os.path.join(dest, ".ready")
    if os.path.exists(ready):
        return Path(ready).read_text().strip()
    shutil.rmtree(dest, ignore_errors=True)
    os.makedirs(dest)
    root = (fetchers or CORPORA)[name](dest)
    Path(ready).write_text(root)
    return root


def measure(name: str, root: str, jobs: int | None) -> None:
    with tempfile.TemporaryDirectory(prefix="wb-lang-") as tmp:
        raw, nparsed = raw_parse_seconds(root)
        db_fast = os.path.join(tmp, "fast.duckdb")
        t0 = time.perf_counter()
        index(root, db_fast, jobs=jobs, progress=False, resolve=False)
        wall_fast = time.perf_counter() - t0
        db = os.path.join(tmp, "full.duckdb")
        t0 = time.perf_counter()
        full = index(root, db, jobs=jobs, progress=False)
        wall = time.perf_counter() - t0
        import duckdb
        con = duckdb.connect(db, read_only=True)
        langs = con.execute("""SELECT language, count(*) FROM files WHERE status <> 'skipped'
                               GROUP BY 1 ORDER BY 2 DESC LIMIT 3""").fetchall()
        symbols = con.execute("SELECT count(*) FROM symbols WHERE kind <> 'module'").fetchall()[0][0]
        edges = con.execute("SELECT count(*) FROM edges").fetchall()[0][0]
        res = dict(con.execute("SELECT resolution, count(*) FROM edges WHERE kind = 'calls' "
                               "GROUP BY 1").fetchall())
        con.close()
    calls = sum(res.values())
    bound = sum(v for k, v in res.items() if k not in ("unresolved", "ambiguous", "name-unique"))
    status = ", ".join(f"{k} {v}" for k, v in sorted(full.by_status.items()))
    print(f"{name}: {root}")
    print(f"  files {full.files} ({nparsed} parsed; {status}); languages "
          + ", ".join(f"{lang} {n}" for lang, n in langs))
    print(f"  symbols {symbols}  edges {edges}  calls {calls}, bound without guessing "
          f"{bound / max(calls, 1):.1%}")
    print(f"  raw parse {raw:.2f} s; index without cross-file resolution {wall_fast:.2f} s = "
          f"{wall_fast / raw:.2f}x; with it {wall:.2f} s = {wall / raw:.2f}x "
          f"[resolve {full.timings.get('resolve', 0):.2f} s]")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--only", default=",".join(CORPORA), help="comma-separated corpus names")
    ap.add_argument("--cache", default=os.path.join(os.path.expanduser("~"), ".cache",
                                                    "context-workbench", "corpora"))
    ap.add_argument("--jobs", type=int, default=None)
    args = ap.parse_args()
    print(f"jobs={args.jobs or os.cpu_count()}; corpora cached in {args.cache}")
    for name in args.only.split(","):
        try:
            root = corpus(name, args.cache)
        except (OSError, RuntimeError, IndexError, subprocess.CalledProcessError) as exc:
            err = getattr(exc, "stderr", b"") or b""
            print(f"{name}: skipped, could not fetch the corpus ({exc} {err.decode(errors='replace')[:200]})")
            continue
        measure(name, root, args.jobs)


if __name__ == "__main__":
    main()
