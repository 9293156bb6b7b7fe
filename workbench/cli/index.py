"""Commands over the index itself: `workbench index|resolve|stats|sql|demo|callgraph`."""
from __future__ import annotations

import json
import os
from pathlib import Path

from ..locations import default_db
from .common import DB_HELP, add_command, fail, open_db, out

SAMPLES = Path(__file__).resolve().parent.parent.parent / "sample_repos"


def cmd_index(a) -> int:
    from ..indexer import index
    if not os.path.isdir(a.root):
        return fail("index", f"not a directory: {a.root}")
    db = a.db or default_db(a.root)
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
    s = add_command(sub, "index", "index a repository into DuckDB (incremental)",
                    "Index a repository into DuckDB: scan it, parse every file with tree-sitter, store "
                    "files, symbols, edges and imports, resolve calls across files. Re-running it "
                    "parses only the files that changed. The report says where the database is.",
                    ("index ~/src/rich", "index sample_repos/pyshop --db pyshop.duckdb -q",
                     "index . --exclude 'tests/**' --no-resolve"))
    s.add_argument("root", help="the repository folder to index")
    s.add_argument("--db", help="database file (default: one file per repository in the user cache, "
                                "~/.cache/context-workbench/NAME-HASH.duckdb; $WORKBENCH_CACHE_DIR "
                                "or $XDG_CACHE_HOME move it)")
    s.add_argument("--jobs", type=int, default=None, metavar="N", help="parser processes (default: all cores)")
    s.add_argument("--exclude", action="append", metavar="GLOB",
                   help="extra gitignore-style glob to leave out (repeatable; default: none beyond "
                        ".gitignore and the built-in ignores)")
    s.add_argument("--max-bytes", type=int, default=1024 * 1024, metavar="N",
                   help="skip files above this size, recording why (default: 1048576, 1 MiB)")
    s.add_argument("-q", "--quiet", action="store_true", help="no progress bar (default: a progress bar)")
    s.add_argument("--no-resolve", action="store_true",
                   help="skip cross-file resolution (faster; run `workbench resolve DB` later; "
                        "default: resolve)")
    s.set_defaults(func=cmd_index)

    s = add_command(sub, "resolve", "re-run cross-file resolution of an index",
                    "Re-run cross-file resolution over the whole index (after `index --no-resolve`).",
                    ("resolve pyshop.duckdb", "resolve ~/src/rich -q"))
    s.add_argument("db", help=DB_HELP)
    s.add_argument("-q", "--quiet", action="store_true", help="no progress bar (default: a progress bar)")
    s.set_defaults(func=cmd_resolve)

    s = add_command(sub, "sql", "run SQL against an index",
                    "Run one SQL statement against the index (tables files, symbols, edges, imports; "
                    "docs/schema.md) and print the result as a table or CSV.",
                    ("sql pyshop.duckdb \"SELECT kind, count(*) FROM symbols GROUP BY 1\"",
                     "sql ~/src/rich \"SELECT * FROM find_callers('Console.print')\" --csv"))
    s.add_argument("db", help=DB_HELP)
    s.add_argument("query", help="one SQL statement")
    s.add_argument("--csv", action="store_true", help="CSV instead of a table (default: a table)")
    s.add_argument("--max-rows", type=int, default=200, metavar="N", help="rows shown in the table (default: 200)")
    s.set_defaults(func=cmd_sql)

    s = add_command(sub, "stats", "summary figures of an index",
                    "Summary figures of an index, each saying what it counts: files (skipped ones "
                    "included), lines, symbol rows (definitions plus one module row per parsed file), "
                    "edges by kind, calls by resolution, and the database's path.",
                    ("stats pyshop.duckdb", "stats ~/src/rich"))
    s.add_argument("db", help=DB_HELP)
    s.set_defaults(func=cmd_stats)

    s = add_command(sub, "demo", "index the bundled sample repositories and summarise them",
                    examples=("demo", "demo --out /tmp/demo_dbs"))
    s.add_argument("--out", default="demo_dbs", metavar="DIR", help="folder for the databases (default: demo_dbs)")
    s.set_defaults(func=cmd_demo)

    s = add_command(sub, "callgraph", "JSON call graph of entry files (PyCG-style exchange format)",
                    "Print the call graph reachable from entry files as JSON in the PyCG exchange "
                    "format (docs/callgraph.md).",
                    ("callgraph sample_repos/pyshop/shop/cli.py --package sample_repos/pyshop --pretty",))
    s.add_argument("entries", nargs="+", metavar="ENTRY_FILE", help="Python files to start from")
    s.add_argument("--package", required=True, metavar="ROOT", help="package root the names are relative to")
    s.add_argument("--pretty", action="store_true", help="indented JSON (default: one line)")
    s.set_defaults(func=cmd_callgraph)
