"""Rows a kept model carries over a refresh, for the indexes a language reads once per
model from the tables (a few hundred rows found by a scan of a whole table: Python's
`global` declarations, containers filled through attributes, the functions that raise
`NotImplementedError`).

A refreshed model keeps the last run's rows without those of the symbols gone, and the
first id of the symbols added since (`carry`); the index, when next needed, is those rows
plus the table's rows from that id on (`since_first`). Symbol ids are handed out in
increasing order, so the rows from that id on are the re-indexed files' (a few, at the
end of the tables, which DuckDB's zone maps skip to). A model that never read an index
carries nothing, and one that carried rows without reading them carries them on with the
lower of the two first ids.
"""
from __future__ import annotations


def carry(m, old_ext: dict, key: str, last, drop, new: list[int]) -> None:
    """Keep under `m.ext[key]` the rows of the last run: `last` when that run read them,
    else what it carried under `key`; `drop(rows)` leaves out those of the symbols gone.
    `new` holds the ids of the symbols added by this refresh."""
    if last is not None:
        first = None
    else:
        last, first = old_ext.get(key, (None, None))
        if last is None:
            return
    firsts = [f for f in (first, min(new, default=None)) if f is not None]
    m.ext[key] = (drop(last), min(firsts) if firsts else max(m.kind, default=0) + 1)


def since_first(m, key: str, sql: str, params: dict | None = None) -> tuple:
    """(the rows carried under `key`, or None; the rows `sql` gives). `sql` ends its WHERE
    clause with `{since}`, which limits it to the symbols added since the carried rows
    were read (nothing is limited when none were carried). Takes the carried rows out of
    `m.ext`: the caller stores the index it makes of them."""
    base, first = m.ext.pop(key, (None, None))
    if base is None:
        return None, m.con.execute(sql.format(since=""), params).fetchall()
    return base, m.con.execute(sql.format(since="AND src_id >= $first"),
                               {**(params or {}), "first": first}).fetchall()
