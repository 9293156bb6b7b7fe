"""Task sets from an agent's tool-call log (`workbench serve --log FILE`): the definitions
the agent actually read, so rule sets can be measured on what a real session needed.

    >>> rows, skipped = from_log(wb.con, "calls.duckdb")
    >>> rows, skipped = from_log(wb.con, "calls.duckdb", sessions=["3f2a..."])

A call counts as a read of a definition when it is

* `read_region(path, start_line, end_line)`: the innermost definition that holds the whole
  region; when none does (the region spans several), the definitions the region holds whole,
  if there are at most `max_per_read` of them (a read of half a file is exploration, not a
  target);
* `resolve_symbol(name, path)` that returned a definition: the definition the same lookup
  finds in the index (one, or the first of an ambiguous answer's candidates in `path`).

Each definition becomes one task (the first turn that reached it, per session unless
`per_session=False`), with `source = 'log'`, `change = 'read'` and `origin` naming the log,
session and turn. Reads of files that changed after the call (the answer's source version
differs from the index's), of files not in the index and of module-level lines are left out
and listed in `skipped` with the reason.
"""
from __future__ import annotations

import json
import os

import duckdb

from .. import calllog, store
from ..views.lookup import lookup_symbols
from .table import COLUMNS

READ_TOOLS = ("read_region", "resolve_symbol")

_DEF_COLS = "s.symbol_id, s.path, s.language, s.kind, s.name, s.qualname, p.qualname, s.start_line, s.end_line"
_HIDDEN = ("module", "lambda")


def _log_rows(log, sessions) -> list[dict]:
    if isinstance(log, (str, os.PathLike)):
        if not os.path.exists(log):
            raise FileNotFoundError(f"no call log at {log} (workbench serve --log FILE writes one)")
        try:
            con = calllog._open(str(log), read_only=True)
        except duckdb.Error as exc:
            raise ValueError(f"cannot read {log} as a call log: {str(exc).splitlines()[0]}") from None
        try:
            have = {r[0] for r in store.run(con, "SELECT table_name FROM information_schema.tables")}
            if "calls" not in have:
                raise ValueError(f"{log} is not a call log (it has no table calls)")
            cur = con.execute("SELECT session, turn, tool, arguments, source_versions, error "
                              "FROM calls ORDER BY time, session, turn")
            names = [d[0] for d in cur.description]
            rows = [dict(zip(names, r)) for r in cur.fetchall()]
        finally:
            con.close()
    else:                                   # a DataFrame (calllog.load) or a list of dicts
        rows = log.to_dict("records") if hasattr(log, "to_dict") else [dict(r) for r in log]
    if sessions:
        want = set(sessions)
        rows = [r for r in rows if r["session"] in want]
    return rows


def _def_row(con, sid: int) -> tuple:
    return store.one(con, f"""SELECT {_DEF_COLS} FROM symbols s
        LEFT JOIN symbols p ON p.symbol_id = s.parent_id AND p.kind <> 'module'
        WHERE s.symbol_id = ?""", [sid])


def _region_defs(con, path: str, a: int, b: int, max_per_read: int) -> tuple[list[int], str | None]:
    inner = store.run(con, """SELECT symbol_id FROM symbols
        WHERE path = ? AND start_line <= ? AND end_line >= ? AND NOT list_contains(?, kind)
          AND NOT coalesce(is_declaration, false)
        ORDER BY end_line - start_line, start_line DESC, symbol_id LIMIT 1""", [path, a, b, list(_HIDDEN)])
    if inner:
        return [inner[0][0]], None
    whole = store.run(con, """SELECT s.symbol_id FROM symbols s
        WHERE s.path = ? AND s.start_line >= ? AND s.end_line <= ? AND NOT list_contains(?, s.kind)
          AND NOT coalesce(s.is_declaration, false)
          AND NOT EXISTS (SELECT 1 FROM symbols o WHERE o.path = s.path AND o.symbol_id <> s.symbol_id
                            AND NOT list_contains(?, o.kind)
                            AND o.start_line >= ? AND o.end_line <= ?
                            AND o.start_line <= s.start_line AND o.end_line >= s.end_line
                            AND (o.start_line < s.start_line OR o.end_line > s.end_line
                                 OR o.symbol_id < s.symbol_id))
        ORDER BY s.start_line, s.symbol_id""", [path, a, b, list(_HIDDEN), list(_HIDDEN), a, b])
    if not whole:
        return [], "module-level lines (no definition in the region)"
    if len(whole) > max_per_read:
        return [], f"the region holds {len(whole)} definitions (more than {max_per_read}: exploration)"
    return [r[0] for r in whole], None


def _args(raw) -> dict:
    if isinstance(raw, dict):
        return raw
    try:
        out = json.loads(raw or "{}")
    except (TypeError, ValueError):
        return {}
    return out if isinstance(out, dict) else {}


def _int(v) -> int | None:
    try:
        return int(v)
    except (TypeError, ValueError):
        return None


def from_log(con, log, *, sessions=(), task_set: str = "log", per_session: bool = True,
             max_per_read: int = 3) -> tuple[list[dict], list[tuple[str, int, str, str]]]:
    """(task rows, skipped calls as (session, turn, tool, why)). `log`: a call-log file
    (`workbench serve --log`), `calllog.load`'s DataFrame or rows with its columns."""
    con = getattr(con, "con", con)
    label = os.path.basename(str(log)) if isinstance(log, (str, os.PathLike)) else "log"
    rows = _log_rows(log, sessions)
    files = dict(store.run(con, "SELECT path, sha256 FROM files"))
    tasks: list[dict] = []
    seen: set = set()
    skipped: list[tuple[str, int, str, str]] = []
    for r in rows:
        tool = r["tool"]
        if tool not in READ_TOOLS:
            continue
        session, turn = r["session"], r["turn"]
        if r.get("error"):
            skipped.append((session, turn, tool, "the call answered an error"))
            continue
        args = _args(r.get("arguments"))
        path = args.get("path")
        versions = _args(r.get("source_versions"))
        changed = [p for p, v in versions.items() if files.get(p) and v != files[p]]
        if changed:
            skipped.append((session, turn, tool, f"{changed[0]} changed between the call and the index"))
            continue
        if tool == "read_region":
            a, b = _int(args.get("start_line")), _int(args.get("end_line"))
            if path not in files:
                skipped.append((session, turn, tool, f"{path} is not in the index"))
                continue
            if a is None or b is None:
                skipped.append((session, turn, tool, "no line range in the arguments"))
                continue
            ids, why = _region_defs(con, path, max(a, 1), b, max_per_read)
        else:
            name = args.get("name")
            found = lookup_symbols(con, name, path, limit=2) if isinstance(name, str) and name else []
            ids = [found[0][0]] if found else []
            why = None if ids else f"{name!r} is not in the index"
            if ids:
                path = found[0][1]
        if not ids:
            skipped.append((session, turn, tool, why))
            continue
        for sid in ids:
            key = (session if per_session else None, sid)
            if key in seen:
                continue
            seen.add(key)
            _sid, p, lang, kind, nm, qual, pqual, start, end = _def_row(con, sid)
            row = dict.fromkeys(COLUMNS[1:])
            row.update({"task_set": task_set, "source": "log", "change": "read",
                        "origin": f"{label} session {session} turn {turn} ({tool})",
                        "path": p, "language": lang, "kind": kind, "name": nm, "qualname": qual,
                        "parent_qualname": pqual, "start_line": start, "end_line": end})
            tasks.append(row)
    return tasks, skipped
