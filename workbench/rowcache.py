"""Rows of the index held in memory for a long-lived reader (the MCP server).

A DuckDB query costs a scan of its table (several milliseconds on a large index) even when
it asks for one file's symbols or one function's callers. `workbench serve` answers many
such calls from one connection, so it turns this cache on for its connection
(`enable(con, stamp)`); the outline loader (`views.outline.load`), `file_info`/`all_files`,
the freshness check and `graph.find_callers`/`find_unresolved_calls`/`symbol_id` then read
the same rows from memory, grouped by the key they look up.

The rows are those of the same SQL (same columns, same ORDER BY), fetched once and grouped
in their order, so every answer is the one the queries give: the text is identical with
and without the cache (tests compare both). Each group is loaded on first use. `stamp()`
names the index the connection reads (a new value, e.g. after a refresh swapped in a new
file, empties the cache); `clear(con)` empties it too. Connections without `enable` (the
CLI, notebooks) query as before.
"""
from __future__ import annotations

from typing import Callable

_CACHES: dict[int, "RowCache"] = {}


class RowCache:
    def __init__(self, con, stamp: Callable[[], object] | None = None):
        self.con = con
        self.stamp = stamp or (lambda: None)
        self._seen = self.stamp()
        self._groups: dict[str, object] = {}

    def fresh(self) -> "RowCache":
        now = self.stamp()
        if now != self._seen:
            self._groups.clear()
            self._seen = now
        return self

    def clear(self) -> None:
        self._groups.clear()

    def group(self, name: str, build: Callable[[], object]):
        """The value `build()` made for `name` (made on first use)."""
        got = self._groups.get(name)
        if got is None:
            got = self._groups[name] = build()
        return got

    def stream(self, sql: str, size: int = 20_000):
        """The rows of `sql` (no parameters), fetched `size` at a time (a large table is never
        held twice: as fetched and as kept)."""
        res = self.con.execute(sql)
        while rows := res.fetchmany(size):
            yield from rows

    def grouped(self, name: str, sql: str, key: int) -> dict:
        """{row[key]: [rows in the query's order]} of `sql` (no parameters)."""
        def build():
            out: dict = {}
            for r in self.stream(sql):
                out.setdefault(r[key], []).append(r)
            return out
        return self.group(name, build)


def enable(con, stamp: Callable[[], object] | None = None) -> RowCache:
    """Serve `con`'s lookups from memory from now on (see the module doc)."""
    c = _CACHES.get(id(con))
    if c is None or c.con is not con:
        c = _CACHES[id(con)] = RowCache(con, stamp)
    return c


def disable(con) -> None:
    c = _CACHES.get(id(con))
    if c is not None and c.con is con:
        del _CACHES[id(con)]


def clear(con) -> None:
    """Forget what was loaded for `con` (its index changed)."""
    c = of(con)
    if c is not None:
        c.clear()


def of(con) -> RowCache | None:
    """The cache of `con` when it was enabled, else None."""
    c = _CACHES.get(id(con))
    if c is None or c.con is not con:
        return None
    return c.fresh()
