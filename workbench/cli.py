"""Command-line twins of the Python API: `workbench index|sql|stats|demo ...`."""
from __future__ import annotations

import argparse
import os
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
SAMPLES = REPO / "sample_repos"


def _cmd_index(a) -> int:
    from .indexer import index
    from .scan import PatternError
    if not os.path.isdir(a.root):
        print(f"workbench index: not a directory: {a.root}", file=sys.stderr)
        return 2
    db = a.db or os.path.join(os.path.abspath(a.root), ".workbench.duckdb")
    try:
        report = index(a.root, db, jobs=a.jobs, exclude=tuple(a.exclude or ()),
                       max_bytes=a.max_bytes, progress=not a.quiet, resolve=not a.no_resolve,
                       wait=a.wait)
    except PatternError as exc:
        print(f"workbench index: {exc}", file=sys.stderr)
        return 2
    print(report)
    return 0


def _open(db: str):
    from .api import open as wb_open
    return wb_open(db, read_only=True)


def _cmd_sql(a) -> int:
    import duckdb
    with _open(a.db) as wb:
        try:
            rel = wb.sql(a.query)
        except duckdb.Error as exc:
            print(f"workbench sql: {exc}", file=sys.stderr)
            return 1
        if rel is None:
            return 0
        if a.csv:
            import csv
            w = csv.writer(sys.stdout)
            w.writerow(rel.columns)
            w.writerows(rel.fetchall())
        else:
            rel.show(max_rows=a.max_rows, max_width=10_000)
    return 0


def _cmd_stats(a) -> int:
    from .stats import format_stats
    with _open(a.db) as wb:
        print(format_stats(wb.stats()))
    return 0


def _cmd_demo(a) -> int:
    """Index every bundled sample repository and print a summary of each."""
    from .indexer import index
    from .stats import format_stats, stats
    from . import store
    out = Path(a.out)
    out.mkdir(parents=True, exist_ok=True)
    repos = sorted(p for p in SAMPLES.iterdir() if p.is_dir())
    for repo in repos:
        db = out / f"{repo.name}.duckdb"
        report = index(repo, str(db), progress=False)
        con = store.connect(str(db), read_only=False)
        try:
            print(f"== {repo.name}: {report.added + report.changed} parsed, "
                  f"{report.unchanged} unchanged, {report.seconds:.2f}s -> {db}")
            print(format_stats(stats(con)))
        finally:
            con.close()
        print()
    print(f"Try: workbench sql {out}/pyshop.duckdb \"SELECT kind, qualname, start_line, end_line "
          "FROM symbols WHERE path = 'shop/orders.py' ORDER BY start_line\"")
    return 0


def build_parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(prog="workbench", description=__doc__)
    sub = p.add_subparsers(dest="cmd", required=True)

    s = sub.add_parser("index", help="index a repository into DuckDB (incremental)")
    s.add_argument("root")
    s.add_argument("--db", help="database file (default: ROOT/.workbench.duckdb)")
    s.add_argument("--jobs", type=int, default=None, help="parser processes (default: all cores)")
    s.add_argument("--exclude", action="append", metavar="GLOB", help="extra gitignore-style glob (repeatable)")
    s.add_argument("--max-bytes", type=int, default=1024 * 1024, help="skip files above this size")
    s.add_argument("-q", "--quiet", action="store_true", help="no progress bar")
    s.add_argument("--wait", type=float, default=300, metavar="SECONDS",
                   help="how long to wait for another index run or a read-write connection "
                        "holding the database (default 300)")
    s.add_argument("--no-resolve", action="store_true",
                   help="skip cross-file resolution (faster; run `workbench resolve DB` later)")
    s.set_defaults(func=_cmd_index)

    s = sub.add_parser("sql", help="run SQL against an index")
    s.add_argument("db")
    s.add_argument("query")
    s.add_argument("--csv", action="store_true", help="CSV instead of a table")
    s.add_argument("--max-rows", type=int, default=200)
    s.set_defaults(func=_cmd_sql)

    s = sub.add_parser("stats", help="summary figures of an index")
    s.add_argument("db")
    s.set_defaults(func=_cmd_stats)

    s = sub.add_parser("demo", help="index the bundled sample repositories and summarise them")
    s.add_argument("--out", default="demo_dbs", help="folder for the databases")
    s.set_defaults(func=_cmd_demo)

    from .views.cli import add_parsers as _view_parsers   # outline, tool (workbench/views/cli.py)
    _view_parsers(sub)
    from .graph_cli import add_parsers as _graph_parsers  # callers, chain, ... (workbench/graph_cli.py)
    _graph_parsers(sub)
    return p


def main(argv: list[str] | None = None) -> int:
    from .api import NotAWorkbench
    from .snapshot import IndexBusy
    args = build_parser().parse_args(argv)
    try:
        return args.func(args) or 0
    except (FileNotFoundError, NotADirectoryError, NotAWorkbench, IndexBusy) as exc:
        print(f"workbench {args.cmd}: {exc}", file=sys.stderr)
        return 2


if __name__ == "__main__":
    raise SystemExit(main())
