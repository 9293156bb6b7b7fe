"""The Python API: `workbench.index(root, db=...)`, `workbench.open(db)`, `Workbench`."""
from __future__ import annotations

import os

import duckdb

from . import store
from .indexer import IndexReport
from .indexer import index as _index


class Workbench:
    """An indexed repository: its DuckDB connection plus the views over it."""

    def __init__(self, db: str, read_only: bool = False, report: IndexReport | None = None):
        if not os.path.exists(db):
            raise FileNotFoundError(f"no workbench database at {db!r}; run `workbench index ROOT --db {db}` first")
        self.db = db
        self.con = store.connect(db, read_only=read_only)
        self.report = report
        root = store.get_meta(self.con, "root")
        self.root = root

    # -- SQL
    def sql(self, query: str, params=None) -> duckdb.DuckDBPyRelation:
        """Run SQL against the index; returns a DuckDB relation (`.df()`, `.fetchall()`, `.show()`)."""
        if params:
            return self.con.sql(query, params=params)   # same connection: sees the graph macros
        return self.con.sql(query)

    @property
    def files(self) -> duckdb.DuckDBPyRelation:
        return self.con.table("files")

    @property
    def symbols(self) -> duckdb.DuckDBPyRelation:
        return self.con.table("symbols")

    @property
    def edges(self) -> duckdb.DuckDBPyRelation:
        return self.con.table("edges")

    @property
    def imports(self) -> duckdb.DuckDBPyRelation:
        return self.con.table("imports")

    def reindex(self, **kw) -> IndexReport:
        """Re-index the root this database was built from (only changed files are parsed)."""
        self.report = _index(self.root, self.db, con=self.con, **kw)
        return self.report

    def stats(self) -> dict:
        from .stats import stats
        return stats(self.con)

    # -- views (workbench/views): what an agent receives, with token counts
    def outline(self, path: str = ".", rules=None, **kw):
        """Outline of a file, directory or the repo; `format=` and any Rules field as keywords."""
        from .views.outline import outline
        return outline(self, path, rules, **kw)

    def tool(self, tool_name: str, /, rules=None, session=None, **args):
        """Run an agent tool (see workbench.views.TOOLS) and return its Response."""
        from .views import call
        return call(self, tool_name, args, rules=rules, session=session)

    def session(self, rules=None, **kw):
        """A Session: remembers what was sent, running tokens against a context window."""
        from .views.session import Session
        return Session(self, rules, **kw)

    # -- call graph (workbench/graph.py): plain values, see its module doc for the shapes;
    # every answer is a bounded Page (`limit` rows from `offset`, `.total` counts them all)
    def find_definition(self, name: str, limit: int | None = 20, offset: int = 0):
        """Definitions matching a name or qualified name, best first."""
        from .graph import find_definition
        return find_definition(self.con, name, limit=limit, offset=offset)

    def find_callers(self, symbol, include_ambiguous: bool = True, limit: int | None = 100, offset: int = 0):
        """Call sites calling `symbol` (qualname, name or id) with their resolution."""
        from .graph import find_callers
        return find_callers(self.con, symbol, include_ambiguous=include_ambiguous, limit=limit, offset=offset)

    def find_callees(self, symbol, resolved_only: bool = False, limit: int | None = 100, offset: int = 0):
        """Calls made by `symbol`, resolved or not."""
        from .graph import find_callees
        return find_callees(self.con, symbol, resolved_only=resolved_only, limit=limit, offset=offset)

    def trace_call_chain(self, symbol, depth: int = 3, direction: str = "down", limit: int | None = 1000):
        """Call edges within `depth` steps down (callees), up (callers) or both; cycles marked."""
        from .graph import trace_call_chain
        return trace_call_chain(self.con, symbol, depth=depth, direction=direction, limit=limit)

    def get_architecture_overview(self, directory: str = "."):
        """Parts of a directory, their sizes, dependencies and entry points."""
        from .graph import get_architecture_overview
        return get_architecture_overview(self.con, directory)

    def impact(self, changed_paths, depth: int = 2, limit: int | None = 100, offset: int = 0):
        """Symbols depending on the given files (calls, imports, bases), transitively."""
        from .graph import impact
        return impact(self.con, changed_paths, depth=depth, limit=limit, offset=offset)

    def close(self) -> None:
        self.con.close()

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()

    def __repr__(self) -> str:
        n = store.one(self.con, "SELECT count(*) FROM files")[0]
        return f"<Workbench {self.root} ({n} files) db={self.db}>"


def index(root, db: str | None = None, **kw) -> Workbench:
    """Index `root` (incrementally when `db` already holds it) and open the result."""
    report = _index(root, db, **kw)
    return Workbench(report.db, report=report)


def open(db: str, read_only: bool = False) -> Workbench:  # noqa: A001
    """Open an existing workbench database."""
    return Workbench(db, read_only=read_only)
