"""The Python API: `workbench.index(root, db=...)`, `workbench.open(db)`, `Workbench`."""
from __future__ import annotations

import os
import re
import threading

import duckdb

from . import store
from .indexer import IndexReport
from .indexer import index as _index
from .snapshot import READER_WAIT, IndexBusy, hold_reader, identity, same_file, wait_for_lock


class Workbench:
    """An indexed repository: its DuckDB connection plus the views over it.

    Read-only by default: the database stays open for index runs of any process, which
    then write a snapshot and swap it in; the workbench notices the new file on its next
    query and reads it from then on (`workbench.snapshot`). Python functions registered
    with `create_function` and temporary macros survive that switch. `read_only=False`
    gives a read-write connection instead: SQL can then change the index, and index runs
    of other processes wait until it is closed.
    """

    def __init__(self, db: str, read_only: bool = True, report: IndexReport | None = None,
                 wait: float = READER_WAIT, safe: bool = False, memory_limit: str | None = None):
        if not os.path.exists(db):
            raise FileNotFoundError(f"no workbench database at {db!r}; run `workbench index ROOT --db {db}` first")
        if safe and not read_only:
            raise ValueError("a safe workbench is read-only")
        self.db = db
        self.read_only = read_only
        self.safe = safe
        self.report = report
        self._wait = wait
        self._fd = None                 # shared flock on the file read (read-only mode)
        self._ident = None
        self._lock = threading.Lock()
        self._con = None
        if read_only:
            self._con = duckdb.connect(":memory:")
            self._name = _catalog_name(db)
            try:
                self._attach()
                self.root = require_index(self._con, db)
            except BaseException:
                self.close()
                raise
            try:                        # call-graph view and macros as temporary objects
                from .schema import install_sql
                install_sql(self._con)
            except duckdb.Error:
                pass
            if memory_limit:
                store.run(self._con, "SET memory_limit = ?", [memory_limit])
            if safe:                    # SQL you did not write: no way out of the index
                store.run(self._con, "SET enable_external_access = false")
                store.run(self._con, "SET lock_configuration = true")
        else:
            self._con = open_database(db, wait=wait)
            try:
                self.root = require_index(self._con, db)
            except BaseException:
                self._con.close()
                raise

    def _attach(self) -> None:
        """Attach the database file read-only (waiting while an index run writes it in
        place) and make it the default catalog."""
        while True:
            fd = hold_reader(self.db, self._wait)
            try:
                wait_for_lock(lambda: self._con.execute(
                    f"ATTACH {_sql_string(self.db)} AS {_ident(self._name)} (READ_ONLY)"),
                    self.db, self._wait)
            except duckdb.Error as exc:
                os.close(fd)
                raise NotAWorkbench(f"{self.db} is not a workbench database ({_first_line(exc)})") from None
            except BaseException:
                os.close(fd)
                raise
            if same_file(fd, self.db):
                break
            os.close(fd)                # swapped meanwhile: attach the new file
            self._detach_catalog()
        store.run(self._con, f"USE {_ident(self._name)}")
        self._fd = fd
        st = os.fstat(fd)
        self._ident = (st.st_dev, st.st_ino)
        self.generation = getattr(self, "generation", 0) + 1    # a new index file (or the same, re-read)

    def _detach_catalog(self) -> None:
        store.run(self._con, "USE memory")
        store.run(self._con, f"DETACH DATABASE IF EXISTS {_ident(self._name)}")

    def _detach(self) -> None:
        if self._fd is None:
            return
        self._detach_catalog()
        os.close(self._fd)
        self._fd = None

    @property
    def con(self) -> duckdb.DuckDBPyConnection:
        """The connection; a read-only workbench first switches to a newer index file when
        an index run swapped one in."""
        if self.read_only and self._fd is not None and not self.safe:
            now = identity(self.db)
            if now is not None and now != self._ident:
                with self._lock:
                    if identity(self.db) != self._ident:
                        self._detach()
                        self._attach()
                        self.root = require_index(self._con, self.db)
        return self._con

    def cursor(self) -> duckdb.DuckDBPyConnection:
        """A cursor of the connection (for another thread or a SQLAlchemy engine) that sees
        the index tables and macros."""
        cur = self.con.cursor()
        if self.read_only:
            store.run(cur, f"USE {_ident(self._name)}")
        return cur

    def create_function(self, name: str, function, parameters=None, return_type=None, **kw):
        """Register a Python function for SQL (`DuckDBPyConnection.create_function`)."""
        return self.con.create_function(name, function, parameters, return_type, **kw)

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
        """Re-index the root this database was built from (only changed files are parsed).
        Other readers keep reading meanwhile (see `workbench.snapshot`)."""
        if not self.read_only:
            self.report = _index(self.root, self.db, con=self.con, **kw)
            return self.report
        with self._lock:
            self._detach()              # so the run may write in place when nobody else reads
            try:
                self.report = _index(self.root, self.db, **kw)
            finally:
                self._attach()
                self.root = require_index(self._con, self.db)
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
        """Parts of a directory, their sizes, dependencies and entry points. A path outside
        the repository raises `PathError`; a directory without indexed source files
        `NoIndexedFiles` (a `LookupError`)."""
        from .graph import NoIndexedFiles, get_architecture_overview
        rel = self._path(directory)
        arch = get_architecture_overview(self.con, rel)
        if not arch.files:
            raise NoIndexedFiles(f"no indexed files under {rel!r}")
        return arch

    def impact(self, changed_paths, depth: int = 2, limit: int | None = 100, offset: int = 0):
        """Symbols depending on the given files (calls, imports, bases), transitively. A
        path outside the repository raises `PathError`."""
        from .graph import impact
        paths = [changed_paths] if isinstance(changed_paths, str) else list(changed_paths)
        return impact(self.con, [self._path(p) for p in paths], depth=depth, limit=limit,
                      offset=offset)

    def _path(self, path) -> str:
        from .views.pathsafe import check
        return check(self.root, path)[0]

    def close(self) -> None:
        if self._con is not None:
            self._con.close()
        if self._fd is not None:
            os.close(self._fd)
            self._fd = None

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()

    def __repr__(self) -> str:
        n = store.one(self.con, "SELECT count(*) FROM files")[0]
        return f"<Workbench {self.root} ({n} files) db={self.db}>"


def index(root, db: str | None = None, *, read_only: bool = True, **kw) -> Workbench:
    """Index `root` (incrementally when `db` already holds it) and open the result,
    read-only unless `read_only=False` (see `Workbench`)."""
    report = _index(root, db, **kw)
    return Workbench(report.db, read_only=read_only, report=report)


def open(db: str, read_only: bool = True, *, safe: bool = False,  # noqa: A001
         memory_limit: str | None = None) -> Workbench:
    """Open an existing workbench database (read-only unless `read_only=False`).

    `safe=True` is for SQL you did not write: the connection then has no file, network or
    extension access and its configuration is locked (it does not follow later index runs);
    `memory_limit` caps DuckDB's memory (e.g. ``"1GB"``)."""
    return Workbench(db, read_only=read_only, safe=safe, memory_limit=memory_limit)


# ---------------------------------------------------------------- opening, clear errors

class NotAWorkbench(RuntimeError):
    """The file is no (completed) workbench index; str(exc) is one sentence saying so."""


def _first_line(exc: BaseException) -> str:
    return str(exc).strip().splitlines()[0] if str(exc).strip() else type(exc).__name__


def _sql_string(text: str) -> str:
    return "'" + text.replace("'", "''") + "'"


def _ident(name: str) -> str:
    return '"' + name.replace('"', '""') + '"'


def _catalog_name(db: str) -> str:
    """The catalog name DuckDB would give the file (its stem), made a plain identifier."""
    stem = re.sub(r"\W", "_", os.path.splitext(os.path.basename(db))[0]).strip("_") or "workbench"
    if stem[0].isdigit() or stem.lower() in ("memory", "system", "temp", "main"):
        stem = f"wb_{stem}"
    return stem


def open_database(db: str, read_only: bool = False, wait: float = READER_WAIT):
    """`store.connect` with one-sentence errors: waits while a writer holds the file."""
    try:
        return wait_for_lock(lambda: store.connect(db, read_only=read_only), db, wait,
                             writing=not read_only)
    except IndexBusy:
        raise
    except duckdb.Error as exc:
        raise NotAWorkbench(f"{db} is not a workbench database ({_first_line(exc)})") from None


def require_index(con, db: str) -> str:
    """The indexed root, or NotAWorkbench when the database holds no completed index."""
    try:
        root = store.get_meta(con, "root")
    except duckdb.Error:
        root = None
    if not root:
        raise NotAWorkbench(f"{db} holds no completed index (an index run did not finish, or "
                            f"the file was made by something else); run `workbench index ROOT "
                            f"--db {db}` to build it")
    return root
