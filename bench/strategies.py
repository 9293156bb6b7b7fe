"""Strategy comparison on a real repository (default: the Python standard library).

For every function and method: the tokens (cl100k) an agent spends to get its body with
(a) a whole-file read, (b) read_outline then read_region, (c) repo_map then read_region
(plus the outline when the symbol is not on the map). Prints quartiles of each, the share
of symbols where (b) beats (a), and a few breakdowns.

    .venv/bin/python bench/strategies.py [--root DIR] [--db PATH] [--map-budget N] [--max-chars N]
    .venv/bin/python bench/strategies.py --corpus DIR [--jobs N]    # every repository of a corpus
"""
from __future__ import annotations

import argparse
import os
import sys
import sysconfig
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import workbench  # noqa: E402
from workbench.views import Rules  # noqa: E402
from workbench.views.strategies import strategy_rows  # noqa: E402


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--root", default=sysconfig.get_paths()["stdlib"])
    ap.add_argument("--db", default=None, help="database (default: a temp file; reused if present)")
    ap.add_argument("--map-budget", type=int, default=1024)
    ap.add_argument("--max-chars", type=int, default=6000)
    ap.add_argument("--corpus", default=None, help="a corpus folder: every repository's table, "
                                                   "one row per function with its repo")
    ap.add_argument("--jobs", type=int, default=None, help="with --corpus: worker processes")
    a = ap.parse_args(argv)
    rules = Rules(max_chars=a.max_chars, repo_map_budget=a.map_budget)
    if a.corpus:
        wb = workbench.open_corpus(a.corpus)
        t0 = time.perf_counter()
        wb.strategy_table(rules, map_budget=a.map_budget, jobs=a.jobs, progress=False)
        print(f"corpus: {a.corpus} ({len(wb.names)} repositories); strategy tables "
              f"{time.perf_counter() - t0:.1f}s; per repository (medians, tokens):")
        for row in wb.sql("""SELECT repo, count(*), median(whole_file), median(outline_region),
                                    median(map_region), avg((outline_region < whole_file)::INT)
                             FROM strategies GROUP BY repo ORDER BY repo""").fetchall():
            print(f"  {row[0]:<28}{row[1]:>7,} functions  (a) {row[2]:>7,.0f}  (b) {row[3]:>7,.0f}"
                  f"  (c) {row[4]:>7,.0f}  (b) beats (a) {row[5]:6.1%}")
        print("all repositories together:")
    else:
        db = a.db or os.path.join(tempfile.gettempdir(), "workbench_bench_strategies.duckdb")
        t0 = time.perf_counter()
        wb = workbench.index(a.root, db=db, progress=False)
        t_index = time.perf_counter() - t0
        tbl, facts = strategy_rows(wb, rules, map_budget=a.map_budget)
        wb.con.register("strategies", tbl)
    con = wb.con
    q = lambda sql: con.sql(sql).fetchall()  # noqa: E731

    n, files = q("SELECT count(*), count(DISTINCT path) FROM strategies")[0]
    if not a.corpus:
        print(f"root: {a.root}")
        print(f"index: {wb.report}".replace(db, "<db>") if wb.report else "")
        print(f"index time {t_index:.1f}s; strategy table {facts['seconds']:.1f}s "
              f"(repo map {facts['map_seconds']:.1f}s)")
        print(f"symbols: {n:,} functions and methods in {files:,} files; tokenizer cl100k_base; "
              f"read_region cap {a.max_chars:,} chars; repo map budget {a.map_budget:,} tokens "
              f"-> {facts['map_tokens']:,} tokens, {facts['map_shown']} definitions shown")
    print()
    print(f"{'strategy':<34}{'p25':>9}{'median':>9}{'p75':>9}{'p90':>9}{'mean':>10}")
    for label, col in (("(a) whole file", "whole_file"),
                       ("(b) outline + region", "outline_region"),
                       ("(c) repo map + region (+outline)", "map_region"),
                       ("    region alone", "region_tokens"),
                       ("    outline alone", "outline_tokens")):
        p25, p50, p75, p90, mean = q(f"""SELECT quantile_cont({col}, 0.25), median({col}),
            quantile_cont({col}, 0.75), quantile_cont({col}, 0.9), avg({col}) FROM strategies""")[0]
        print(f"{label:<34}{p25:>9,.0f}{p50:>9,.0f}{p75:>9,.0f}{p90:>9,.0f}{mean:>10,.1f}")
    print()
    b_wins, c_wins, ties, in_map, in_outline, multi = q("""SELECT
        avg((outline_region < whole_file)::INT), avg((map_region < whole_file)::INT),
        avg((outline_region = whole_file)::INT), avg(in_map::INT), avg(in_outline::INT),
        avg((region_calls > 1)::INT) FROM strategies""")[0]
    print(f"(b) beats (a) for {b_wins:.1%} of symbols (ties {ties:.1%}); "
          f"(c) beats (a) for {c_wins:.1%}")
    print(f"symbol on the repo map: {in_map:.1%}; in its file's outline: {in_outline:.1%}; "
          f"region needed more than one read_region call: {multi:.1%}")
    tot_a, tot_b = q("SELECT sum(whole_file), sum(outline_region) FROM strategies")[0]
    print(f"total over all symbols: (a) {tot_a:,} tokens, (b) {tot_b:,} tokens "
          f"({1 - tot_b / tot_a:.1%} fewer)")
    print()
    print("share of symbols where (b) beats (a), by file size:")
    for band, cnt, share, med_a, med_b in q("""
        SELECT CASE WHEN file_lines < 100 THEN '1: < 100 lines'
                    WHEN file_lines < 300 THEN '2: 100-299 lines'
                    WHEN file_lines < 1000 THEN '3: 300-999 lines'
                    ELSE '4: >= 1000 lines' END AS band,
               count(*), avg((outline_region < whole_file)::INT), median(whole_file),
               median(outline_region)
        FROM strategies GROUP BY band ORDER BY band"""):
        print(f"  {band[3:]:<16} {cnt:>7,} symbols  (b) wins {share:6.1%}   "
              f"median (a) {med_a:>8,.0f}  (b) {med_b:>7,.0f}")
    wb.close()
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
