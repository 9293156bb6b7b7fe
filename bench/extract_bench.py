"""Benchmark: extraction time (parse + queries + rows, one process, no database) of a corpus,
against the raw tree-sitter parse of the same files, and what the C/C++ macro repair costs.

For each root: the raw parse time, the time of the parse plus the language's queries alone
(the matches built, no rows: the floor under extraction as written with tree-sitter
queries), the extraction time, their ratios to the raw parse, and for C/C++ files
the extraction time with the macro repair switched off (same process, same run) and how
many files it re-parsed. The cyclic garbage collector is off while timing, as in the
indexer's parser processes (with it on, extraction takes ~8% more CPU on the standard
library, time the index never spends). Times are the process's CPU time (`time.process_time`), which
other work on a shared machine disturbs far less than wall time; three runs each, the
minimum kept. `--compare CHECKOUT` runs the
same measurement under another checkout of the project (for example the code before a
change) in alternation with this one, so both see the same machine load.

    .venv/bin/python bench/extract_bench.py [--root DIR ...] [--compare CHECKOUT] [--runs 3]
"""
from __future__ import annotations

import argparse
import dataclasses
import json
import os
import subprocess
import sys
import sysconfig
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent.parent


def _files(root: str):
    from workbench.languages import detect, refine
    from workbench.scan import scan
    out = []
    for e in scan(root).entries:
        spec = detect(e.path)
        if e.skip_reason or spec is None or not spec.parse:
            continue
        data = Path(e.abspath).read_bytes()
        if b"\x00" in data[:8192]:
            continue
        out.append((e.path, data, refine(spec, e.path, data)))
    return out


def measure(root: str, runs: int) -> dict:
    """Minimum over `runs` of: raw parse, extraction, and (C/C++) extraction without repair,
    with the cyclic collector off as in the indexer's parser processes."""
    import gc
    enabled = gc.isenabled()
    gc.disable()
    try:
        return _measure(root, runs)
    finally:
        if enabled:
            gc.enable()


def _measure(root: str, runs: int) -> dict:
    from tree_sitter import Parser, QueryCursor

    from workbench.compiled_queries import compiled
    from workbench.extract import extract_file
    from workbench.languages import grammar
    files = _files(root)
    for _, _, spec in files:
        compiled(spec)                   # compile queries outside the timings
    parsers = {}
    has_repair = any(f.name == "macro_repair" for f in dataclasses.fields(files[0][2])) if files else False
    plain = {}
    if has_repair:
        plain = {s.name: dataclasses.replace(s, macro_repair=False)
                 for _, _, s in files if s.name in ("c", "cpp")}
    res = {"files": len(files), "c_cpp_files": sum(s.name in ("c", "cpp") for _, _, s in files)}
    best = {"raw": 1e9, "queries": 1e9, "extract": 1e9, "extract_no_repair": 1e9}
    # (a checkout older than `_Compiled.matches` has no such step to time)
    queries = bool(files) and hasattr(compiled(files[0][2]), "matches")
    repaired = 0
    for _ in range(runs):
        t0 = time.process_time()
        for _, data, spec in files:
            p = parsers.get(spec.grammar) or parsers.setdefault(spec.grammar, Parser(grammar(spec.grammar)))
            p.parse(data)
        best["raw"] = min(best["raw"], time.process_time() - t0)
        if queries:                      # the floor under extraction: parse and match, no rows
            t0 = time.process_time()
            for _, data, spec in files:
                c = compiled(spec)
                root = c.parser.parse(data).root_node
                if root.has_error:
                    QueryCursor(c.errors).captures(root)
                c.matches(root)
            best["queries"] = min(best["queries"], time.process_time() - t0)
        t0 = time.process_time()
        for path, data, spec in files:
            extract_file(path, data, spec)
        best["extract"] = min(best["extract"], time.process_time() - t0)
        if plain:
            t0 = time.process_time()
            for path, data, spec in files:
                extract_file(path, data, plain.get(spec.name, spec))
            best["extract_no_repair"] = min(best["extract_no_repair"], time.process_time() - t0)
    if plain:
        from workbench.languages import macro_repair
        repaired = sum(1 for _, data, s in files if s.name in ("c", "cpp") and (
            compiled(s).parser.parse(data).root_node.has_error or macro_repair.suspect(data)))
    res.update({k: round(v, 3) for k, v in best.items() if v < 1e9}, repair_candidates=repaired)
    return res


def _child(checkout: str, root: str, runs: int) -> dict:
    code = (f"import sys, json; sys.path.insert(0, {str(checkout)!r}); sys.path.insert(0, {str(HERE)!r});"
            f"from bench.extract_bench import measure; sys.path.pop(0);"
            f"print(json.dumps(measure({root!r}, {runs})))")
    env = dict(os.environ, PYTHONPATH=str(checkout))
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=env,
                         cwd=checkout, check=True)
    return json.loads(out.stdout.strip().splitlines()[-1])


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--root", action="append", help="corpus root (repeatable; default: the stdlib)")
    ap.add_argument("--compare", help="another checkout of the project to measure in alternation")
    ap.add_argument("--runs", type=int, default=3)
    args = ap.parse_args()
    roots = args.root or [sysconfig.get_paths()["stdlib"]]
    print(f"load average {os.getloadavg()[0]:.2f}; runs {args.runs} (minimum kept); CPU seconds")
    for root in roots:
        this = _child(str(HERE), root, args.runs)
        print(f"{root}: {this['files']} files ({this['c_cpp_files']} C/C++)")
        line = f"  this checkout: raw parse {this['raw']:.2f} s, "
        if "queries" in this:
            line += f"parse + queries (no rows) {this['queries']:.2f} s = {this['queries'] / this['raw']:.2f}x, "
        line += f"extraction {this['extract']:.2f} s = {this['extract'] / this['raw']:.2f}x"
        if "extract_no_repair" in this:
            line += (f"; without the macro repair {this['extract_no_repair']:.2f} s "
                     f"({this['repair_candidates']} files re-parsed)")
        print(line)
        if args.compare:
            other = _child(args.compare, root, args.runs)
            print(f"  {args.compare}: raw parse {other['raw']:.2f} s, extraction {other['extract']:.2f} s "
                  f"= {other['extract'] / other['raw']:.2f}x; this / that extraction "
                  f"{this['extract'] / other['extract']:.3f}")


if __name__ == "__main__":
    main()
