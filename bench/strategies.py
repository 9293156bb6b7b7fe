"""Reading strategies on every function of a real repository (default: the Python standard
library), through `workbench.eval`: the tokens (cl100k) an agent spends to reach one
function's or method's body, per strategy and rule set, with hit / cut / miss counts.

Tasks are every function and method (`workbench tasks from-symbols --kind function --kind
method`), a seeded sample of them unless `--all`. Prints the distributions, the share of
tasks where each strategy beats the whole file, and a breakdown by file size.

    .venv/bin/python bench/strategies.py [--root DIR] [--db PATH] [--sample N | --all]
                                         [--strategy S ...] [--rules default full ...]
    .venv/bin/python bench/strategies.py --corpus DIR [--jobs N] ...   # every repository of a corpus
"""
from __future__ import annotations

import argparse
import os
import random
import sys
import sysconfig
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import workbench  # noqa: E402
from workbench import eval as ev  # noqa: E402
from workbench import tasks  # noqa: E402

STRATEGIES = ["whole_file", "outline_region", "outline_symbol", "hierarchical", "map_region", "resolve"]


def root_label(root: str) -> str:
    """How the printed figures name the tree (no machine paths in kept outputs)."""
    if os.path.abspath(root) == os.path.abspath(sysconfig.get_paths()["stdlib"]):
        return f"the standard library of Python {sys.version.split()[0]}"
    return os.path.basename(os.path.abspath(root))


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--root", default=sysconfig.get_paths()["stdlib"])
    ap.add_argument("--db", default=None, help="database (default: a temp file; reused if present)")
    ap.add_argument("--sample", type=int, default=4000,
                    help="tasks sampled (seeded; default 4000; with --corpus: per repository)")
    ap.add_argument("--all", action="store_true", help="every function and method")
    ap.add_argument("--seed", type=int, default=7)
    ap.add_argument("--strategy", action="append", help=f"strategies (default: {' '.join(STRATEGIES)})")
    ap.add_argument("--rules", nargs="+", default=["default", "full"], help="rule sets (default: default full)")
    ap.add_argument("--corpus", default=None, help="a corpus folder: every repository's functions, "
                                                   "with a per-repository table")
    ap.add_argument("--jobs", type=int, default=None, help="with --corpus: worker processes")
    a = ap.parse_args(argv)
    rule_sets = dict(ev.rule_set(s) for s in a.rules)
    strategies = a.strategy or STRATEGIES
    sample = None if a.all else a.sample
    load = os.getloadavg()
    if a.corpus:
        wb = workbench.open_corpus(a.corpus)
        t0 = time.perf_counter()
        wb.evaluate(strategies, rule_sets, sample=sample, seed=a.seed, name="r", jobs=a.jobs,
                    progress=False)
        print(f"corpus: {os.path.basename(os.path.abspath(a.corpus))} ({len(wb.names)} repositories); "
              f"evaluation {time.perf_counter() - t0:.1f}s; load {load[0]:.1f} {load[1]:.1f} {load[2]:.1f}")
        print(f"tasks: up to {sample:,} functions and methods per repository (seeded sample, seed {a.seed})"
              if sample else "tasks: every function and method")
        print("per repository:")
        print(ev.format_table(ev.distribution(wb.con, "r", by=("repo",))))
        print("all repositories together:")
    else:
        db = a.db or os.path.join(tempfile.gettempdir(), "workbench_bench_strategies.duckdb")
        t0 = time.perf_counter()
        wb = workbench.index(a.root, db=db, progress=False)
        t_index = time.perf_counter() - t0
        rows, _ = tasks.from_symbols(wb.con, kinds=["function", "method"], task_set="functions")
        total = len(rows)
        if sample is not None and sample < total:
            rows = random.Random(a.seed).sample(rows, sample)
        res = ev.evaluate(wb, rows, strategies, rule_sets)
        wb.con.register("r", res.results)
        print(f"root: {root_label(a.root)}")
        print(f"index: {wb.report}".replace(db, "<db>").replace(a.root, "<root>") if wb.report else "")
        print(f"index time {t_index:.1f}s; evaluation {res.seconds:.1f}s; load {load[0]:.1f} {load[1]:.1f} {load[2]:.1f}")
        print(f"tasks: {len(rows):,} of {total:,} functions and methods"
              + ("" if len(rows) == total else f" (seeded sample, seed {a.seed})"))
    print("tokenizer cl100k_base; rule sets: "
          + "; ".join(f"{k} = {workbench.views.Rules().diff(v) or 'defaults'}" for k, v in rule_sets.items()))
    same_repo = "w.repo = s.repo AND " if a.corpus else ""
    task_key = "(repo, task_id)" if a.corpus else "task_id"
    con = wb.con
    q = lambda sql: con.sql(sql).fetchall()  # noqa: E731
    print()
    print(ev.format_table(ev.distribution(con, "r", by=())))
    print()
    for rules in rule_sets:
        wins = q(f"""SELECT s.strategy, avg((s.tokens < w.tokens)::INT), avg((s.tokens <= 0.1 * s.file_tokens)::INT)
            FROM r s JOIN r w ON {same_repo}w.task_id = s.task_id AND w.rules = s.rules AND w.strategy = 'whole_file'
            WHERE s.rules = '{rules}' AND s.strategy <> 'whole_file' AND s.outcome <> 'n/a'
            GROUP BY 1 ORDER BY 1""")
        print(f"{rules}: beats the whole file / within 10% of it: "
              + ", ".join(f"{s} {b:.1%} / {t:.1%}" for s, b, t in wins))
    print()
    print("median tokens by file size (default rules):")
    for band, cnt, *meds in q("""
        WITH f AS (SELECT *, CASE WHEN file_tokens < 1000 THEN '1: < 1k tokens'
                                  WHEN file_tokens < 5000 THEN '2: 1k-5k tokens'
                                  WHEN file_tokens < 20000 THEN '3: 5k-20k tokens'
                                  ELSE '4: >= 20k tokens' END AS band
                   FROM r WHERE rules = 'default' AND outcome <> 'n/a')
        SELECT band, count(DISTINCT """ + task_key + """), """ + ", ".join(
            f"median(tokens) FILTER (WHERE strategy = '{s}')" for s in (a.strategy or STRATEGIES)) + """
        FROM f GROUP BY band ORDER BY band"""):
        print(f"  {band[3:]:<16} {cnt:>6,} tasks  " + "  ".join(
            f"{s} {m:>7,.0f}" for s, m in zip(a.strategy or STRATEGIES, meds) if m is not None))
    wb.close()
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
