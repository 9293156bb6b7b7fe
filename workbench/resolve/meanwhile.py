"""Reads run on a second connection in a thread while this one works on (`Meanwhile`).

An incremental run's longest queries are scans of whole tables whose rows of unchanged
files it needs: the text scans of `deps._fresh` (is a new name used anywhere else?) and
the prefetch of the bindings of the files the changed ones read last time
(`lazy.LazyBindings.prefetch`). Neither needs the model the run refreshes first, so they
start before it, on a cursor of the run's connection (DuckDB releases the interpreter
lock while it executes), and the refresh's Python work goes on meanwhile.

A cursor is a connection of its own to the same database: it sees the committed tables,
not the rows the run's transaction replaced. Its jobs read the rows of files the run did
not change only (`outside`); the callers read the changed files' rows on the run's
connection. A job that fails is done again on the run's connection by its caller (its
`result` raises), so the rows never depend on the cursor.
"""
from __future__ import annotations

import threading
from typing import Callable


class Meanwhile:
    """Jobs (functions of a cursor) run one after another in a thread, in the order given;
    `result(job)` waits for one. `close()` waits for the rest and closes the cursor."""

    def __init__(self, con):
        self._cur = con.cursor()
        self._jobs: list[tuple[Callable, threading.Event, list]] = []
        self._lock = threading.Lock()
        self._more = threading.Condition(self._lock)
        self._closing = False
        self._thread = threading.Thread(target=self._run, name="workbench-meanwhile", daemon=True)
        self._thread.start()

    def submit(self, fn: Callable):
        """Run `fn(cursor)` after the jobs submitted before it; returns the job."""
        job = (fn, threading.Event(), [None, None])
        with self._more:
            self._jobs.append(job)
            self._more.notify()
        return job

    def result(self, job):
        """The job's result (waits for it); raises what it raised."""
        fn, done, out = job
        done.wait()
        if out[1] is not None:
            raise out[1]
        return out[0]

    def _run(self) -> None:
        while True:
            with self._more:
                while not self._jobs and not self._closing:
                    self._more.wait()
                if not self._jobs:
                    return
                fn, done, out = self._jobs.pop(0)
            try:
                out[0] = fn(self._cur)
            except BaseException as exc:        # the caller does it again on its connection
                out[1] = exc
            finally:
                done.set()

    def close(self) -> None:
        with self._more:
            self._closing = True
            self._more.notify()
        self._thread.join()
        try:
            self._cur.close()
        except Exception:
            pass


def outside(column: str = "path") -> str:
    """SQL: the row's file is none of the run's changed files (parameter `$chg`)."""
    return f"NOT list_contains($chg, {column})"


__all__ = ["Meanwhile", "outside"]
