"""The evaluated rows written back: the changed edge rows (`_write_back`: an `UPDATE ...
FROM` per Arrow table, or, in a full run, the edges table written anew in one pass and
swapped in, `_rebuild_edges`), the callback rows of the evaluated files
(`_write_callbacks`), the imports rows whose resolved path changed, and `call_candidates`
rebuilt from `edges.candidates` (`_write_candidates`: all of it, or in an incremental run
the rows of the edges it touched and those a change made stale).

Callback and implicit rows (`fileeval._callbacks`, `fileeval._implicit_sites`; resolutions
`vocab.ADDED_SQL`) are the only edges the resolver adds: no call expression stands
for them, so a file's rows are whatever its last evaluation found.
The evaluated files' rows in the table are replaced by those: a row found again keeps
its id, the rest are deleted, and new ones are inserted with ids above every id handed out
(`store.next_ids`), as the indexer gives them.
"""
from __future__ import annotations

from array import array

import pyarrow as pa

from .. import schema, store
from ..vocab import ADDED_SQL
from . import quiet
from .rows import _Rows


def _write_back(con, rows: _Rows, imp_rows: tuple[array, list], rebuild: bool = False,
                paths: list[str] | None = None, meta: dict | None = None) -> int:
    """Write the changed edge rows (`_Rows.tables`; a target's qualname from `symbols`),
    the callback rows of the evaluated files `paths` (None: every file; `_Rows.callbacks`)
    and the imports rows whose resolved path changed (row ids, paths); returns how many
    rows. The edge rows go in with an `UPDATE` per table (a smaller join each), or, with
    `rebuild` (a full run: most rows change), into the edges table written anew
    (`_rebuild_edges`)."""
    gone, new = _callback_changes(con, rows, paths)
    if gone:            # before a rebuild, which then leaves them out
        store.run(con, "DELETE FROM edges WHERE edge_id IN (SELECT unnest($ids::BIGINT[]))", {"ids": gone})
    rows.edge_ids.extend(gone)          # their candidate rows go (`_write_candidates`)
    n = len(gone)
    if rebuild and rows.tables:
        n += _rebuild_edges(con, rows)
    while rows.tables:
        tbl = rows.tables.pop(0)
        store.run_over(con, tbl, """
            UPDATE edges SET dst_id = t.dst_id, dst_qualname = t.dst_qualname,
                             resolution = t.resolution, candidates = t.candidates
            FROM (SELECT w.edge_id, w.dst_id, coalesce(w.dst_qualname, s.qualname) AS dst_qualname,
                         w.resolution, w.candidates
                  FROM _wb_rows w LEFT JOIN symbols s ON s.symbol_id = w.dst_id) t
            WHERE edges.edge_id = t.edge_id""")
        n += tbl.num_rows
        del tbl
    added = _insert_callbacks(con, new, meta)
    rows.edge_ids.extend(added)         # their candidate rows come
    n += len(added)
    rids, rpaths = imp_rows
    if rids:
        import numpy as np
        tbl = pa.table({"rid": store.arrow_array(np.array(rids, dtype=np.int64), pa.int64()),
                        "resolved_path": store.arrow_array(rpaths, pa.string())})
        store.run_over(con, tbl, """UPDATE imports SET resolved_path = t.resolved_path
                                    FROM _wb_rows t WHERE imports.rowid = t.rid""")
        n += len(rids)
    return n


_CALLBACK_COLS = ("path", "src_id", "dst_name", "line", "dst_id", "candidates", "resolution")
_CALLBACK_TYPES = (pa.string(), pa.int64(), pa.string(), pa.int32(), pa.int64(), pa.list_(pa.string()),
                   pa.string())
_CANDS = 5                      # the position of `candidates` in `_CALLBACK_COLS`


def _callback_changes(con, rows: _Rows, paths: list[str] | None) -> tuple[list[int], list[tuple]]:
    """The callback rows of `paths` (None: all) to delete (edge ids) and to insert (path,
    src_id, dst_name, line, dst_id, candidates; in path order, a file's in the order
    evaluation found them) for the table to hold the rows evaluation found
    (`rows.callbacks`, let go): a row found again stays as it is."""
    found: list[tuple] = []
    for tbl in rows.callbacks:
        cols = [tbl.column(c).to_pylist() for c in _CALLBACK_COLS]
        cols[_CANDS] = [tuple(c) if c is not None else None for c in cols[_CANDS]]
        found.extend(zip(*cols))
    rows.callbacks.clear()
    found.sort(key=lambda r: r[0])      # stable: files in path order whichever process had them
    where = "" if paths is None else "AND path IN (SELECT unnest($p::VARCHAR[]))"
    old = store.run(con, f"""SELECT edge_id, {', '.join(_CALLBACK_COLS)} FROM edges
                             WHERE resolution IN {ADDED_SQL} {where} ORDER BY edge_id""",
                    {} if paths is None else {"p": sorted(paths)})
    if not old:
        return [], found
    want = set(found)
    kept: set[tuple] = set()
    gone = []
    for eid, *key in old:
        key[_CANDS] = tuple(key[_CANDS]) if key[_CANDS] is not None else None
        key = tuple(key)
        if key in want and key not in kept:
            kept.add(key)
        else:
            gone.append(eid)
    return gone, [r for r in found if r not in kept]


def _insert_callbacks(con, new: list[tuple], meta: dict | None = None) -> list[int]:
    """Insert added rows (`_callback_changes`): kind `calls`, resolution `callback` or `implicit`, the
    target's qualname from `symbols`, ids above every id handed out. Returns their ids.
    `meta`: `meta` values the run writes before it commits, where the ids handed out go
    (else written now)."""
    if not new:
        return []
    (first,) = store.next_ids(con, (("edges", "edge_id"),))
    ids = list(range(first, first + len(new)))
    cols = [list(c) for c in zip(*new)]
    cols[_CANDS] = [list(c) if c is not None else None for c in cols[_CANDS]]
    tbl = pa.table({"edge_id": store.arrow_array(ids, pa.int64()),
                    **{c: store.arrow_array(v, t) for c, v, t in zip(_CALLBACK_COLS, cols, _CALLBACK_TYPES)}})
    store.run_over(con, tbl, """
        INSERT INTO edges (edge_id, src_id, kind, dst_name, dst_id, dst_qualname, path, line,
                           resolution, candidates)
        SELECT w.edge_id, w.src_id, 'calls', w.dst_name, w.dst_id, s.qualname, w.path, w.line,
               w.resolution, w.candidates
        FROM _wb_rows w LEFT JOIN symbols s ON s.symbol_id = w.dst_id
        ORDER BY w.edge_id""")
    if meta is not None:
        meta.update(store.used_ids_meta(edges=ids[-1]))
    else:
        store.used_ids(con, edges=ids[-1])
    return ids


#: edge ids per statement of `_rebuild_edges`: each joins only the changed rows of its
#: range (the hash join over every changed row of the standard library, ~360k, added
#: ~30 MiB more to the run's peak than ranges of this size; ~0.05 s more CPU in all)
REBUILD_IDS = 100_000


def _rebuild_edges(con, rows: _Rows) -> int:
    """The edges table written anew with the changed rows (`rows.tables`, let go) in place
    of theirs, in one pass (the old table left join the changed rows, a target's qualname
    from `symbols`; a statement per `REBUILD_IDS` edge ids, in id order), then swapped in
    under the old name: the same columns, constraints and rows as the `UPDATE` would
    leave. Returns how many rows changed."""
    tbl = pa.concat_tables(rows.tables)
    rows.tables.clear()
    cols = schema.columns("edges")
    new = {"dst_id": "t.dst_id", "dst_qualname": "coalesce(t.dst_qualname, s.qualname)",
           "resolution": "t.resolution", "candidates": "t.candidates"}
    pick = ", ".join(f"CASE WHEN t.edge_id IS NULL THEN e.{c} ELSE {new[c]} END" if c in new else f"e.{c}"
                     for c in cols)
    lo, hi = store.one(con, "SELECT min(edge_id), max(edge_id) FROM edges")
    # one thread, and each row group written out as it fills: else DuckDB buffers up to
    # five row groups per thread (the whole table of the standard library, ~60 MB more at
    # the write, next to the resolver's model)
    saved = store.one(con, "SELECT current_setting('threads'), current_setting('write_buffer_row_group_count')")
    store.run(con, "SET threads = 1")
    store.run(con, "SET write_buffer_row_group_count = 1")
    try:
        store.run(con, "DROP TABLE IF EXISTS _wb_edges")
        store.run(con, schema.create_sql("edges", "_wb_edges"))
        for start in range(lo, hi + 1, REBUILD_IDS) if lo is not None else ():
            store.run_over(con, tbl, f"""
                INSERT INTO _wb_edges
                SELECT {pick}
                FROM (SELECT * FROM edges WHERE edge_id >= $a AND edge_id < $b) e
                LEFT JOIN (SELECT * FROM _wb_rows WHERE edge_id >= $a AND edge_id < $b) t
                  ON t.edge_id = e.edge_id
                LEFT JOIN symbols s ON s.symbol_id = t.dst_id""", {"a": start, "b": start + REBUILD_IDS})
    finally:
        store.run(con, f"SET threads = {int(saved[0])}")
        store.run(con, f"SET write_buffer_row_group_count = {int(saved[1])}")
    store.run(con, "DROP TABLE edges")
    store.run(con, "ALTER TABLE _wb_edges RENAME TO edges")
    return tbl.num_rows


def _write_candidates(con, edge_ids: list[int] | None = None, changed: list[str] | None = None,
                      before: quiet.Before | None = None, m=None) -> None:
    """Rebuild `call_candidates` (one row per candidate of an ambiguous edge, with the
    candidate's symbol id) from `edges.candidates`: one set-wise statement, so it never
    drifts from the edges or from re-created symbols.

    Incremental runs (`edge_ids`: the edges just re-resolved, `changed`: the changed
    paths) rebuild the rows of those edges only, plus the rows a change can make wrong
    elsewhere: rows of edges that are gone (or have no candidates now), rows whose symbol
    is gone, and rows naming a qualname defined in a changed file. The result is the same
    as a full rebuild. `before` (`quiet.Before` of every changed file) names the edges and
    symbols that are gone: looked up by id instead of scanned for (an edge that has no
    candidates now and is not gone was re-resolved, so it is among `edge_ids`). `m`: the
    run's model, whose symbols by qualname (`Model.with_qualnames`) stand for the symbols
    table's (the changed files' qualnames, the candidates' symbols).
    With both `before` and `m`, only the rows whose symbols a change can alter are made
    again (`_write_candidates_of`)."""
    if edge_ids is None:
        store.run(con, "DELETE FROM call_candidates")
        store.run(con, """
            INSERT INTO call_candidates
            SELECT c.edge_id, c.q, s.symbol_id
            FROM (SELECT edge_id, unnest(candidates) AS q FROM edges WHERE candidates IS NOT NULL) c
            LEFT JOIN symbols s ON s.qualname = c.q""")
        return
    if m is not None and before is not None:
        _write_candidates_of(con, edge_ids, changed or [], before, m)
        return
    if before is not None:
        gone = """
            UNION SELECT edge_id FROM call_candidates WHERE edge_id IN (SELECT unnest($gone_e::BIGINT[]))
            UNION SELECT edge_id FROM call_candidates WHERE symbol_id IN (SELECT unnest($gone_s::BIGINT[]))"""
        prm = {"gone_e": before.edge_ids, "gone_s": before.symbol_ids}
    else:
        gone = """
            UNION SELECT c.edge_id FROM (SELECT DISTINCT edge_id FROM call_candidates) c
                  ANTI JOIN (SELECT edge_id FROM edges WHERE candidates IS NOT NULL) e
                    ON e.edge_id = c.edge_id
            UNION SELECT c.edge_id FROM call_candidates c
                  WHERE c.symbol_id IS NOT NULL
                    AND NOT EXISTS (SELECT 1 FROM symbols s WHERE s.symbol_id = c.symbol_id)"""
        prm = {}
    # the edges to redo into Python (no temporary table), then their rows deleted and rebuilt
    if m is not None:
        defined = """
            UNION SELECT edge_id FROM call_candidates WHERE qualname IN (SELECT unnest($quals::VARCHAR[]))"""
        prm["quals"] = sorted({m.qual[i] for i in m.symbols_in(changed or [])})
    else:
        defined = """
            UNION SELECT c.edge_id FROM call_candidates c
                  JOIN (SELECT DISTINCT qualname FROM symbols
                        WHERE path IN (SELECT unnest($chg::VARCHAR[]))) q
                    ON q.qualname = c.qualname"""
        prm["chg"] = changed or []
    redo = [r[0] for r in store.run_over(con, pa.table({"edge_id": store.arrow_array(edge_ids, pa.int64())}), f"""
            SELECT edge_id FROM _wb_rows{gone}{defined}""", prm)]
    if not redo:
        return
    ids = {"ids": sorted(redo)}
    store.run(con, "DELETE FROM call_candidates WHERE edge_id IN (SELECT unnest($ids::BIGINT[]))", ids)
    if m is None:
        store.run(con, """
            INSERT INTO call_candidates
            SELECT c.edge_id, c.q, s.symbol_id
            FROM (SELECT edge_id, unnest(candidates) AS q FROM edges
                  WHERE candidates IS NOT NULL AND edge_id IN (SELECT unnest($ids::BIGINT[]))) c
            LEFT JOIN symbols s ON s.qualname = c.q""", ids)
        return
    # the same rows, the candidates' symbols from the model
    _insert_candidates(con, m, store.run(con, """
        SELECT edge_id, unnest(candidates) AS q FROM edges
        WHERE candidates IS NOT NULL AND edge_id IN (SELECT unnest($ids::BIGINT[]))""", ids))


def _write_candidates_of(con, edge_ids: list[int], changed: list[str], before: quiet.Before, m) -> None:
    """`_write_candidates` of an incremental run with `before` and the run's model `m`: the rows of the edges re-resolved or gone (`edge_ids`,
    `before.edge_ids`) made again, and of the other edges only the rows naming a qualname
    whose symbols changed: one defined in a changed file before or after the edit
    (`before.qualnames`, the model's symbols of `changed`). A qualname defined in no
    changed file has the same symbols as before, so the other rows stand as they are; the
    result is the same as a full rebuild's. (Making every row of each edge that names a
    changed file's qualname again, as the other ways do, wrote ~27,000 rows for an edit
    of `json/encoder.py`, whose method names are common elsewhere; ~1,000 here.)"""
    redo = sorted(set(edge_ids) | set(before.edge_ids))
    quals = sorted({m.qual[i] for i in m.symbols_in(changed)} | set(before.qualnames))
    if redo:
        store.run(con, "DELETE FROM call_candidates WHERE edge_id IN (SELECT unnest($ids::BIGINT[]))",
                  {"ids": redo})
    cands = store.run(con, """SELECT edge_id, unnest(candidates) AS q FROM edges
                              WHERE candidates IS NOT NULL AND edge_id IN (SELECT unnest($ids::BIGINT[]))""",
                      {"ids": redo}) if redo else []
    # the other edges' rows naming those qualnames: as often as each edge's candidates name
    # one, which its rows say (a row per symbol the qualname had, or one without)
    hit = store.run(con, """DELETE FROM call_candidates WHERE qualname IN (SELECT unnest($q::VARCHAR[]))
                            RETURNING edge_id, qualname, symbol_id""", {"q": quals}) if quals else []
    groups: dict[tuple, list] = {}
    for eid, q, sid in hit:
        groups.setdefault((eid, q), []).append(sid)
    # (rows that are not a whole number of lists' worth: that edge's list read instead)
    odd = {e for (e, _), sids in groups.items() if len(sids) % len(set(sids))}
    for (e, q), sids in groups.items():
        if e not in odd:
            cands.extend([(e, q)] * (len(sids) // len(set(sids))))
    if odd:
        want = set(quals)
        cands.extend((e, q) for e, q in store.run(con, """
            SELECT edge_id, unnest(candidates) AS q FROM edges
            WHERE candidates IS NOT NULL AND edge_id IN (SELECT unnest($ids::BIGINT[]))""",
            {"ids": sorted(odd)}) if q in want)
    _insert_candidates(con, m, cands)


def _insert_candidates(con, m, cands: list[tuple]) -> None:
    """Insert the `call_candidates` rows of the (edge id, candidate qualname) pairs
    `cands`: one per symbol of that qualname (the model's, `Model.with_qualnames`), or one
    without a symbol."""
    if not cands:
        return
    held = m.with_qualnames({q for _, q in cands})
    out_e, out_q, out_s = [], [], []
    for eid, q in cands:
        for sid in held.get(q) or (None,):
            out_e.append(eid)
            out_q.append(q)
            out_s.append(sid)
    store.run_over(con, pa.table({"edge_id": store.arrow_array(out_e, pa.int64()),
                                  "qualname": store.arrow_array(out_q, pa.string()),
                                  "symbol_id": store.arrow_array(out_s, pa.int64())}),
                   "INSERT INTO call_candidates SELECT edge_id, qualname, symbol_id FROM _wb_rows")

