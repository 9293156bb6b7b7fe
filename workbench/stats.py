"""Summary figures of an index (what `workbench stats DB` prints), each saying what it counts.

`symbols` counts every row of the `symbols` table, as the index report does: the
definitions (classes, functions, methods, fields, variables...) plus one `module` row per
parsed file. `definitions` leaves the module rows out.
"""
from __future__ import annotations


def stats(con) -> dict:
    one = lambda q: con.execute(q).fetchall()[0][0]  # noqa: E731
    try:
        database = one("SELECT path FROM duckdb_databases() WHERE database_name = current_database()")
    except Exception:  # noqa: BLE001  (an older DuckDB without the function)
        database = None
    return {
        "root": one("SELECT value FROM meta WHERE key = 'root'"),
        "database": database,
        "files": one("SELECT count(*) FROM files"),
        "lines": one("SELECT coalesce(sum(line_count), 0) FROM files"),
        "symbols": one("SELECT count(*) FROM symbols"),
        "definitions": one("SELECT count(*) FROM symbols WHERE kind <> 'module'"),
        "modules": one("SELECT count(*) FROM symbols WHERE kind = 'module'"),
        "edges": one("SELECT count(*) FROM edges"),
        "files_by_status": dict(con.execute(
            "SELECT status, count(*) FROM files GROUP BY 1 ORDER BY 2 DESC, 1").fetchall()),
        "files_by_language": dict(con.execute(
            "SELECT coalesce(language, '(none)'), count(*) FROM files GROUP BY 1 ORDER BY 2 DESC, 1").fetchall()),
        "symbols_by_kind": dict(con.execute(
            "SELECT kind, count(*) FROM symbols GROUP BY 1 ORDER BY 2 DESC, 1").fetchall()),
        "edges_by_kind": dict(con.execute(
            "SELECT kind, count(*) FROM edges GROUP BY 1 ORDER BY 2 DESC, 1").fetchall()),
        "calls_by_resolution": dict(con.execute(
            "SELECT resolution, count(*) FROM edges WHERE kind = 'calls' GROUP BY 1 ORDER BY 2 DESC, 1").fetchall()),
        "skipped": dict(con.execute(
            "SELECT skip_reason, count(*) FROM files WHERE status = 'skipped' GROUP BY 1 ORDER BY 2 DESC, 1").fetchall()),
    }


def format_stats(s: dict) -> str:
    lines = [f"root: {s['root']}"]
    if s.get("database"):
        lines.append(f"database: {s['database']}")
    skipped = sum(s["skipped"].values())
    lines += [f"files: {s['files']} (every file the scan found; {skipped} skipped, not parsed)  "
              f"lines: {s['lines']}",
              f"symbols: {s['symbols']} rows = {s['definitions']} definitions + {s['modules']} "
              "module rows (one per parsed file)",
              f"edges: {s['edges']} relations (by kind below)"]
    for key in ("files_by_status", "files_by_language", "symbols_by_kind", "edges_by_kind",
                "calls_by_resolution", "skipped"):
        if s[key]:
            lines.append(f"{key.replace('_', ' ')}: " + ", ".join(f"{k} {v}" for k, v in s[key].items()))
    return "\n".join(lines)
