"""Short index runs through one DuckDB instance the process keeps: the database attached
for the run and detached after it.

`duckdb.connect(path)` starts a new DuckDB instance each time (its catalog of built-in
functions and settings made anew: ~0.02 s of CPU, whatever the database), and an
index run that writes in place (`snapshot.write_index`: a few changed files) took one
for each run; a process that re-indexes after each edit (a server, a notebook) paid it
every time. `connect` attaches the database to an in-memory instance made once per
process instead (attaching and detaching it: ~3 ms on the standard library's index) and
hands out a connection of that instance using it; `close` detaches it, with or without
the checkpoint a closing connection takes (`PRAGMA ..._checkpoint_on_shutdown` holds for
a detach too). A database file the process has open otherwise (another instance) cannot
be attached: `connect` raises, and the caller opens it as before.

The instance runs each statement on one thread (`THREADS`): a short run's statements each
read a few files' rows or look rows up by id, and handing their work to a second thread cost
more than it saved (a one-file re-index of the standard library with its model kept, on two
busy cores: ~8% less CPU and ~15% less wall time with one thread).

`cursor(con)` is another connection to a run's database (`con.cursor()` of an attached
run uses the instance's own in-memory database). `warm` makes the instance beforehand
(after a full index, for the runs that follow it in the process).
"""
from __future__ import annotations

import itertools
import threading

import duckdb

#: DuckDB threads of the instance (short runs: small statements, see the module doc)
THREADS = 1

_instance: duckdb.DuckDBPyConnection | None = None
_lock = threading.Lock()            # the instance made once; a detach and its checkpoint setting
_names = itertools.count(1)
_attached: dict[int, tuple[object, str]] = {}     # id(connection) -> (connection, its database's name)


def warm() -> duckdb.DuckDBPyConnection:
    """The process's instance, made now if it is not yet."""
    global _instance
    with _lock:
        if _instance is None:
            _instance = duckdb.connect(":memory:", config={"threads": THREADS})
        return _instance


def connect(db: str) -> duckdb.DuckDBPyConnection:
    """A writable connection to `db`, attached to the process's instance under a name of
    its own and used (unqualified tables are its tables). Raises `duckdb.Error` when it
    cannot be attached (a file another instance of the process holds, a lock)."""
    name = f"wb_run_{next(_names)}"
    con = warm().cursor()
    try:
        con.execute(f"ATTACH '{db.replace(chr(39), chr(39) * 2)}' AS {name}")
    except BaseException:
        con.close()
        raise
    try:
        con.execute(f"USE {name}")
    except BaseException:
        _detach(con, name, checkpoint=True)
        raise
    _attached[id(con)] = (con, name)
    return con


def attached(con) -> bool:
    """Whether `con` is a connection `connect` made and `close` has not closed."""
    got = _attached.get(id(con))
    return got is not None and got[0] is con


def cursor(con) -> duckdb.DuckDBPyConnection:
    """Another connection to `con`'s database (for a thread of the run)."""
    cur = con.cursor()
    got = _attached.get(id(con))
    if got is not None and got[0] is con:
        cur.execute(f"USE {got[1]}")
    return cur


def close(con, checkpoint: bool = True) -> None:
    """Detach `con`'s database (checkpointing its write-ahead log first when
    `checkpoint`) and close `con`. A transaction still open is rolled back."""
    _, name = _attached.pop(id(con))
    _detach(con, name, checkpoint)


def _detach(con, name: str, checkpoint: bool) -> None:
    global _instance
    try:
        try:
            con.execute("ROLLBACK")
        except duckdb.Error:
            pass                        # (no transaction open: the usual case)
        with _lock:
            con.execute("USE memory")
            con.execute(f"PRAGMA {'enable' if checkpoint else 'disable'}_checkpoint_on_shutdown")
            con.execute(f"DETACH {name}")
    except duckdb.Error:
        # the file must not stay attached (its lock held): the instance goes, with it
        with _lock:
            if _instance is not None:
                try:
                    _instance.close()
                finally:
                    _instance = None
    finally:
        con.close()


__all__ = ["warm", "connect", "attached", "cursor", "close"]
