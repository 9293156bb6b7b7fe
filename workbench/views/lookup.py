"""Looking things up in the index for the tools and widgets: definitions by name, importers
of a file, the files with definitions, whether a path is an indexed directory."""
from __future__ import annotations

import posixpath

from .. import store
from ..graph import Page
from ..vocab import ANONYMOUS_KINDS
from .source import FileInfo


def is_dir(con, rel: str) -> bool:
    if rel == ".":
        return True
    return bool(store.one(con, "SELECT count(*) FROM files WHERE starts_with(path, ?)", [rel + "/"])[0])


def source_files(con) -> list[str]:
    """Paths of the parsed files that have definitions (what an outline can show), in path
    order."""
    return [r[0] for r in store.run(con, """
        SELECT f.path FROM files f
        WHERE f.status IN ('ok', 'partial')
          AND f.file_id IN (SELECT file_id FROM symbols WHERE kind <> 'module')
        ORDER BY f.path""")]


def imported_by(con, info: FileInfo) -> list[str]:
    """Files that import `info`: `imports.resolved_path` when cross-file resolution filled
    it, else a match of import strings against module names and relative paths."""
    resolved = store.one(con, "SELECT count(*) FROM imports WHERE resolved_path IS NOT NULL")[0]
    if resolved:
        return [r[0] for r in store.run(con, "SELECT DISTINCT path FROM imports WHERE resolved_path = ? "
                                        "AND path <> ? ORDER BY path", [info.path, info.path])]
    target_mod = info.module
    stem_path = posixpath.splitext(info.path)[0]
    if stem_path.endswith(("/index", "/__init__", "/mod")):
        stem_dir = posixpath.dirname(stem_path)
    else:
        stem_dir = None
    out = set()
    for path, module, name, fmod in store.run(con, """
            SELECT i.path, i.module, i.name, f.module FROM imports i JOIN files f USING (file_id)
            WHERE i.path <> ?""", [info.path]):
        module = module or ""
        cands = set()
        if module.startswith("."):                       # Python relative import
            dots = len(module) - len(module.lstrip("."))
            is_pkg = path.endswith("/__init__.py")
            base = (fmod or "").split(".")
            base = base if is_pkg else base[:-1]
            base = base[:len(base) - (dots - 1)] if dots > 1 else base
            rest = module[dots:]
            full = ".".join([*base, *([rest] if rest else [])])
            cands |= {full, f"{full}.{name}" if name else full}
        elif module.startswith(("./", "../")):            # JS/TS relative import
            p = posixpath.normpath(posixpath.join(posixpath.dirname(path), module))
            if p == stem_path or (stem_dir is not None and p == stem_dir):
                out.add(path)
            continue
        else:
            cands |= {module, f"{module}.{name}" if name else module}
        if target_mod and target_mod in cands:
            out.add(path)
    return sorted(out)


_LOOKUP = """
WITH m AS (
    SELECT symbol_id, path, kind, qualname, start_line, end_line,
           coalesce(is_declaration, false) AS decl, qualname = $name AS exact
    FROM symbols
    WHERE NOT list_contains($hidden, kind) AND (qualname = $name OR name = $name
          OR ends_with(qualname, '.' || $name)) AND ($path IS NULL OR path = $path)
          AND ($line IS NULL OR $line BETWEEN start_line AND end_line)
), e AS (       -- an exact qualname wins over names and suffixes
    SELECT * FROM m WHERE exact OR NOT coalesce((SELECT bool_or(exact) FROM m), false)
), d AS (       -- definitions win over bare declarations (C prototypes)
    SELECT * FROM e WHERE NOT decl OR NOT coalesce((SELECT bool_or(NOT decl) FROM e), false)
)
SELECT symbol_id, path, kind, qualname, start_line, end_line, decl, count(*) OVER () AS total
FROM d ORDER BY path, start_line, symbol_id
LIMIT $limit
"""


def lookup_symbols(con, name: str, path: str | None = None, limit: int = 50,
                   line: int | None = None) -> Page:
    """The definitions `name` denotes: those whose qualname is `name` if any, else those
    named `name` or whose qualname ends with `.name`; definitions preferred over bare
    declarations (C prototypes). `line`: only definitions whose lines hold it (to choose
    among same-named ones in one file: a property's getter and setter, overloads). Rows
    `(symbol_id, path, kind, qualname, start_line, end_line, is_declaration)` by path, at
    most `limit`; `.total` counts them all."""
    rows = store.run(con, _LOOKUP, {"name": name, "path": path, "limit": limit, "line": line,
                                    "hidden": sorted(ANONYMOUS_KINDS | {"module"})})
    return Page([r[:-1] for r in rows], rows[0][-1] if rows else 0)


def place(path: str | None, line: int | None) -> str:
    """' in PATH at line N' for a lookup's error message."""
    return (f" in {path}" if path else "") + (f" at line {line}" if line is not None else "")


def narrowing(rows) -> str:
    """How to narrow an ambiguous lookup: definitions sharing one qualified name in one file
    (a property's getter and setter, overloads) differ only by their lines."""
    if len({(r[1], r[3]) for r in rows}) == 1:
        return "line inside the one you mean"
    return "qualified name or a path"
