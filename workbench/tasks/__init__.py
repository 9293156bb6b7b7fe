"""Task sets: the definitions an agent has to reach, as a table (`tasks`, docs/eval.md).

    >>> from workbench import tasks
    >>> rows = tasks.from_git("path/to/repo", "v1.0", "v1.1")     # changed definitions
    >>> tasks.prepare("path/to/repo", "v1.0", "repo.duckdb")      # index the old revision
    >>> tasks.save(wb.con, rows)
    >>> rows, missing = tasks.from_symbols(wb.con, ["shop.orders.place_order"])
    >>> rows, skipped = tasks.from_log(wb.con, "calls.duckdb")    # what an agent read
    >>> tasks.load(wb.con)                                        # Arrow table

Sources: a git history (`from_git`: modified, added, deleted definitions, compared on the
syntax tree), a list of names (`from_symbols`) and the tool-call log of a real agent
session (`from_log`: `source = 'log'`, `change = 'read'`, the definitions the agent read).
"""
from .agentlog import from_log
from .changes import compare, definitions
from .gitrepo import GitError, GitRepo
from .history import from_git, prepare
from .symbols import from_symbols
from .table import COLUMNS, export, load, save, summary, to_table

__all__ = ["from_git", "prepare", "from_symbols", "from_log", "save", "load", "export", "summary", "to_table",
           "COLUMNS", "GitRepo", "GitError", "definitions", "compare"]
