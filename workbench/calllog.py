"""The call log: every tool call an MCP client makes, appended to the table `calls` of a
DuckDB file of its own (never the index). Columns: `schema.LOG_TABLES`, docs/mcp.md.

    >>> log = CallLog("calls.duckdb")       # what `workbench serve --log FILE` writes
    >>> log.append({...})                   # one row per call; written by a background thread
    >>> log.close()                         # waits until every row is written
    >>> load("calls.duckdb")                # a pandas DataFrame, oldest call first

A DuckDB file open for writing cannot be opened by another process, so the writer opens
the file only for the moment it appends a batch, and a reader (`load`, a notebook) opens
it read-only for the moment it reads; either retries for a few seconds while the other
holds it. Answers never wait for the log: rows are queued and written in the background.
"""
from __future__ import annotations

import queue
import threading
import time

import duckdb

from . import schema, store

RETRY_SECONDS = 10.0


def _open(path: str, read_only: bool, wait: float = RETRY_SECONDS):
    """A connection to the log file, retrying while another process holds it."""
    deadline = time.monotonic() + wait
    delay = 0.02
    while True:
        try:
            return duckdb.connect(path, read_only=read_only)
        except duckdb.IOException as exc:
            if "lock" not in str(exc).lower() or time.monotonic() >= deadline:
                raise
            time.sleep(delay)
            delay = min(delay * 2, 0.25)


def write(path: str, rows: list[dict]) -> int:
    """Append `rows` (dicts with the columns of `calls`) to the log file at `path`."""
    if not rows:
        return 0
    con = _open(path, read_only=False)
    try:
        store.run(con, schema.LOG_DDL)
        cols = {c: [r.get(c) for r in rows] for c in schema.columns("calls")}
        con.begin()
        store.insert_columns(con, "calls", cols)
        con.commit()
    finally:
        con.close()
    return len(rows)


def load(path: str):
    """The calls of a log file as a pandas DataFrame, in the order they were answered."""
    con = _open(path, read_only=True)
    try:
        return con.execute("SELECT * FROM calls ORDER BY time, session, turn").df()
    finally:
        con.close()


class CallLog:
    """Appends rows to a log file from a background thread (see the module doc)."""

    def __init__(self, path: str):
        self.path = str(path)
        self._rows: queue.Queue = queue.Queue()
        self._pending = 0
        self._done = threading.Condition()
        self.errors: list[str] = []
        con = _open(self.path, read_only=False)      # fail now on a bad path, and create the table
        try:
            store.run(con, schema.LOG_DDL)
        finally:
            con.close()
        self._thread = threading.Thread(target=self._run, name="workbench-call-log", daemon=True)
        self._thread.start()

    def append(self, row: dict) -> None:
        with self._done:
            self._pending += 1
        self._rows.put(row)

    def _run(self) -> None:
        while True:
            row = self._rows.get()
            if row is None:
                return
            batch = [row]
            while True:
                try:
                    nxt = self._rows.get_nowait()
                except queue.Empty:
                    break
                if nxt is None:
                    self._rows.put(None)
                    break
                batch.append(nxt)
            try:
                write(self.path, batch)
            except Exception as exc:           # a log that cannot be written must not stop answers
                self.errors.append(f"{type(exc).__name__}: {exc}")
            with self._done:
                self._pending -= len(batch)
                self._done.notify_all()

    def flush(self, timeout: float = 30.0) -> bool:
        """Wait until every appended row is written (or failed); False on timeout."""
        with self._done:
            return self._done.wait_for(lambda: self._pending == 0, timeout)

    def close(self, timeout: float = 30.0) -> None:
        self.flush(timeout)
        self._rows.put(None)
        self._thread.join(timeout)
