"""Commands over the index itself: `workbench index|resolve|stats|sql|demo|callgraph`."""
from __future__ import annotations

import json
import os
from pathlib import Path

from ..locations import db_for, default_db
from .common import DB_HELP, add_command, fail, open_db, out

SAMPLES = Path(__file__).resolve().parent.parent.parent / "sample_repos"


def _keep_no_models(a) -> None:
    """In a process that ends with the command (`ends_process`: the `workbench` program), keep
    no resolution model for a next run (`resolve.kept`): none comes, and a full run would
    also make for a kept model what its next runs read (the texts `quiet.quiet` searches,
    `quiet.RowTexts` and `kept.settle`): ~0.2 s of CPU on the standard library (what the
    model stored next to the database holds is made for it all the same: the texts' blobs
    and the argument rows' names, `stored.save`). Imported only when the command resolves
    (it imports the resolver anyway)."""
    if getattr(a, "ends_process", False):
        from ..resolve import kept
        kept.KEEP = 0


def cmd_index(a) -> int:
    from ..indexer import index
    from ..scan import PatternError
    if not os.path.isdir(a.root):
        return fail("index", f"not a directory: {a.root}")
    if not a.no_resolve:
        _keep_no_models(a)
    db = a.db or default_db(a.root)
    try:
        report = index(a.root, db, jobs=a.jobs, exclude=tuple(a.exclude or ()),
                       max_bytes=a.max_bytes, progress=not a.quiet, resolve=not a.no_resolve,
                       wait=a.wait, implicit=a.implicit)
    except PatternError as exc:
        return fail("index", str(exc))
    out(str(report))
    return 0


def cmd_resolve(a) -> int:
    from .. import store
    from ..resolve import resolve_edges
    from ..snapshot import is_private, write_index
    _keep_no_models(a)
    open_db(a.db).close()               # a missing or incomplete index: one sentence
    with write_index(db_for(a.db), wait=a.wait, in_place=False) as con:   # readers keep reading
        # a snapshot nobody else opens: in one transaction the run may commit and checkpoint
        # once the edges table is written anew, so the rows written after it reuse the old
        # table's blocks (else the file keeps them free: ~47 MiB instead of ~41 on the stdlib)
        private = is_private(con)
        if private:
            store.run(con, "BEGIN TRANSACTION")
        report = resolve_edges(con, None, progress=not a.quiet, private=private, implicit=a.implicit)
        if private:
            store.run(con, "COMMIT")
    out(str(report))
    return 0


def _open_for_sql(a):
    """The Workbench of `DB` (with --safe, a safe one), or with --corpus the Corpus of `DIR`
    (the one positional argument then being the query)."""
    if a.corpus:
        from ..corpus import open_corpus
        if a.query is not None:
            raise ValueError("with --corpus DIR give only the query")
        a.query = a.db
        return open_corpus(a.corpus)
    if a.query is None:
        raise ValueError("give a database and a query (or --corpus DIR and a query)")
    if a.safe:
        return open_db(a.db, safe=True, memory_limit=a.memory_limit)
    return open_db(a.db)


def cmd_sql(a) -> int:
    from ..corpus import LayoutError
    if a.safe and a.corpus:
        return fail("sql", "--safe reads one database; a corpus is read from its Parquet files "
                           "(no --safe with --corpus)")
    try:
        opened = _open_for_sql(a)
    except (ValueError, LayoutError) as exc:
        return fail("sql", str(exc))
    with opened as wb:
        return _run_sql(wb.con, a, timeout=a.timeout if a.safe else None)


def _run_sql(con, a, timeout: float | None = None) -> int:
    """Run the query; with `timeout`, interrupt it after that many seconds."""
    import threading

    import duckdb
    timer = None
    if timeout:
        timer = threading.Timer(timeout, con.interrupt)
        timer.daemon = True
        timer.start()
    try:
        rel = con.sql(a.query)
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
    except duckdb.InterruptException:
        return fail("sql", f"stopped after {timeout:g} s (--timeout)", 1)
    except duckdb.Error as exc:
        return fail("sql", str(exc), 1)
    finally:
        if timer is not None:
            timer.cancel()
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
    graph = callgraph(a.entries, package=a.package, implicit=a.implicit)
    out(json.dumps(graph, indent=2 if a.pretty else None, sort_keys=True))
    return 0


def _wait_option(s) -> None:
    from ..snapshot import DEFAULT_WAIT
    s.add_argument("--wait", type=float, default=DEFAULT_WAIT, metavar="SECONDS",
                   help="how long to wait for another index run, or a read-write connection, "
                        f"holding the database (default {DEFAULT_WAIT:g})")


def _implicit_option(s) -> None:
    import argparse
    s.add_argument("--implicit", action=argparse.BooleanOptionalAction, default=None,
                   help="add the calls Python makes without a call expression (operators, "
                        "subscripts, with, for, len(x), a dataclass's __init__...) as call edges of "
                        "resolution 'implicit'; a full index takes about a quarter more CPU; the database "
                        "keeps the setting, and changing it resolves everything again "
                        "(default: as the database has it; off for a new one)")


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
    s.add_argument("--jobs", type=int, default=None, metavar="N", help="parser processes; with 2 or more, a full resolution of a large repository "
                        "also evaluates in two (default: all cores; 1: all in one process, least memory)")
    s.add_argument("--exclude", action="append", metavar="GLOB",
                   help="extra gitignore-style glob to leave out (repeatable; default: none beyond "
                        ".gitignore and the built-in ignores)")
    s.add_argument("--max-bytes", type=int, default=1024 * 1024, metavar="N",
                   help="skip files above this size, recording why (default: 1048576, 1 MiB)")
    s.add_argument("-q", "--quiet", action="store_true", help="no progress bar (default: a progress bar)")
    s.add_argument("--no-resolve", action="store_true",
                   help="skip cross-file resolution (faster; run `workbench resolve DB` later; "
                        "default: resolve)")
    _implicit_option(s)
    _wait_option(s)
    s.set_defaults(func=cmd_index, end_process=True)

    s = add_command(sub, "resolve", "re-run cross-file resolution of an index",
                    "Re-run cross-file resolution over the whole index (after `index --no-resolve`), "
                    "into a snapshot: readers keep reading.",
                    ("resolve pyshop.duckdb", "resolve ~/src/rich -q"))
    s.add_argument("db", help=DB_HELP)
    s.add_argument("-q", "--quiet", action="store_true", help="no progress bar (default: a progress bar)")
    _implicit_option(s)
    _wait_option(s)
    s.set_defaults(func=cmd_resolve, end_process=True)

    s = add_command(sub, "sql", "run SQL against an index (read-only; see --safe), or a corpus of many",
                    "Run one SQL statement against the index (tables files, symbols, edges, imports; "
                    "docs/schema.md) on a read-only connection and print the result as a table or CSV; "
                    "with --corpus, against many repositories' exports (docs/corpus.md).",
                    ("sql pyshop.duckdb \"SELECT kind, count(*) FROM symbols GROUP BY 1\"",
                     "sql ~/src/rich \"SELECT * FROM find_callers('Console.print')\" --csv",
                     "sql pyshop.duckdb \"SELECT count(*) FROM edges\" --safe --timeout 5",
                     "sql --corpus corpus/ \"SELECT repo, count(*) FROM symbols GROUP BY repo\""))
    s.add_argument("db", help=DB_HELP + " (with --corpus: the query)")
    s.add_argument("query", nargs="?", help="one SQL statement")
    s.add_argument("--corpus", metavar="DIR", help="query a corpus folder (or one export) instead "
                   "(default: the database)")
    s.add_argument("--csv", action="store_true", help="CSV instead of a table (default: a table)")
    s.add_argument("--max-rows", type=int, default=200, metavar="N", help="rows shown in the table (default: 200)")
    s.add_argument("--safe", action="store_true",
                   help="for SQL you did not write: no file, network or extension access, "
                        "configuration locked, memory and time capped (docs/reliability.md; default: off)")
    s.add_argument("--memory-limit", default="1GB", metavar="SIZE",
                   help="with --safe: DuckDB memory limit (default 1GB)")
    s.add_argument("--timeout", type=float, default=30, metavar="SECONDS",
                   help="with --safe: stop the query after this long (default 30)")
    s.set_defaults(func=cmd_sql)

    s = add_command(sub, "stats", "summary figures of an index",
                    "Summary figures of an index, each saying what it counts: files (skipped ones "
                    "included), lines, symbol rows (definitions plus one module row per parsed file), "
                    "edges by kind, calls by resolution, and the database's path.",
                    ("stats pyshop.duckdb", "stats ~/src/rich"))
    s.add_argument("db", help=DB_HELP)
    s.set_defaults(func=cmd_stats)

    s = add_command(sub, "demo", "index the bundled sample repositories and summarise them",
                    examples=("demo", "demo --out ~/workbench-demo"))
    s.add_argument("--out", default="demo_dbs", metavar="DIR", help="folder for the databases (default: demo_dbs)")
    s.set_defaults(func=cmd_demo)

    s = add_command(sub, "callgraph", "JSON call graph of entry files (PyCG-style exchange format)",
                    "Print the call graph reachable from entry files as JSON in the PyCG exchange "
                    "format (docs/callgraph.md).",
                    ("callgraph sample_repos/pyshop/shop/cli.py --package sample_repos/pyshop --pretty",))
    s.add_argument("entries", nargs="+", metavar="ENTRY_FILE", help="Python files to start from")
    s.add_argument("--package", required=True, metavar="ROOT", help="package root the names are relative to")
    s.add_argument("--pretty", action="store_true", help="indented JSON (default: one line)")
    s.add_argument("--implicit", action="store_true",
                   help="include the calls Python makes without a call expression (operators, "
                        "subscripts, with, for, len(x)...; default: only calls written as calls)")
    s.set_defaults(func=cmd_callgraph)
