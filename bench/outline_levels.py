"""Hierarchical outlines on a real repository (default: the Python standard library).

For every parsed file: the tokens of the whole file, of its whole outline and of the
default `read_outline` answer (the level that fits `outline_budget`), and the level picked;
checks that no default answer costs more than reading the file. Then the cost of level 3
(the block outline, which parses one function on request) on the longest functions.

    .venv/bin/python bench/outline_levels.py [--root DIR] [--db PATH] [--budget N] [--functions N]
"""
from __future__ import annotations

import argparse
import os
import statistics
import sys
import sysconfig
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import workbench  # noqa: E402
from workbench.views import Rules, call  # noqa: E402
from workbench.views.lookup import source_files  # noqa: E402
from workbench.views.source import file_info, read_text  # noqa: E402
from workbench.views.tokens import get_tokenizer  # noqa: E402

from strategies import root_label  # noqa: E402  (bench/strategies.py)


def q(xs, p):
    xs = sorted(xs)
    return xs[min(len(xs) - 1, int(p * (len(xs) - 1) + 0.5))] if xs else 0


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--root", default=sysconfig.get_paths()["stdlib"])
    ap.add_argument("--db", default=os.path.join(tempfile.gettempdir(), "workbench_bench_strategies.duckdb"))
    ap.add_argument("--budget", type=int, default=None, help="outline_budget (default: the rules' default)")
    ap.add_argument("--functions", type=int, default=300, help="longest functions timed at level 3")
    a = ap.parse_args(argv)
    rules = Rules() if a.budget is None else Rules(outline_budget=a.budget)
    full_rules = rules.replace(outline_budget=None)
    wb = workbench.index(a.root, db=a.db, progress=False)
    tok = get_tokenizer(rules.tokenizer)
    t0 = time.perf_counter()
    whole, full, auto, over, levels = [], [], [], [], {}
    for path in source_files(wb.con):
        info = file_info(wb.con, path)
        try:
            text = read_text(wb.root, info)
        except OSError:
            continue
        w = tok.count("\n".join(text.lines) + ("\n" if text.lines else ""))
        f = call(wb, "read_outline", {"path": path}, rules=full_rules)
        r = call(wb, "read_outline", {"path": path}, rules=rules)
        if r.error:
            continue
        whole.append(w)
        full.append(f.tokens)
        auto.append(r.tokens)
        d = r.data if isinstance(r.data, dict) else {}
        kind = "the file itself" if d.get("instead_of_outline") else \
            f"level 1{' (' + d['compact'] + ')' if d.get('compact') else ''}" if d.get("level") == 1 else "whole outline"
        levels[kind] = levels.get(kind, 0) + 1
        whole_read = call(wb, "read_region", {"path": path, "start_line": 1, "end_line": max(1, len(text.lines))},
                          rules=rules.replace(max_chars=10 ** 12)).tokens
        if r.tokens > whole_read:
            over.append((path, r.tokens, whole_read))
    t_files = time.perf_counter() - t0
    load = os.getloadavg()
    print(f"root: {root_label(a.root)}; outline_budget {rules.outline_budget}; {len(whole):,} files; "
          f"{t_files:.1f}s; load {load[0]:.1f} {load[1]:.1f} {load[2]:.1f}")
    print(f"{'tokens per file':<34}{'p25':>8}{'median':>8}{'p75':>8}{'p90':>8}{'max':>9}{'total':>12}")
    for label, xs in (("whole file", whole), ("whole outline (outline_budget none)", full),
                      ("default read_outline", auto)):
        print(f"{label:<34}{q(xs, .25):>8,}{q(xs, .5):>8,}{q(xs, .75):>8,}{q(xs, .9):>8,}{max(xs):>9,}{sum(xs):>12,}")
    ratio = [x / w for x, w in zip(auto, whole) if w]
    fratio = [x / w for x, w in zip(full, whole) if w]
    print(f"outline / whole file: whole outline median {statistics.median(fratio):.1%}, "
          f"default read_outline median {statistics.median(ratio):.1%}")
    print("what the default read_outline sent: " + ", ".join(f"{k} {v:,}" for k, v in sorted(levels.items())))
    print(f"default read_outline larger than reading the whole file: {len(over)} files"
          + (f" e.g. {over[:3]}" if over else ""))
    rows = wb.sql("""SELECT path, qualname FROM symbols WHERE language = 'python'
        AND kind IN ('function', 'method') ORDER BY end_line - start_line DESC LIMIT ?""", [a.functions]).fetchall()
    times, sizes = [], []
    for path, qual in rows:
        t1 = time.perf_counter()
        r = call(wb, "read_outline", {"path": path, "symbol": qual, "level": 3}, rules=rules)
        times.append(time.perf_counter() - t1)
        sizes.append(r.tokens)
    print(f"level 3 (blocks) of the {len(rows)} longest functions: median {statistics.median(times) * 1000:.1f} ms, "
          f"p90 {q(times, .9) * 1000:.1f} ms per answer (one function parsed each); "
          f"answer tokens median {statistics.median(sizes):,.0f}, p90 {q(sizes, .9):,}")
    wb.close()
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
