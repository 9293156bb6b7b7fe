"""Task sets from names: each name (a qualified name, a bare name, or `path:name`) becomes
one task per definition it denotes in the index; without names, every definition of the
given kinds (e.g. every function and method: the strategy benchmark's task set).

    >>> rows, missing = from_symbols(con, ["shop.orders.Order.add_item", "shop/cli.py:main"])
    >>> rows, _ = from_symbols(con, kinds=["function", "method"], paths=["shop/"])
"""
from __future__ import annotations

from .. import store
from ..views.lookup import lookup_symbols
from .table import COLUMNS

_COLS = "symbol_id, path, language, kind, name, qualname, parent_id, start_line, end_line"


def _rows(con, ids: list[int]) -> list[tuple]:
    return store.run(con, f"""
        SELECT {', '.join('s.' + c for c in _COLS.split(', '))}, p.qualname
        FROM symbols s LEFT JOIN symbols p ON p.symbol_id = s.parent_id AND p.kind <> 'module'
        WHERE list_contains(?, s.symbol_id) ORDER BY s.path, s.start_line, s.symbol_id""", [ids])


def from_symbols(con, names: list[str] = (), *, kinds: list[str] = (), paths: list[str] = (),
                 task_set: str = "symbols", origin: str | None = None) -> tuple[list[dict], list[str]]:
    """(task rows, names that matched nothing). With `names`, each is looked up like
    `resolve_symbol` does (an exact qualified name wins; `path:name` looks in one file);
    `kinds` and `paths` (prefixes) filter the matches. Without names, every definition of
    `kinds` (declarations and anonymous definitions excluded) under `paths`."""
    con = getattr(con, "con", con)
    ids: list[int] = []
    missing: list[str] = []
    if names:
        for raw in names:
            item = raw.strip()
            if not item:
                continue
            path = None
            if ":" in item and not item.startswith(":"):
                path, item = item.split(":", 1)
            found = [r[0] for r in lookup_symbols(con, item, path, limit=1000)]
            found = _filter(con, found, kinds, paths)
            if not found:
                missing.append(raw.strip())
            ids.extend(i for i in found if i not in ids)
    else:
        if not kinds:
            raise ValueError("give names, or kinds to take every definition of (e.g. function, method)")
        ids = [r[0] for r in store.run(con, """
            SELECT symbol_id FROM symbols WHERE list_contains(?, kind)
              AND NOT coalesce(is_declaration, false)
            ORDER BY path, start_line""", [list(kinds)])]
        ids = _filter(con, ids, (), paths)
    rows = []
    for sid, path, lang, kind, name, qual, _parent, a, b, pqual in _rows(con, ids):
        row = dict.fromkeys(COLUMNS[1:])
        row.update({"task_set": task_set, "source": "symbols", "origin": origin, "change": "named",
                    "path": path, "language": lang, "kind": kind, "name": name, "qualname": qual,
                    "parent_qualname": pqual, "start_line": a, "end_line": b})
        rows.append(row)
    return rows, missing


def _filter(con, ids: list[int], kinds, paths) -> list[int]:
    if not ids or (not kinds and not paths):
        return ids
    keep = store.run(con, """SELECT symbol_id FROM symbols WHERE list_contains(?, symbol_id)
        AND (len(?) = 0 OR list_contains(?, kind))
        AND (len(?) = 0 OR len(list_filter(?, lambda p: path = p OR starts_with(path, rtrim(p, '/') || '/'))) > 0)""",
                     [ids, list(kinds), list(kinds), list(paths), list(paths)])
    keep = {r[0] for r in keep}
    return [i for i in ids if i in keep]
