"""The `workbench` command: CLI twins of the Python API and of every agent tool.

    workbench index ROOT [--db FILE]           # cli/index.py: index, resolve, sql, stats, demo, callgraph
    workbench outline DB PATH [--format tags]  # cli/views.py: outline, tool, one command per tool
    workbench find_callers DB SYMBOL
    workbench tasks from-git REPO --from A --to B   # cli/evaluate.py: tasks, eval
    workbench eval DB [TASKS] --rules default full
    workbench serve DB [--transport http]      # cli/serve.py: the tools over MCP
    workbench corpus index repos.txt --out corpus/   # cli/corpus.py: export, corpus index

Every view command prints exactly the text of the view it twins.
"""
from __future__ import annotations

import argparse
import sys

from .common import fail


def build_parser(index_only: bool = False) -> argparse.ArgumentParser:
    """The whole command line; `index_only`: the commands over the index alone (cli/index.py),
    which need none of the views."""
    from . import index
    p = argparse.ArgumentParser(prog="workbench", description=__doc__.split("\n\n")[0])
    sub = p.add_subparsers(dest="cmd", required=True, metavar="COMMAND")
    index.add_parsers(sub)
    if index_only:
        return p
    from . import corpus, evaluate, serve, views
    views.add_parsers(sub)
    evaluate.add_parsers(sub)
    serve.add_parsers(sub)
    corpus.add_parsers(sub)
    return p


def _parser_for(argv: list[str]) -> argparse.ArgumentParser:
    """The parser of the command in `argv`: a command over the index (`workbench index ...`)
    starts without importing every agent tool (a cold start of a small index is mostly
    imports); anything else, `--help` included, gets the whole command line."""
    p = build_parser(index_only=True)
    cmd = next((a for a in argv if not a.startswith("-")), None)
    sub = next(a for a in p._actions if isinstance(a, argparse._SubParsersAction))
    return p if cmd in sub.choices else build_parser()


def main(argv: list[str] | None = None) -> int:
    from ..api import NotAWorkbench
    from ..snapshot import IndexBusy
    argv = sys.argv[1:] if argv is None else list(argv)
    args = _parser_for(argv).parse_args(argv)
    try:
        return args.func(args) or 0
    except (FileNotFoundError, NotADirectoryError, NotAWorkbench, IndexBusy) as exc:
        return fail(args.cmd, str(exc))


__all__ = ["main", "build_parser"]
