"""Commands over the index itself: `workbench index|resolve|stats|sql|demo|callgraph`."""
from __future__ import annotations

import json
import os
from pathlib import Path

from .common import fail, open_db, out

SAMPLES = Path(__file__).resolve().parent.parent.parent / "sample_repos"


def cmd_index(a) -> int:
    from ..indexer import index
    if not os.path.isdir(a.root):
        return fail("index", f"not a directory: {a.root}")
    db = a.db or os.path.join(os.path.abspath(a.root), ".workbench.duckdb")
    report = index(a.root, db, jobs=a.jobs, exclude=tuple(a.exclude or ()),
                   max_bytes=a.max_bytes, progress=not a.quiet, resolve=not a.no_resolve)
    out(str(report))
    return 0


def cmd_resolve(a) -> int:
    from ..resolve import resolve_edges
    with open_db(a.db, read_only=False) as wb:
        out(str(resolve_edges(wb.con, None, progress=not a.quiet)))
    return 0


def cmd_sql(a) -> int:
    import duckdb
    with open_db(a.db) as wb:
        try:
            rel = wb.sql(a.query)
        except duckdb.Error as exc:
            return fail("sql", str(exc), 1)
        if rel is None:
            return 0
        if a.csv:
            import csv
            import io
            buf = io.StringIO()
            w = csv.writer(buf)
            w.writerow(rel.columns)
            w.writerows(rel.fetchall())
            out(buf.getvalue())
        else:
            rel.show(max_rows=a.max_rows, max_width=10_000)
    return 0


def cmd_stats(a) -> int:
    from ..stats import format_stats
    with open_db(a.db) as wb:
        out(format_stats(wb.stats()))
    return 0


def cmd_demo(a) -> int:
    """Index every bundled sample repository and print a summary of each."""
    from ..api import index
    from ..stats import format_stats
    dest = Path(a.out)
    dest.mkdir(parents=True, exist_ok=True)
    for repo in sorted(p for p in SAMPLES.iterdir() if p.is_dir()):
        db = dest / f"{repo.name}.duckdb"
        with index(repo, str(db), progress=False) as wb:
            r = wb.report
            out(f"== {repo.name}: {r.added + r.changed} parsed, {r.unchanged} unchanged, "
                f"{r.seconds:.2f}s -> {db}")
            out(format_stats(wb.stats()) + "\n")
    out(f"Try: workbench sql {dest}/pyshop.duckdb \"SELECT kind, qualname, start_line, end_line "
        "FROM symbols WHERE path = 'shop/orders.py' ORDER BY start_line\"")
    return 0


def cmd_callgraph(a) -> int:
    from ..callgraph import callgraph
    graph = callgraph(a.entries, package=a.package)
    out(json.dumps(graph, indent=2 if a.pretty else None, sort_keys=True))
    return 0


def add_parsers(sub) -> None:
    s = sub.add_parser("index", help="index a repository into DuckDB (incremental)")
    s.add_argument("root")
    s.add_argument("--db", help="database file (default: ROOT/.workbench.duckdb)")
    s.add_argument("--jobs", type=int, default=None, help="parser processes (default: all cores)")
    s.add_argument("--exclude", action="append", metavar="GLOB", help="extra gitignore-style glob (repeatable)")
    s.add_argument("--max-bytes", type=int, default=1024 * 1024, help="skip files above this size")
    s.add_argument("-q", "--quiet", action="store_true", help="no progress bar")
    s.add_argument("--no-resolve", action="store_true",
                   help="skip cross-file resolution (faster; run `workbench resolve DB` later)")
    s.set_defaults(func=cmd_index)

    s = sub.add_parser("resolve", help="re-run cross-file resolution of an index")
    s.add_argument("db")
    s.add_argument("-q", "--quiet", action="store_true", help="no progress bar")
    s.set_defaults(func=cmd_resolve)

    s = sub.add_parser("sql", help="run SQL against an index")
    s.add_argument("db")
    s.add_argument("query")
    s.add_argument("--csv", action="store_true", help="CSV instead of a table")
    s.add_argument("--max-rows", type=int, default=200, help="rows shown in the table (default 200)")
    s.set_defaults(func=cmd_sql)

    s = sub.add_parser("stats", help="summary figures of an index")
    s.add_argument("db")
    s.set_defaults(func=cmd_stats)

    s = sub.add_parser("demo", help="index the bundled sample repositories and summarise them")
    s.add_argument("--out", default="demo_dbs", help="folder for the databases")
    s.set_defaults(func=cmd_demo)

    s = sub.add_parser("callgraph", help="JSON call graph of entry files (PyCG-style exchange format)")
    s.add_argument("entries", nargs="+", metavar="ENTRY_FILE")
    s.add_argument("--package", required=True, metavar="ROOT", help="package root the names are relative to")
    s.add_argument("--pretty", action="store_true", help="indented JSON")
    s.set_defaults(func=cmd_callgraph)
