"""Call-graph tools as text: find_definition, find_callers, trace_call_chain,
get_architecture_overview.

They format what `workbench.graph` returns (issue 3: resolution-labelled call sites,
breadth-first chains, architecture units). When that module is missing they fall back
to minimal queries over the `edges` table (resolved `dst_id` only). Either way, how sure
an edge is stays visible: uncertain resolutions are labelled, unresolved calls that use
the same name are listed separately as such, never merged in.
"""
from __future__ import annotations

from collections import Counter, defaultdict

from .. import store
from .source import all_files
from .tools import Context, ToolError, _span, imported_by, lookup_symbols, tool

MAX_LIST = 40
MAX_UNRESOLVED = 10
MAX_TREE_LINES = 200
CERTAIN = ("local", "import", "alias", "reexport", "self")
_DATA_LANGS = ("markdown", "json", "yaml", "toml", "xml", "html", "css", "csv", "ini", "text")


def _graph():
    """`workbench.graph` when present (it is issue 3's module), else None."""
    try:
        from .. import graph
    except ImportError:
        return None
    return graph


def _label(res: str | None) -> str:
    return f" ({res})" if res and res not in CERTAIN else ""


def _ambiguous(symbol: str, rows: list[tuple]) -> str:
    """rows: (qualname, kind, path, start, end)."""
    lines = [f"{symbol!r} matches {len(rows)} definitions; call again with a qualified name:"]
    lines += [f"{q} ({k}) {p}:{_span(a, b)}" for q, k, p, a, b in rows[:15]]
    if len(rows) > 15:
        lines.append(f"... {len(rows) - 15} more")
    return "\n".join(lines)


def _not_found(symbol: str) -> ToolError:
    return ToolError(f"error: no definition named {symbol!r}; try read_outline or a qualified name")


def _resolve(ctx: Context, symbol: str) -> tuple[int | None, str | None]:
    """(symbol id, None) or (None, ambiguity text); raises ToolError when nothing matches."""
    symbol = symbol.strip()
    if not symbol:
        raise ToolError("error: give a symbol name")
    g = _graph()
    if g is not None:
        try:
            return g.resolve_symbol(ctx.con, symbol), None
        except g.AmbiguousSymbol as exc:
            return None, _ambiguous(symbol, [(m.qualname, m.kind, m.path, m.start_line, m.end_line)
                                             for m in exc.matches])
        except g.SymbolNotFound:
            raise _not_found(symbol) from None
    rows = lookup_symbols(ctx.con, symbol)
    if not rows:
        raise _not_found(symbol)
    if len(rows) > 1:
        return None, _ambiguous(symbol, [(q, k, p, a, b) for _, p, k, q, a, b, _ in rows])
    return rows[0][0], None


def _syms(ctx: Context, ids) -> dict[int, tuple]:
    """symbol id -> (qualname, kind, path, start, end)."""
    ids = sorted({i for i in ids if i is not None})
    if not ids:
        return {}
    return {r[0]: r[1:] for r in store.run(ctx.con, """
        SELECT symbol_id, qualname, kind, path, start_line, end_line FROM symbols
        WHERE list_contains(?, symbol_id)""", [ids])}


def _where(info: tuple) -> str:
    q, kind, path, a, b = info
    return f"{q} (module level) {path}" if kind == "module" else f"{q} {path}:{_span(a, b)}"


# ---------------------------------------------------------------- find_definition

@tool("Where a symbol is defined: qualified name, kind, file and line range, signature and "
      "one-line doc, for every definition matching the name (best match first).",
      {"symbol": {"type": "string", "description": "name or qualified name"}}, ["symbol"])
def find_definition(ctx: Context, symbol: str):
    symbol = symbol.strip()
    if not symbol:
        raise ToolError("error: give a symbol name")
    g = _graph()
    if g is not None:
        defs = [(d.symbol_id, d.qualname, d.kind, d.path, d.start_line, d.end_line, d.signature,
                 d.doc, d.callers) for d in g.find_definition(ctx.con, symbol, limit=MAX_LIST + 1)]
    else:
        rows = lookup_symbols(ctx.con, symbol)
        info = {r[0]: r[1:] for r in store.run(ctx.con, """
            SELECT symbol_id, signature, doc FROM symbols WHERE list_contains(?, symbol_id)""",
            [[r[0] for r in rows]])}
        defs = [(sid, q, k, p, a, b, *info.get(sid, (None, None)), None)
                for sid, p, k, q, a, b, _ in rows]
    if not defs:
        raise _not_found(symbol)
    lines = []
    for sid, q, k, p, a, b, sig, doc, callers in defs[:MAX_LIST]:
        line = f"{q} ({k}) {p}:{_span(a, b)}"
        if callers:
            line += f" \u2014 {callers} call site{'s' if callers != 1 else ''}"
        if sig:
            line += f"\n  {sig}"
        if doc:
            line += f"\n  {doc}"
        lines.append(line)
    if len(defs) > MAX_LIST:
        lines.append("... more matches; use a qualified name")
    data = [{"qualname": q, "kind": k, "path": p, "lines": [a, b], "callers": c}
            for _, q, k, p, a, b, _, _, c in defs[:MAX_LIST]]
    return "\n".join(lines), data, {}


# ---------------------------------------------------------------- find_callers

@tool("Who calls a function or method (a class: also its constructor): each call site with "
      "file and line, and how sure the link is. Calls the index could not resolve but that "
      "use the same name are listed separately, marked unresolved.",
      {"symbol": {"type": "string", "description": "name or qualified name of the callee"}},
      ["symbol"])
def find_callers(ctx: Context, symbol: str):
    sid, amb = _resolve(ctx, symbol)
    if amb:
        return amb, {"ambiguous": True}, {}
    me = _syms(ctx, [sid])[sid]
    qual = me[0]
    name = qual.rsplit(".", 1)[-1]
    g = _graph()
    if g is not None:
        sites = [(c.caller, c.caller_kind, c.path, c.line, c.resolution, c.candidates)
                 for c in g.find_callers(ctx.con, sid)]
    else:
        sites = [(q, k, p, ln, res, None) for q, k, p, ln, res in store.run(ctx.con, """
            SELECT s.qualname, s.kind, e.path, e.line, e.resolution FROM edges e
            JOIN symbols s ON s.symbol_id = e.src_id
            WHERE e.kind = 'calls' AND e.dst_id = ? ORDER BY e.path, e.line""", [sid])]
    seen = {(p, ln) for _, _, p, ln, _, _ in sites}
    maybe = [r for r in store.run(ctx.con, """
        SELECT s.qualname, e.path, e.line, e.dst_name FROM edges e JOIN symbols s ON s.symbol_id = e.src_id
        WHERE e.kind = 'calls' AND e.dst_id IS NULL AND e.candidates IS NULL
          AND (e.dst_name = ? OR ends_with(e.dst_name, '.' || ?)) ORDER BY e.path, e.line""",
        [name, name]) if (r[1], r[2]) not in seen]
    out = [f"callers of {qual} ({me[2]}:{_span(me[3], me[4])}): {len(sites)} call "
           f"site{'s' if len(sites) != 1 else ''}"]
    for q, k, p, ln, res, cands in sites[:MAX_LIST]:
        who = f"{q} (module level)" if k == "module" else q
        extra = _label(res)
        if res == "ambiguous" and cands:
            extra = f" (ambiguous: one of {', '.join(cands[:4])}{', ...' if len(cands) > 4 else ''})"
        out.append(f"  {who} {p}:{ln}{extra}")
    if len(sites) > MAX_LIST:
        out.append(f"  ... {len(sites) - MAX_LIST} more")
    if maybe:
        out.append(f"unresolved calls to a '{name}' (may or may not be this one): {len(maybe)}")
        out += [f"  {q} {p}:{ln} calls {dn}" for q, p, ln, dn in maybe[:MAX_UNRESOLVED]]
        if len(maybe) > MAX_UNRESOLVED:
            out.append(f"  ... {len(maybe) - MAX_UNRESOLVED} more")
    data = {"symbol": qual,
            "callers": [{"caller": q, "path": p, "line": ln, "resolution": res}
                        for q, _, p, ln, res, _ in sites],
            "unresolved": [{"caller": q, "path": p, "line": ln, "as_written": dn}
                           for q, p, ln, dn in maybe]}
    return "\n".join(out), data, {}


# ---------------------------------------------------------------- trace_call_chain

def _chain_edges(ctx: Context, sid: int, depth: int, direction: str) -> list[tuple]:
    """(depth, parent id, child id, resolution, cycle, call-site line): parent is the
    caller going down, the callee going up."""
    g = _graph()
    if g is not None:
        out = []
        for e in g.trace_call_chain(ctx.con, sid, depth, direction):
            if direction == "down":
                out.append((e.depth, e.src_id, e.dst_id, e.resolution, e.cycle, e.line))
            else:
                out.append((e.depth, e.dst_id, e.src_id, e.resolution, e.cycle, e.line))
        return out
    out, frontier, seen = [], [(sid, frozenset({sid}))], set()
    col_self, col_other = ("src_id", "dst_id") if direction == "down" else ("dst_id", "src_id")
    for level in range(1, depth + 1):
        nxt = []
        for node, trail in frontier:
            for other, res, path, line in store.run(ctx.con, f"""
                    SELECT {col_other}, min(resolution), min(path), min(line) FROM edges
                    WHERE kind = 'calls' AND {col_self} = ? AND dst_id IS NOT NULL GROUP BY 1""", [node]):
                cyc = other in trail
                if (level, node, other) not in seen:
                    seen.add((level, node, other))
                    out.append((level, node, other, res, cyc, line, path))
                if not cyc:
                    nxt.append((other, trail | {other}))
        frontier = nxt
    out.sort(key=lambda e: (e[0], e[6], e[5]))          # breadth first, by call site
    return [e[:6] for e in out]


@tool("The call chain from a function: what it calls, and what those call, down to depth "
      "(direction 'down'); or who calls it, and who calls those (direction 'up'). Only "
      "resolved calls are followed; unresolved ones are named at each step.",
      {"symbol": {"type": "string", "description": "name or qualified name"},
       "depth": {"type": "integer", "description": "levels to follow (1-8)", "default": 3},
       "direction": {"type": "string", "enum": ["down", "up"], "default": "down"}},
      ["symbol"])
def trace_call_chain(ctx: Context, symbol: str, depth: int = 3, direction: str = "down"):
    sid, amb = _resolve(ctx, symbol)
    if amb:
        return amb, {"ambiguous": True}, {}
    depth = max(1, min(int(depth), 8))
    edges = _chain_edges(ctx, sid, depth, direction)
    children: dict[tuple[int, int], list] = defaultdict(list)
    for lvl, parent, child, res, cyc, line in edges:
        children[(lvl, parent)].append((child, res, cyc, line))
    info = _syms(ctx, [sid] + [e[2] for e in edges])
    unresolved: dict[int, list[str]] = {}
    if direction == "down":
        nodes = sorted({sid} | {e[2] for e in edges})
        for src, name in store.run(ctx.con, """
                SELECT src_id, dst_name FROM edges WHERE kind = 'calls' AND dst_id IS NULL
                AND list_contains(?, src_id) GROUP BY ALL ORDER BY src_id, dst_name""", [nodes]):
            unresolved.setdefault(src, []).append(name)
    arrow = "->" if direction == "down" else "<-"
    out = [_where(info[sid])]
    tree = {"symbol": info[sid][0], "children": []}
    budget = [MAX_TREE_LINES]

    def walk(node: int, level: int, into: dict) -> None:
        for child, res, cyc, site in children.get((level, node), ()):
            if budget[0] <= 0:
                return
            budget[0] -= 1
            where = _where(info[child])
            if info[child][1] == "module":
                where += f":{site}"              # the call site of module-level code
            line = "  " * level + f"{arrow} {where}{_label(res)}"
            if cyc:
                line += " (recursive)"
            out.append(line)
            sub = {"symbol": info[child][0], "resolution": res, "cycle": cyc, "children": []}
            into["children"].append(sub)
            if not cyc and level < depth:
                walk(child, level + 1, sub)
        names = unresolved.get(node)
        if names and level <= depth and budget[0] > 0:
            shown = ", ".join(names[:8]) + (f", ... +{len(names) - 8}" if len(names) > 8 else "")
            out.append("  " * level + f"?? unresolved: {shown}")
            into["unresolved"] = names

    walk(sid, 1, tree)
    if budget[0] <= 0:
        out.append(f"... (cut at {MAX_TREE_LINES} lines; lower depth or trace a callee)")
    return "\n".join(out), tree, {}


# ---------------------------------------------------------------- architecture

@tool("Architecture of a directory: its parts (sub-directories and files) with sizes and main "
      "definitions, which parts import or call which, entry points and the most used "
      "external packages.",
      {"directory": {"type": "string", "description": "directory relative to the repository "
                     "root", "default": "."}})
def get_architecture_overview(ctx: Context, directory: str = "."):
    rel = ctx.path(directory)
    prefix = "" if rel == "." else rel + "/"
    g = _graph()
    if g is None:
        return _architecture_fallback(ctx, rel, prefix)
    a = g.get_architecture_overview(ctx.con, rel)
    if not a.files:
        raise ToolError(f"error: no indexed source files under {rel!r}")
    tops = defaultdict(list)
    for p, n in store.run(ctx.con, """
            SELECT s.path, s.name FROM symbols s JOIN symbols m ON s.parent_id = m.symbol_id
            WHERE m.kind = 'module' AND m.parent_id IS NULL
              AND s.kind NOT IN ('variable', 'constant', 'field', 'lambda')
              AND starts_with(s.path, ?) ORDER BY s.path, s.start_line""", [prefix]):
        tops[p].append(n)
    docs = dict(store.run(ctx.con, "SELECT path, doc FROM symbols WHERE kind = 'module' AND "
                          "parent_id IS NULL AND doc IS NOT NULL AND starts_with(path, ?)", [prefix]))
    out = [f"{rel if rel != '.' else 'repository'}: {a.files} source files, {a.lines:,} lines"]
    out.append("parts:")
    for u in a.units:
        bits = [f"{u.lines:,} lines"]
        if u.name.endswith("/"):
            bits.insert(0, f"{u.files} file{'s' if u.files != 1 else ''}")
        if u.classes:
            bits.append(f"{u.classes} class{'es' if u.classes != 1 else ''}")
        if u.functions:
            bits.append(f"{u.functions} function{'s' if u.functions != 1 else ''}")
        line = f"  {u.name} ({', '.join(bits)})"
        names = tops.get(u.name, [])
        if names:
            line += ": " + ", ".join(names[:6]) + (f", +{len(names) - 6}" if len(names) > 6 else "")
        if docs.get(u.name):
            line += f" \u2014 {docs[u.name]}"
        out.append(line)
    if a.dependencies:
        out.append("dependencies (imports, calls between parts):")
        for d in a.dependencies[:MAX_LIST]:
            out.append(f"  {d.src} -> {d.dst} ({d.imports} import{'s' if d.imports != 1 else ''}, "
                       f"{d.calls} call{'s' if d.calls != 1 else ''})")
        if len(a.dependencies) > MAX_LIST:
            out.append(f"  ... {len(a.dependencies) - MAX_LIST} more")
    if a.entry_points:
        out.append("entry points: " + "; ".join(
            f"{e.qualname} ({e.path}:{e.line}, {e.reason})" for e in a.entry_points[:12])
            + (f" (+{len(a.entry_points) - 12} more)" if len(a.entry_points) > 12 else ""))
    if a.external:
        out.append("external packages used: " + ", ".join(f"{n} ({c})" for n, c in a.external))
    return "\n".join(out), a.as_dict(), {}


def _architecture_fallback(ctx: Context, rel: str, prefix: str):
    files = [f for f in all_files(ctx.con) if f.path.startswith(prefix) and f.status in ("ok", "partial")
             and f.language is not None and f.language not in _DATA_LANGS]
    if not files:
        raise ToolError(f"error: no indexed source files under {rel!r}")
    paths = {f.path for f in files}
    tops = defaultdict(list)
    for p, k, n in store.run(ctx.con, """
            SELECT s.path, s.kind, s.name FROM symbols s JOIN symbols m ON s.parent_id = m.symbol_id
            WHERE m.kind = 'module' AND s.kind NOT IN ('variable', 'constant', 'field', 'lambda')
              AND starts_with(s.path, ?) ORDER BY s.path, s.start_line""", [prefix]):
        tops[p].append((k, n))
    out = [f"{rel if rel != '.' else 'repository'}: {len(files)} source files, "
           f"{sum(f.line_count or 0 for f in files):,} lines", "parts:"]
    for f in files[:60]:
        kinds = Counter(k for k, _ in tops.get(f.path, []))
        names = [n for _, n in tops.get(f.path, [])]
        line = f"  {f.path} ({f.line_count} lines" + "".join(
            f", {v} {k}" for k, v in kinds.most_common()) + ")"
        if names:
            line += ": " + ", ".join(names[:6]) + (f", +{len(names) - 6}" if len(names) > 6 else "")
        out.append(line)
    deps = defaultdict(set)
    for f in files:
        for src in imported_by(ctx.con, f):
            if src in paths:
                deps[src].add(f.path)
    if deps:
        out.append("dependencies (file -> files it imports):")
        out += [f"  {s} -> {', '.join(sorted(deps[s]))}" for s in sorted(deps)[:60]]
    return "\n".join(out), {"directory": rel, "files": sorted(paths),
                            "dependencies": {k: sorted(v) for k, v in deps.items()}}, {}
