"""Time and memory limits of one tool call on a DuckDB connection.

    with limited(con, seconds=10, memory_mb=1024) as lim:
        ...                         # the tool's queries
    lim.fired                       # True: the time ran out (its queries were interrupted)

Time: one watchdog thread per process interrupts (`con.interrupt()`) the connection of a
call past its deadline, and again every `REPEAT` seconds until the call ends, so a tool
that runs several queries has the next one stopped as well (DuckDB forgets an interrupt
that arrives while no query runs). When `limited` returns, the watchdog no longer
touches the connection: the next call starts clean. Python work between queries is not
interrupted; it is bounded by the answer caps instead.

Memory: DuckDB's `memory_limit` is lowered to `memory_mb` for the call and put back after
(a lower limit already set stays; a connection whose configuration is locked, such as
`workbench.open(db, safe=True)`, keeps its own).
"""
from __future__ import annotations

import os
import re
import threading
import time
from contextlib import contextmanager

import duckdb

REPEAT = 0.05       # seconds between interrupts once a call is past its deadline


class _Watchdog:
    """Deadlines of the calls running now; one daemon thread interrupts the late ones."""

    def __init__(self):
        self._reset()

    def _reset(self) -> None:
        self._cv = threading.Condition()
        self._armed: dict[int, list] = {}        # token -> [deadline, con, fired]
        self._token = 0
        self._thread: threading.Thread | None = None

    def arm(self, con, seconds: float) -> int:
        with self._cv:
            self._token += 1
            self._armed[self._token] = [time.monotonic() + seconds, con, False]
            if self._thread is None or not self._thread.is_alive():
                self._thread = threading.Thread(target=self._loop, name="workbench-tool-timeout",
                                                daemon=True)
                self._thread.start()
            self._cv.notify()
            return self._token

    def disarm(self, token: int) -> bool:
        """Forget a call; True when its time ran out. No interrupt reaches its connection
        after this returns (interrupts are sent holding the same lock)."""
        with self._cv:
            entry = self._armed.pop(token, None)
            return bool(entry and entry[2])

    def _loop(self) -> None:
        with self._cv:
            while True:
                now = time.monotonic()
                for entry in self._armed.values():
                    if entry[0] <= now:
                        entry[2] = True
                        entry[0] = now + REPEAT
                        try:
                            entry[1].interrupt()
                        except Exception:       # a closed connection: nothing left to stop
                            pass
                wait = min((e[0] for e in self._armed.values()), default=now + 60) - now
                self._cv.wait(max(wait, 0.001))


_WATCHDOG = _Watchdog()
if hasattr(os, "register_at_fork"):             # a forked child has no watchdog thread
    os.register_at_fork(after_in_child=_WATCHDOG._reset)


class Limit:
    """What `limited` hands out: `fired` says whether the time ran out."""

    def __init__(self, seconds: float | None, memory_mb: int | None):
        self.seconds = seconds
        self.memory_mb = memory_mb
        self.fired = False


@contextmanager
def limited(con, seconds: float | None = None, memory_mb: int | None = None):
    """Run the block's queries on `con` within `seconds` and `memory_mb` (None: no limit)."""
    lim = Limit(seconds, memory_mb)
    restore = _lower_memory(con, memory_mb) if memory_mb else None
    token = _WATCHDOG.arm(con, seconds) if seconds is not None else None
    try:
        yield lim
    finally:
        if token is not None:
            lim.fired = _WATCHDOG.disarm(token)
        if restore is not None:
            try:
                con.execute(f"SET memory_limit = '{restore}'").fetchall()
            except duckdb.Error:
                pass


_UNITS = {"": 1, "b": 1, "bytes": 1, "kb": 10 ** 3, "mb": 10 ** 6, "gb": 10 ** 9, "tb": 10 ** 12,
          "kib": 2 ** 10, "mib": 2 ** 20, "gib": 2 ** 30, "tib": 2 ** 40}


def memory_bytes(text: str) -> float | None:
    """A DuckDB memory setting (`953.6 MiB`, `1GB`, `-1` for none) in bytes, or None."""
    m = re.fullmatch(r"\s*([0-9.]+)\s*([A-Za-z]*)\s*", text or "")
    if not m or m.group(2).lower() not in _UNITS:
        return None
    return float(m.group(1)) * _UNITS[m.group(2).lower()]


def _restorable(text: str) -> str | None:
    """A setting that reads back as `text` (DuckDB shows the limit cut to one decimal:
    `3GB` reads `2.7 GiB`, and setting `2.7 GiB` would read `2.6 GiB`; the middle of the
    shown step reads back the same every time, within half a step of the original)."""
    m = re.fullmatch(r"\s*([0-9]+)(?:\.([0-9]+))?\s*([A-Za-z]*)\s*", text or "")
    if not m or m.group(3).lower() not in _UNITS:
        return None
    step = 10.0 ** -len(m.group(2) or "")
    value = float(m.group(1) + "." + (m.group(2) or "0"))
    return f"{int((value + step / 2) * _UNITS[m.group(3).lower()])}B"


def _lower_memory(con, memory_mb: int) -> str | None:
    """Lower `con`'s memory_limit to `memory_mb` unless it is lower already; the setting to
    put back, or None when nothing changed."""
    try:
        current = str(con.execute("SELECT current_setting('memory_limit')").fetchone()[0])
    except duckdb.Error:
        return None
    now, back = memory_bytes(current), _restorable(current)
    if now is None or back is None or now <= memory_mb * 2 ** 20:
        return None                 # lower already, or a setting we could not put back
    try:
        con.execute(f"SET memory_limit = '{int(memory_mb)}MiB'").fetchall()
    except duckdb.Error:            # configuration locked (a safe connection): it keeps its own
        return None
    return back
