"""Summary figures of an index (what `workbench stats DB` prints)."""
from __future__ import annotations


def stats(con) -> dict:
    one = lambda q: con.execute(q).fetchall()[0][0]  # noqa: E731
    return {
        "root": one("SELECT value FROM meta WHERE key = 'root'"),
        "files": one("SELECT count(*) FROM files"),
        "lines": one("SELECT coalesce(sum(line_count), 0) FROM files"),
        "symbols": one("SELECT count(*) FROM symbols WHERE kind <> 'module'"),
        "edges": one("SELECT count(*) FROM edges"),
        "files_by_status": dict(con.execute(
            "SELECT status, count(*) FROM files GROUP BY 1 ORDER BY 2 DESC").fetchall()),
        "files_by_language": dict(con.execute(
            "SELECT coalesce(language, '(none)'), count(*) FROM files GROUP BY 1 ORDER BY 2 DESC").fetchall()),
        "symbols_by_kind": dict(con.execute(
            "SELECT kind, count(*) FROM symbols GROUP BY 1 ORDER BY 2 DESC").fetchall()),
        "edges_by_kind": dict(con.execute(
            "SELECT kind, count(*) FROM edges GROUP BY 1 ORDER BY 2 DESC").fetchall()),
        "calls_by_resolution": dict(con.execute(
            "SELECT resolution, count(*) FROM edges WHERE kind = 'calls' GROUP BY 1 ORDER BY 2 DESC").fetchall()),
        "skipped": dict(con.execute(
            "SELECT skip_reason, count(*) FROM files WHERE status = 'skipped' GROUP BY 1 ORDER BY 2 DESC").fetchall()),
    }


def format_stats(s: dict) -> str:
    lines = [f"root: {s['root']}",
             f"files: {s['files']}  lines: {s['lines']}  symbols: {s['symbols']}  edges: {s['edges']}"]
    for key in ("files_by_status", "files_by_language", "symbols_by_kind", "edges_by_kind",
                "calls_by_resolution", "skipped"):
        if s[key]:
            lines.append(f"{key.replace('_', ' ')}: " + ", ".join(f"{k} {v}" for k, v in s[key].items()))
    return "\n".join(lines)
