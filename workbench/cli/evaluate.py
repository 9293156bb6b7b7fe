"""Task sets and their evaluation: `workbench tasks from-git|from-symbols|list|export` and
`workbench eval` (docs/eval.md).

    workbench tasks from-git ~/src/requests --from v2.31.0 --to v2.32.0 --db requests.duckdb
    workbench tasks from-symbols pyshop.duckdb shop.orders.place_order shop/cli.py:main
    workbench tasks list requests.duckdb
    workbench eval requests.duckdb --strategy outline_region --strategy resolve --rules default full
"""
from __future__ import annotations

import os

from .common import add_command, fail, open_db, out


def cmd_from_git(a) -> int:
    from ..tasks import GitError, GitRepo, from_git, prepare, save
    try:
        repo = GitRepo(a.repo)
        db = a.db or f"{repo.name}-{a.from_rev.replace('/', '-')}.duckdb"
        rows = from_git(repo, a.from_rev, a.to_rev, task_set=a.name, include=a.include or (),
                        exclude=a.exclude or (), docstrings=a.docstrings, progress=not a.quiet)
        if not a.no_index:
            report = prepare(repo, a.from_rev, db, checkout=a.checkout, progress=not a.quiet)
            out(str(report))
    except GitError as exc:
        return fail("tasks from-git", str(exc))
    if a.no_index and not os.path.exists(db):
        import duckdb
        duckdb.connect(db).close()
    with open_db(db, read_only=False) as wb:
        tbl = save(wb.con, rows, a.name)
    counts = {}
    for r in rows:
        counts[r["change"]] = counts.get(r["change"], 0) + 1
    name = tbl.column("task_set")[0].as_py() if tbl.num_rows else (a.name or "")
    out(f"{tbl.num_rows} tasks ({', '.join(f'{v} {k}' for k, v in sorted(counts.items())) or 'none'}) "
        f"in {len({r['path'] for r in rows})} files -> {db}, table tasks, set {name!r}")
    if a.out:
        from ..tasks import export
        with open_db(db) as wb:
            export(wb.con, a.out, task_set=name)
        out(f"exported to {a.out}")
    return 0


def cmd_from_symbols(a) -> int:
    from ..tasks import from_symbols, save
    names = list(a.names or [])
    if a.file:
        with open(a.file, encoding="utf-8") as fh:
            names += [ln.strip() for ln in fh if ln.strip() and not ln.startswith("#")]
    with open_db(a.db, read_only=False) as wb:
        try:
            rows, missing = from_symbols(wb.con, names, kinds=a.kind or (), paths=a.path or (),
                                         task_set=a.name, origin=a.file)
        except ValueError as exc:
            return fail("tasks from-symbols", str(exc))
        tbl = save(wb.con, rows, a.name)
    out(f"{tbl.num_rows} tasks -> {a.db}, table tasks, set {a.name!r}")
    if missing:
        out(f"not found ({len(missing)}): " + ", ".join(missing))
    return 0


def cmd_from_log(a) -> int:
    from ..tasks import from_log, save
    with open_db(a.db, read_only=False) as wb:
        try:
            rows, skipped = from_log(wb.con, a.log, sessions=a.session or (), task_set=a.name,
                                     per_session=not a.once, max_per_read=a.max_per_read)
        except (ValueError, FileNotFoundError) as exc:
            return fail("tasks from-log", str(exc))
        tbl = save(wb.con, rows, a.name)
    out(f"{tbl.num_rows} tasks (definitions the agent read) -> {a.db}, table tasks, set {a.name!r}")
    if skipped:
        why: dict[str, int] = {}
        for *_, reason in skipped:
            key = reason.split(" (")[0] if "holds" in reason else reason
            why[key] = why.get(key, 0) + 1
        out(f"calls left out ({len(skipped)}): " + "; ".join(f"{n} x {k}" for k, n in sorted(why.items())))
    return 0


def cmd_list(a) -> int:
    from ..tasks import summary
    with open_db(a.db) as wb:
        rows = summary(wb.con)
    if not rows:
        out("no task sets in this database (workbench tasks from-git / from-symbols)")
        return 0
    out(f"{'task set':<40} {'source':<8} {'tasks':>6} {'modified':>9} {'added':>6} {'deleted':>8} {'files':>6}")
    for s, src, n, m, ad, d, f in rows:
        out(f"{s:<40} {src:<8} {n:>6} {m:>9} {ad:>6} {d:>8} {f:>6}")
    return 0


def cmd_export(a) -> int:
    from ..tasks import export
    with open_db(a.db) as wb:
        try:
            n = export(wb.con, a.file, task_set=a.set)
        except (ValueError, LookupError) as exc:
            return fail("tasks export", str(exc))
    out(f"{n} tasks -> {a.file}")
    return 0


def cmd_eval(a) -> int:
    from .. import eval as ev
    from ..tasks import load
    from ..views.rules import Rules
    try:
        specs = a.rules or ["default"]
        rule_sets = dict(ev.rule_set(s) for s in specs)
        if a.rule:
            rule_sets = {k: Rules.parse_assignments(a.rule, v) for k, v in rule_sets.items()}
        for s in a.strategy or ():
            ev.strategies.parse(s)
    except (ValueError, TypeError) as exc:
        return fail("eval", str(exc))
    if a.corpus:
        return _eval_corpus(a, rule_sets)
    if a.db is None:
        return fail("eval", "give an index database (or --corpus DIR)")
    with open_db(a.db, read_only=a.no_store) as wb:
        try:
            tbl = load(wb.con, a.tasks, task_set=a.set)
        except (ValueError, LookupError, FileNotFoundError, TypeError) as exc:
            return fail("eval", str(exc))
        if a.limit:
            tbl = tbl.slice(0, a.limit)
        if tbl.num_rows == 0:
            return fail("eval", "no tasks to evaluate")
        run_id = ev.next_run_id(wb.con)
        res = ev.evaluate(wb, tbl, a.strategy, rule_sets, progress=not a.quiet, run_id=run_id)
        if not a.no_store:
            ev.store_results(wb.con, res)
        by = ("task_set",) if len(set(tbl.column("task_set").to_pylist())) > 1 else ()
        out(ev.format_table(ev.distribution(wb.con, res.results, by=by)))
        stored = "" if a.no_store else f"; stored as run {run_id} (tables eval_results, eval_calls)"
        out(f"{tbl.num_rows} tasks x {len(a.strategy or ev.DEFAULT_STRATEGIES)} strategies x "
            f"{len(rule_sets)} rule sets in {res.seconds:.1f}s{stored}")
        if a.out:
            import duckdb
            with duckdb.connect() as c:
                c.register("r", res.results)
                ext = os.path.splitext(a.out)[1].lower()
                fmt = {".parquet": "parquet", ".csv": "csv, HEADER", ".json": "json, ARRAY true"}.get(ext)
                if fmt is None:
                    return fail("eval", f"--out takes a .parquet, .csv or .json file, not {a.out!r}")
                c.execute(f"COPY r TO '{a.out.replace(chr(39), chr(39) * 2)}' (FORMAT {fmt})")
            out(f"results written to {a.out}")
    return 0


def _eval_corpus(a, rule_sets) -> int:
    import time

    from .. import eval as ev
    from ..corpus import LayoutError, open_corpus
    if a.db is not None or a.tasks is not None:
        return fail("eval", "with --corpus the tasks are each repository's functions and methods: "
                            "give no database or task table")
    try:
        corpus = open_corpus(a.corpus)
    except (LayoutError, FileNotFoundError, NotADirectoryError) as exc:
        return fail("eval", str(exc))
    with corpus:
        if not corpus.names:
            return fail("eval", f"no repository of {a.corpus} indexed")
        t0 = time.perf_counter()
        corpus.evaluate(a.strategy, rule_sets, sample=a.sample, engine=a.engine, jobs=a.jobs,
                        progress=not a.quiet)
        out(ev.format_table(ev.distribution(corpus.con, "eval_results", by=("repo",))))
        out("all repositories together:")
        out(ev.format_table(ev.distribution(corpus.con, "eval_results", by=())))
        n = corpus.sql("SELECT count(DISTINCT (repo, task_id)) FROM eval_results").fetchall()[0][0]
        out(f"{n} tasks in {len(corpus.names)} repositories x {len(a.strategy or ev.DEFAULT_STRATEGIES)} "
            f"strategies x {len(rule_sets)} rule sets in {time.perf_counter() - t0:.1f}s")
        if a.out:
            ext = os.path.splitext(a.out)[1].lower()
            fmt = {".parquet": "parquet", ".csv": "csv, HEADER", ".json": "json, ARRAY true"}.get(ext)
            if fmt is None:
                return fail("eval", f"--out takes a .parquet, .csv or .json file, not {a.out!r}")
            corpus.con.execute(f"COPY eval_results TO '{a.out.replace(chr(39), chr(39) * 2)}' (FORMAT {fmt})")
            out(f"results written to {a.out}")
    return 0


def add_parsers(sub) -> None:
    t = add_command(sub, "tasks", "build task sets (definitions to reach) from git history or names",
                    description="Build task sets: the definitions an agent has to reach, from the "
                                "changes between two revisions of a git repository or from names "
                                "(docs/eval.md).",
                    examples=("tasks from-git ~/src/requests --from v2.31.0 --to v2.32.0",
                              "tasks from-symbols pyshop.duckdb shop.orders.place_order",
                              "tasks list pyshop.duckdb"))
    tsub = t.add_subparsers(dest="tasks_cmd", required=True, metavar="SUBCOMMAND",
                            help="from-git, from-symbols, from-log, list or export")

    s = add_command(tsub, "from-git", "the definitions changed between two revisions of a git repository",
                    examples=("tasks from-git ~/src/requests --from v2.31.0 --to v2.32.0 --db requests.duckdb",))
    s.add_argument("repo", help="a git repository (work tree or bare)")
    s.add_argument("--from", dest="from_rev", required=True, metavar="REV", help="old revision (tag, branch, hash)")
    s.add_argument("--to", dest="to_rev", required=True, metavar="REV", help="new revision")
    s.add_argument("--db", help="database for the tasks and the index of the old revision "
                                "(default: REPO_NAME-FROM.duckdb)")
    s.add_argument("--name", help="task set name (default: 'REPO FROM..TO')")
    s.add_argument("--checkout", metavar="DIR", help="folder for the old revision's files (default: next "
                                                     "to the database, named after the commit)")
    s.add_argument("--no-index", action="store_true", help="only the task table; do not export and index "
                                                           "the old revision")
    s.add_argument("--include", action="append", metavar="GLOB", help="only paths under this prefix or glob")
    s.add_argument("--exclude", action="append", metavar="GLOB", help="leave out paths under this prefix or glob")
    s.add_argument("--docstrings", action="store_true", help="a changed docstring alone makes a task")
    s.add_argument("--out", metavar="FILE", help="also export the task set (.parquet, .csv, .json)")
    s.add_argument("-q", "--quiet", action="store_true", help="no progress bars")
    s.set_defaults(func=cmd_from_git, cmd="tasks from-git")

    s = add_command(tsub, "from-symbols", "tasks for named definitions of an index",
                    examples=("tasks from-symbols pyshop.duckdb shop.orders.place_order shop/cli.py:main",
                              "tasks from-symbols pyshop.duckdb --kind function --kind method --name functions"))
    s.add_argument("db")
    s.add_argument("names", nargs="*", metavar="NAME", help="qualified name, name, or PATH:NAME")
    s.add_argument("--file", help="a file of names, one per line")
    s.add_argument("--kind", action="append", help="only definitions of this kind; without names: "
                                                   "every definition of it (repeatable)")
    s.add_argument("--path", action="append", metavar="PREFIX", help="only definitions under this path")
    s.add_argument("--name", default="symbols", help="task set name (default: symbols)")
    s.set_defaults(func=cmd_from_symbols, cmd="tasks from-symbols")

    s = add_command(tsub, "from-log", "the definitions an agent read, from a call log of workbench serve --log",
                    examples=("tasks from-log pyshop.duckdb calls.duckdb --name session-1",))
    s.add_argument("db", help="the index the agent was served from (its revision)")
    s.add_argument("log", help="the call log file (workbench serve --log FILE)")
    s.add_argument("--session", action="append", metavar="ID", help="only this session (repeatable)")
    s.add_argument("--name", default="log", help="task set name (default: log)")
    s.add_argument("--once", action="store_true",
                   help="one task per definition over all sessions (default: one per session)")
    s.add_argument("--max-per-read", type=int, default=3, metavar="N",
                   help="a region holding more than N definitions is exploration, not a target (default 3)")
    s.set_defaults(func=cmd_from_log, cmd="tasks from-log")

    s = add_command(tsub, "list", "the task sets of a database", examples=("tasks list pyshop.duckdb",))
    s.add_argument("db")
    s.set_defaults(func=cmd_list, cmd="tasks list")

    s = add_command(tsub, "export", "write tasks to a .parquet, .csv or .json file",
                    examples=("tasks export pyshop.duckdb tasks.parquet --set functions",))
    s.add_argument("db")
    s.add_argument("file")
    s.add_argument("--set", metavar="NAME", help="only this task set (default: every set)")
    s.set_defaults(func=cmd_export, cmd="tasks export")

    s = add_command(sub, "eval", "run reading strategies over tasks under rule sets; print distributions",
                    description="Run reading strategies over a task set under rule sets, through the "
                                "real tools: tokens, calls and hit / cut / miss per task; prints the "
                                "distributions and stores the results (docs/eval.md).",
                    examples=("eval requests.duckdb --strategy outline_region --strategy resolve "
                              "--rules default full",
                              "eval pyshop.duckdb functions.parquet --no-store --out results.csv",
                              "eval --corpus corpus/ --sample 100 --jobs 2"))
    s.add_argument("db", nargs="?", default=None,
                   help="index database (of the revision the tasks' ranges refer to)")
    s.add_argument("tasks", nargs="?", default=None,
                   help="task table: a table of DB (default: tasks) or a .parquet/.csv/.json/.duckdb file")
    s.add_argument("--strategy", action="append", metavar="S",
                   help="strategy, e.g. outline_region or first_n:200 (repeatable; default: all)")
    s.add_argument("--rules", nargs="+", metavar="FILE|PRESET",
                   help="rule sets: TOML files of Rules fields or presets (default full lean names); "
                        "default: default")
    s.add_argument("--rule", action="append", metavar="NAME=VALUE", help="change a rule in every rule set (repeatable)")
    s.add_argument("--set", metavar="NAME", help="only this task set (default: every set)")
    s.add_argument("--limit", type=int, metavar="N", help="only the first N tasks (default: all)")
    s.add_argument("--out", metavar="FILE", help="also write the results (.parquet, .csv, .json; default: not)")
    s.add_argument("--no-store", action="store_true", help="do not store the results in DB")
    s.add_argument("--corpus", metavar="DIR", help="evaluate every repository of a corpus (its functions "
                                                   "and methods as tasks) instead of one database "
                                                   "(default: not)")
    s.add_argument("--sample", type=int, default=200, metavar="N",
                   help="with --corpus: functions and methods per repository, a seeded sample (default 200)")
    s.add_argument("--engine", choices=["local", "dask"], default="local", help="with --corpus: engine (default local: a process pool)")
    s.add_argument("--jobs", type=int, metavar="N", help="with --corpus: worker processes (default: the cores)")
    s.add_argument("-q", "--quiet", action="store_true", help="no progress bar")
    s.set_defaults(func=cmd_eval)
