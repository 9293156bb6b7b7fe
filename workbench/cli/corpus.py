"""Commands over many repositories: `workbench export DB DIR` and
`workbench corpus index INPUT... --out DIR` (queries: `workbench sql --corpus DIR "..."`)."""
from __future__ import annotations

import os

from .common import DB_HELP, add_command, fail, out


def cmd_export(a) -> int:
    from ..corpus import LayoutError, export
    from ..locations import db_for
    db = db_for(a.db)
    if not os.path.exists(db):
        return fail("export", f"no workbench database at {db!r}")
    try:
        m = export(db, a.dir, repo=a.repo)
    except LayoutError as exc:
        return fail("export", str(exc))
    rows = ", ".join(f"{t} {v['rows']:,}" for t, v in m["tables"].items())
    out(f"exported {db} as repository {m['repo']!r} -> {a.dir}: {rows}")
    return 0


def cmd_corpus_index(a) -> int:
    from ..corpus import CorpusBusy, EngineError, LayoutError, ListError, index_corpus
    try:
        report = index_corpus(a.inputs, a.out, engine=a.engine, jobs=a.jobs, scheduler=a.scheduler,
                              exclude=tuple(a.exclude or ()), max_bytes=a.max_bytes,
                              resolve=not a.no_resolve, keep_sources=not a.no_sources,
                              force=a.force, prune=a.prune, progress=not a.quiet)
    except (ListError, LayoutError, EngineError, CorpusBusy) as exc:
        return fail("corpus index", str(exc))
    out(str(report))
    return 1 if report.failed else 0


def add_parsers(sub) -> None:
    s = add_command(sub, "export", "write every table of an index as Parquet (with a repo column and a manifest)",
                    "Write every table of an index as Parquet files, each with a `repo` column, and a "
                    "manifest of versions: one repository of a corpus (docs/corpus.md).",
                    ("export pyshop.duckdb corpus/pyshop", "export ~/src/rich corpus/rich --repo rich"))
    s.add_argument("db", help=DB_HELP)
    s.add_argument("dir", help="the export folder (created; an earlier export there is replaced)")
    s.add_argument("--repo", metavar="NAME", help="repository name (default: the indexed folder's)")
    s.set_defaults(func=cmd_export)

    s = add_command(sub, "corpus", "index many repositories into one corpus folder",
                    "Commands over a corpus: many repositories' exports in one folder, read as one "
                    "set of views by `workbench sql --corpus DIR` (docs/corpus.md).",
                    ("corpus index repos.txt --out corpus/", "corpus index --help"))
    corpus = s.add_subparsers(dest="corpus_cmd", required=True, metavar="COMMAND",
                              help="index: index folders, archives and git revisions into the corpus")
    c = add_command(corpus, "index", "index folders, source archives and git revisions "
                                     "(named here or in list files) into one corpus",
                    examples=("corpus index ~/src/rich ~/src/httpx --out corpus/",
                              "corpus index repos.txt --out corpus/ --engine dask"))
    c.add_argument("inputs", nargs="+", metavar="INPUT",
                   help="a folder, an archive (.tar.gz, .zip, ...) or a list file (one input a line; "
                        "`PATH rev=REV` there names a git revision)")
    c.add_argument("--out", required=True, metavar="DIR", help="the corpus folder")
    c.add_argument("--engine", choices=("local", "dask"), default="local",
                   help="local: a process pool; dask: Dask distributed (extra [cluster]) (default: local)")
    c.add_argument("--scheduler", metavar="ADDRESS",
                   help="a running Dask scheduler (default: a local cluster)")
    c.add_argument("--jobs", type=int, default=None, metavar="N",
                   help="worker processes (default: all cores; 1 runs in this process)")
    c.add_argument("--exclude", action="append", metavar="GLOB", help="extra gitignore-style glob (repeatable)")
    c.add_argument("--max-bytes", type=int, default=1024 * 1024, metavar="N",
                   help="skip files above this size (default: 1048576, 1 MiB)")
    c.add_argument("--no-resolve", action="store_true", help="skip cross-file resolution (default: resolve)")
    c.add_argument("--no-sources", action="store_true",
                   help="do not keep the extracted source of archives and git revisions (default: keep)")
    c.add_argument("--force", action="store_true", help="index every repository again (default: skip unchanged ones)")
    c.add_argument("--prune", action="store_true",
                   help="remove exports of repositories the inputs no longer name (default: keep them)")
    c.add_argument("-q", "--quiet", action="store_true", help="no progress bar (default: a progress bar)")
    c.set_defaults(func=cmd_corpus_index, cmd="corpus index")
