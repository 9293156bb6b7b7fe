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


def _user_errors() -> tuple:
    """The errors a command reports in one sentence (exit status 2). Imported only when
    something was raised: `workbench index` itself never loads `workbench.api`."""
    from ..api import NotAWorkbench
    from ..snapshot import IndexBusy
    return FileNotFoundError, NotADirectoryError, NotAWorkbench, IndexBusy


def main(argv: list[str] | None = None) -> int:
    """Run one command; its exit status. Without `argv` this is the program itself (the
    `workbench` command reads `sys.argv`): a command that leaves large structures behind
    (`index`, `resolve`) then ends the process as soon as its output is flushed, instead of
    having the interpreter free them one by one (`_end_process`); such a command also runs
    without the cyclic garbage collector, which would otherwise walk every object the run
    made once it resumes (`gcpause`: about 0.1 s after a re-index of a large repository),
    and keeping no resolution model for a next run in the process, which never comes
    (`ends_process`, read by cli/index.py)."""
    program = argv is None
    argv = sys.argv[1:] if argv is None else list(argv)
    args = _parser_for(argv).parse_args(argv)
    args.ends_process = program and getattr(args, "end_process", False)
    if args.ends_process:
        import gc
        gc.disable()                    # the process ends with the command: nothing to collect
        _no_blas_threads()
    try:
        code = args.func(args) or 0
    except _user_errors() as exc:       # evaluated only when the command raised
        code = fail(args.cmd, str(exc))
    if args.ends_process:
        _end_process(code)
    return code


def _no_blas_threads() -> None:
    """Start numpy's OpenBLAS without worker threads (unless the environment says how many),
    in a process that ends with its command: numpy, which pyarrow imports, has OpenBLAS
    start a thread per core that spins on loading (~0.04 s of CPU), for linear algebra an
    index run never does. Only before numpy is imported (it reads the setting then)."""
    import os
    if "numpy" not in sys.modules:
        os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")


def _end_process(code: int) -> None:
    """Exit now with `code`, skipping the interpreter's teardown (freeing every object of
    an index run's models and caches, about 0.1 s after a re-index of a large repository):
    output flushed and exit handlers run as at a normal exit. Returns (and the process
    ends the usual way) while another non-daemon thread runs, or when flushing fails."""
    import atexit
    import os
    import threading
    main_thread = threading.main_thread()
    if any(t is not main_thread and not t.daemon and t.is_alive() for t in threading.enumerate()):
        return
    try:
        sys.stdout.flush()
        sys.stderr.flush()
    except (OSError, ValueError):       # a closed or broken stream: let the usual exit report it
        return
    atexit._run_exitfuncs()
    try:
        sys.stdout.flush()
        sys.stderr.flush()
    finally:
        os._exit(code)


__all__ = ["main", "build_parser"]
