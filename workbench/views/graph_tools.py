"""Call-graph tools as text: find_definition, find_callers, trace_call_chain,
get_architecture_overview.

They format what `workbench.graph` returns when that module is present; otherwise they
fall back to minimal queries over the `edges` table (resolved `dst_id` only, plus
unresolved calls listed separately as such, never guessed).
"""
from __future__ import annotations

import posixpath
from collections import Counter, defaultdict

from .. import store
from .tools import Context, ToolError, _span, imported_by, lookup_symbols, tool
from .source import all_files

try:  # the call-graph module (issue 3); absent in early trees
    from .. import graph as _graph  # type: ignore
except ImportError:  # pragma: no cover - depends on the tree
    _graph = None

MAX_LIST = 40
MAX_UNRESOLVED = 10
CERTAIN = ("local", "import", "alias", "reexport", "self")


def _targets(ctx: Context, symbol: str) -> list[tuple]:
    rows = lookup_symbols(ctx.con, symbol.strip())
    if not rows:
        raise ToolError(f"error: no definition named {symbol!r}; try read_outline or a qualified name")
    return rows


def _ambiguous(symbol: str, rows: list[tuple]) -> str:
    lines = [f"{symbol!r} matches {len(rows)} definitions; call again with a qualified name:"]
    lines += [f"{q} ({k}) {p}:{_span(a, b)}" for _, p, k, q, a, b, _ in rows[:15]]
    if len(rows) > 15:
        lines.append(f"... {len(rows) - 15} more")
    return "\n".join(lines)


@tool("Where a symbol is defined: qualified name, kind, file and line range, signature and "
      "one-line doc, for every definition matching the name.",
      {"symbol": {"type": "string", "description": "name or qualified name"}}, ["symbol"])
def find_definition(ctx: Context, symbol: str):
    rows = _targets(ctx, symbol)
    ids = [r[0] for r in rows]
    info = {r[0]: r[1:] for r in store.run(
        ctx.con, "SELECT symbol_id, signature, doc FROM symbols WHERE list_contains(?, symbol_id)", [ids])}
    lines = []
    for sid, p, k, q, a, b, decl in rows[:MAX_LIST]:
        sig, doc = info.get(sid, (None, None))
        line = f"{q} ({k}{', declaration' if decl else ''}) {p}:{_span(a, b)}"
        if sig:
            line += f"\n  {sig}"
        if doc:
            line += f"\n  {doc}"
        lines.append(line)
    if len(rows) > MAX_LIST:
        lines.append(f"... {len(rows) - MAX_LIST} more")
    data = [{"qualname": q, "kind": k, "path": p, "lines": [a, b]} for _, p, k, q, a, b, _ in rows]
    return "\n".join(lines), data, {}


@tool("Who calls a function or method: each caller with file and line. Calls the index could "
      "not resolve but that use the same name are listed separately, marked unresolved.",
      {"symbol": {"type": "string", "description": "name or qualified name of the callee"}},
      ["symbol"])
def find_callers(ctx: Context, symbol: str):
    rows = _targets(ctx, symbol)
    if len(rows) > 1:
        return _ambiguous(symbol, rows), {"candidates": [r[3] for r in rows]}, {}
    sid, path, kind, qual, a, b, _ = rows[0]
    name = qual.rsplit(".", 1)[-1]
    callers = store.run(ctx.con, """
        SELECT s.qualname, e.path, e.line, e.resolution FROM edges e JOIN symbols s ON s.symbol_id = e.src_id
        WHERE e.kind = 'calls' AND e.dst_id = ? ORDER BY e.path, e.line""", [sid])
    maybe = store.run(ctx.con, """
        SELECT s.qualname, e.path, e.line, e.dst_name FROM edges e JOIN symbols s ON s.symbol_id = e.src_id
        WHERE e.kind = 'calls' AND e.dst_id IS NULL
          AND (e.dst_name = ? OR ends_with(e.dst_name, '.' || ?)) ORDER BY e.path, e.line""", [name, name])
    out = [f"callers of {qual} ({path}:{_span(a, b)}): {len(callers)}"]
    out += [f"  {q} {p}:{ln}" + (f" ({res})" if res and res not in CERTAIN else "")
            for q, p, ln, res in callers[:MAX_LIST]]
    if len(callers) > MAX_LIST:
        out.append(f"  ... {len(callers) - MAX_LIST} more")
    if maybe:
        out.append(f"unresolved calls to a '{name}' (may or may not be this one): {len(maybe)}")
        out += [f"  {q} {p}:{ln} calls {dn}" for q, p, ln, dn in maybe[:MAX_UNRESOLVED]]
        if len(maybe) > MAX_UNRESOLVED:
            out.append(f"  ... {len(maybe) - MAX_UNRESOLVED} more")
    data = {"symbol": qual, "callers": [{"caller": q, "path": p, "line": ln} for q, p, ln, _ in callers],
            "unresolved": [{"caller": q, "path": p, "line": ln, "as_written": dn} for q, p, ln, dn in maybe]}
    return "\n".join(out), data, {}


@tool("The call chain from a function: what it calls, and what those call, down to depth "
      "(direction 'down'); or who calls it, and who calls those (direction 'up').",
      {"symbol": {"type": "string", "description": "name or qualified name"},
       "depth": {"type": "integer", "description": "levels to follow", "default": 3},
       "direction": {"type": "string", "enum": ["down", "up"], "default": "down"}},
      ["symbol"])
def trace_call_chain(ctx: Context, symbol: str, depth: int = 3, direction: str = "down"):
    rows = _targets(ctx, symbol)
    if len(rows) > 1:
        return _ambiguous(symbol, rows), {"candidates": [r[3] for r in rows]}, {}
    depth = max(1, min(int(depth), 8))
    sid, path, kind, qual, a, b, _ = rows[0]
    if direction == "down":
        sql = """SELECT e.dst_id, s.qualname, s.path, s.start_line, s.end_line, e.line, s.kind,
                        e.resolution
                 FROM edges e JOIN symbols s ON s.symbol_id = e.dst_id
                 WHERE e.kind = 'calls' AND e.src_id = ? ORDER BY e.line"""
    else:
        sql = """SELECT e.src_id, s.qualname, s.path, s.start_line, s.end_line, e.line, s.kind,
                        e.resolution
                 FROM edges e JOIN symbols s ON s.symbol_id = e.src_id
                 WHERE e.kind = 'calls' AND e.dst_id = ? ORDER BY s.path, e.line"""
    out = [f"{qual} {path}:{_span(a, b)}"]
    tree = {"symbol": qual, "path": path, "lines": [a, b], "children": []}
    budget = [200]

    def walk(node_id: int, level: int, seen: frozenset, node: dict) -> None:
        if budget[0] <= 0:
            return
        children = store.run(ctx.con, sql, [node_id])
        done = set()
        for cid, q, p, s1, e1, ln, kind, res in children:
            if cid in done:
                continue
            done.add(cid)
            budget[0] -= 1
            if budget[0] < 0:
                out.append("  " * level + "... (output limit reached)")
                return
            mark = f" ({res})" if res and res not in CERTAIN else ""
            mark += " (recursive)" if cid in seen else ""
            if kind == "module":
                q, s1, e1 = f"{q} (module level)", ln, ln
            arrow = "->" if direction == "down" else "<-"
            out.append("  " * level + f"{arrow} {q} {p}:{_span(s1, e1)}{mark}")
            child = {"symbol": q, "path": p, "lines": [s1, e1], "children": []}
            node["children"].append(child)
            if cid not in seen and level < depth:
                walk(cid, level + 1, seen | {cid}, child)
        if direction == "down":
            un = store.run(ctx.con, "SELECT DISTINCT dst_name FROM edges WHERE kind = 'calls' AND "
                                    "src_id = ? AND dst_id IS NULL ORDER BY 1", [node_id])
            if un:
                names = [u[0] for u in un]
                shown = ", ".join(names[:8]) + (f", ... +{len(names) - 8}" if len(names) > 8 else "")
                out.append("  " * level + f"?? unresolved: {shown}")
                node["unresolved"] = names

    walk(sid, 1, frozenset({sid}), tree)
    return "\n".join(out), tree, {}


@tool("Architecture of a directory: its modules with their main definitions, which files "
      "depend on which, and the most used definitions.",
      {"directory": {"type": "string", "description": "directory relative to the repository "
                     "root", "default": "."}})
def get_architecture_overview(ctx: Context, directory: str = "."):
    rel = ctx.path(directory)
    prefix = "" if rel == "." else rel + "/"
    files = [f for f in all_files(ctx.con) if f.path.startswith(prefix) and f.status in ("ok", "partial")
             and f.language not in (None, "markdown", "json", "yaml", "toml", "xml", "html", "css",
                                    "csv", "ini", "text")]
    if not files:
        raise ToolError(f"error: no indexed source files under {rel!r}")
    paths = {f.path for f in files}
    tops = defaultdict(list)
    for p, k, n in store.run(ctx.con, """
            SELECT s.path, s.kind, s.name FROM symbols s JOIN symbols m ON s.parent_id = m.symbol_id
            WHERE m.kind = 'module' AND s.kind NOT IN ('variable', 'constant', 'field')
              AND (? = '' OR starts_with(s.path, ?)) ORDER BY s.path, s.start_line""", [prefix, prefix]):
        tops[p].append((k, n))
    docs = dict(store.run(ctx.con, "SELECT path, doc FROM symbols WHERE kind = 'module' AND doc IS NOT NULL "
                                   "AND (? = '' OR starts_with(path, ?))", [prefix, prefix]))
    total_lines = sum(f.line_count or 0 for f in files)
    out = [f"{rel if rel != '.' else 'repository'}: {len(files)} source files, {total_lines:,} lines"]
    out.append("modules:")
    for f in files[:60]:
        defs = tops.get(f.path, [])
        kinds = Counter(k for k, _ in defs)
        names = ", ".join(n for _, n in defs[:6]) + (f", +{len(defs) - 6}" if len(defs) > 6 else "")
        line = f"  {f.path} ({f.line_count} lines"
        if kinds:
            line += "; " + ", ".join(f"{v} {k}{'es' if k == 'class' and v > 1 else ('s' if v > 1 else '')}"
                                      for k, v in kinds.most_common())
        line += ")"
        if names:
            line += f": {names}"
        if docs.get(f.path):
            line += f" \u2014 {docs[f.path]}"
        out.append(line)
    if len(files) > 60:
        out.append(f"  ... {len(files) - 60} more files")
    deps = defaultdict(set)
    for f in files:
        for src in imported_by(ctx.con, f):
            if src in paths:
                deps[src].add(f.path)
    if deps:
        out.append("dependencies (file -> files it imports, inside this directory):")
        for src in sorted(deps)[:60]:
            out.append(f"  {src} -> {', '.join(sorted(deps[src]))}")
    hot = store.run(ctx.con, """
        SELECT s.qualname, s.path, count(*) AS n, count(DISTINCT e.path) AS files
        FROM edges e JOIN symbols s ON s.symbol_id = e.dst_id
        WHERE e.kind = 'calls' AND (? = '' OR starts_with(s.path, ?))
        GROUP BY ALL ORDER BY n DESC, s.qualname LIMIT 10""", [prefix, prefix])
    if hot:
        out.append("most called: " + ", ".join(f"{q} ({n} calls from {fs} file{'s' if fs != 1 else ''})"
                                               for q, _, n, fs in hot))
    data = {"directory": rel, "files": [f.path for f in files],
            "dependencies": {k: sorted(v) for k, v in deps.items()},
            "most_called": [{"symbol": q, "path": p, "calls": n} for q, p, n, _ in hot]}
    return "\n".join(out), data, {}
