"""Rule sets measured on real edits: task sets from the git history of real projects.

For each (project, old release, new release): the definitions whose code changed between
the two releases (`workbench tasks from-git`), the old release indexed, then every
strategy under every rule set (`workbench eval`). Prints the distribution of tokens per
strategy and rule set (p25 / median / p75 / p90, median share of the whole file, hit / cut
/ miss / n/a) per project and over all projects, and checks the targets: the best default
strategy under 10% of the whole file with no misses, and the default read_outline of
every file no larger than the file.

Repositories are found on disk (`--repos DIR`: `DIR/NAME`, `DIR/OWNER+NAME/repo` or
`DIR/NAME.git`, bare or not) or cloned from GitHub into the work folder (needs network).
Nothing is kept in this repository but the printed figures.

    .venv/bin/python bench/eval_history.py --repos ~/src [--work DIR] [--rules default full lean]
    .venv/bin/python bench/eval_history.py --project requests=PATH:v2.31.0:v2.32.0
"""
from __future__ import annotations

import argparse
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import workbench  # noqa: E402
from workbench import eval as ev  # noqa: E402
from workbench import tasks  # noqa: E402
from workbench.views import Rules, call  # noqa: E402

# (name, GitHub owner/name, [(old release, new release), ...])
PROJECTS = [
    ("requests", "psf/requests", [("v2.31.0", "v2.32.0"), ("v2.32.5", "v2.33.0")]),
    ("rich", "Textualize/rich", [("v14.0.0", "v14.1.0"), ("v14.2.0", "v14.3.0")]),
    ("click", "pallets/click", [("8.4.0", "8.4.1"), ("8.3.2", "8.3.3")]),
    ("attrs", "python-attrs/attrs", [("24.2.0", "24.3.0"), ("25.1.0", "25.2.0")]),
    ("flask", "pallets/flask", [("3.0.0", "3.0.1"), ("3.1.2", "3.1.3")]),
    ("httpx", "encode/httpx", [("0.27.0", "0.27.1"), ("0.25.1", "0.25.2")]),
]


def find_repo(repos_dir: str | None, name: str, slug: str, work: str) -> str:
    owner, repo = slug.split("/")
    if repos_dir:
        for cand in (f"{repos_dir}/{repo}", f"{repos_dir}/{owner}+{repo}/repo", f"{repos_dir}/{repo}.git",
                     f"{repos_dir}/{name}"):
            if os.path.isdir(cand):
                return cand
    dest = os.path.join(work, "repos", repo)
    if not os.path.isdir(dest):
        print(f"cloning https://github.com/{slug} into {dest}", flush=True)
        subprocess.run(["git", "clone", "--quiet", "--bare", f"https://github.com/{slug}", dest], check=True)
    return dest


def outline_never_larger(wb, rules: Rules) -> tuple[int, int, list]:
    """(files checked, files whose default read_outline costs more than the file, examples)."""
    from workbench.views.lookup import source_files
    from workbench.views.source import file_info, read_text
    from workbench.views.tokens import get_tokenizer
    tok = get_tokenizer(rules.tokenizer)
    bad, n = [], 0
    for path in source_files(wb.con):
        info = file_info(wb.con, path)
        text = read_text(wb.root, info)
        whole = tok.count("\n".join(text.lines) + ("\n" if text.lines else ""))
        region = call(wb, "read_region", {"path": path, "start_line": 1, "end_line": max(1, len(text.lines))},
                      rules=rules.replace(max_chars=10 ** 12))
        r = call(wb, "read_outline", {"path": path}, rules=rules)
        n += 1
        if r.tokens > max(whole, region.tokens):
            bad.append((path, r.tokens, whole))
    return n, len(bad), bad[:5]


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--repos", help="folder holding the repositories (else they are cloned)")
    ap.add_argument("--work", default=os.path.join(tempfile.gettempdir(), "workbench_eval_history"),
                    help="folder for old-release trees and databases (reused)")
    ap.add_argument("--project", action="append", metavar="NAME=PATH:FROM:TO",
                    help="evaluate this instead of the built-in list (repeatable)")
    ap.add_argument("--only", action="append", metavar="NAME", help="only these built-in projects")
    ap.add_argument("--strategy", action="append", help="strategies (default: all built in)")
    ap.add_argument("--rules", nargs="+", default=["default", "full", "lean"],
                    help="rule sets: presets or TOML files (default: default full lean)")
    ap.add_argument("--no-outline-check", action="store_true", help="skip the read_outline <= file check")
    a = ap.parse_args(argv)
    os.makedirs(a.work, exist_ok=True)

    jobs = []          # (project, repo path, from, to)
    if a.project:
        for spec in a.project:
            name, rest = spec.split("=", 1)
            path, frm, to = rest.rsplit(":", 2)
            jobs.append((name, path, frm, to))
    else:
        for name, slug, pairs in PROJECTS:
            if a.only and name not in a.only:
                continue
            path = find_repo(a.repos, name, slug, a.work)
            jobs += [(name, path, frm, to) for frm, to in pairs]
    rule_sets = dict(ev.rule_set(s) for s in a.rules)
    load = os.getloadavg()
    print(f"# bench/eval_history.py  ({time.strftime('%Y-%m-%d')}, Python {sys.version.split()[0]}, "
          f"load {load[0]:.1f} {load[1]:.1f} {load[2]:.1f})")
    print(f"rule sets: " + "; ".join(f"{k} = {Rules().diff(v) or 'defaults'}" for k, v in rule_sets.items()))
    import pyarrow as pa
    all_results = []
    checks = []
    for name, path, frm, to in jobs:
        t0 = time.perf_counter()
        db = os.path.join(a.work, f"{name}-{frm}.duckdb")
        tasks.prepare(path, frm, db)
        rows = tasks.from_git(path, frm, to, task_set=name)
        t_tasks = time.perf_counter() - t0
        with workbench.open(db) as wb:
            tasks.save(wb.con, rows, f"{name} {frm}..{to}")
            t1 = time.perf_counter()
            res = ev.evaluate(wb, tasks.load(wb.con, task_set=f"{name} {frm}..{to}"), a.strategy, rule_sets)
            res_tbl = res.results.set_column(res.results.column_names.index("task_set"), "task_set",
                                             pa.array([name] * res.results.num_rows, pa.string()))
            all_results.append(res_tbl)
            changes = {}
            for r in rows:
                changes[r["change"]] = changes.get(r["change"], 0) + 1
            print(f"\n## {name} {frm}..{to}: {len(rows)} tasks "
                  f"({', '.join(f'{v} {k}' for k, v in sorted(changes.items()))}) in "
                  f"{len({r['path'] for r in rows})} files; tasks + index {t_tasks:.1f}s, eval {res.seconds:.1f}s")
            if not a.no_outline_check:
                n, bad, ex = outline_never_larger(wb, Rules())
                checks.append((name, frm, n, bad, ex))
                print(f"default read_outline larger than the whole file: {bad} of {n} files" +
                      (f" e.g. {ex}" if ex else ""))
    import duckdb
    con = duckdb.connect()
    allr = pa.concat_tables(all_results)
    con.register("allr", allr)
    for project in dict.fromkeys(r[0] for r in jobs):
        print(f"\n### {project} (all its task sets)")
        print(ev.format_table(ev.distribution(con, "allr", by=(), where=f"task_set = '{project}'")))
    print("\n### all projects")
    print(ev.format_table(ev.distribution(con, "allr", by=())))
    print("\n### all projects, by change")
    print(ev.format_table(ev.distribution(con, "allr", by=("change",),
                                          where="rules = 'default' AND outcome <> 'n/a'")))
    # the target: the best default strategy under 10% of the whole file, no misses
    best = con.execute("""SELECT strategy, median(share), count(*) FILTER (WHERE outcome IN ('miss', 'cut'))
        FROM allr WHERE rules = 'default' AND outcome <> 'n/a' GROUP BY strategy
        ORDER BY count(*) FILTER (WHERE outcome IN ('miss', 'cut')), median(share) LIMIT 1""").fetchall()[0]
    print(f"\nbest default strategy: {best[0]}, median {best[1]:.1%} of the whole file, {best[2]} misses or cuts "
          f"-> target (< 10%, no misses) {'met' if best[1] < 0.10 and best[2] == 0 else 'NOT met'}")
    per_project = con.execute("""SELECT task_set, median(share), count(*) FILTER (WHERE outcome IN ('miss', 'cut'))
        FROM allr WHERE rules = 'default' AND strategy = ? AND outcome <> 'n/a' GROUP BY 1 ORDER BY 1""",
                              [best[0]]).fetchall()
    print("  per project: " + ", ".join(f"{p} {m:.1%} ({x} misses)" for p, m, x in per_project))
    if checks:
        total = sum(c[2] for c in checks)
        over = sum(c[3] for c in checks)
        print(f"default read_outline larger than the whole file: {over} of {total} files "
              f"-> target {'met' if over == 0 else 'NOT met'}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
