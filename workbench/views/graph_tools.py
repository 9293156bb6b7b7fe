"""Call-graph tools as text: find_definition, search_symbols, find_callers, find_callees,
trace_call_chain, get_architecture_overview, impact.

Each formats what the query of the same name in `workbench.graph` returns; the CLI
command of the same name prints this text. How sure an edge is stays visible: uncertain
resolutions are labelled, unresolved calls that use the same name are listed separately
as such, never merged in. Every answer is bounded: list answers hold a page of at most
`max_rows` rows (a rule) that fits the answer caps, and end with the call that returns the
next page (`offset`); trees and overviews are capped and say how to narrow them.
"""
from __future__ import annotations

from collections import defaultdict

from .. import graph, store
from ..vocab import ANONYMOUS_KINDS, CERTAIN_RESOLUTIONS, VARIABLE_KINDS
from .paging import OFFSET, page_note
from .registry import Answer, Context, ToolError, offset_arg, span, tool

MAX_LIST = 40                   # parts of an architecture overview's lists
MAX_TREE_LINES = 200
MAX_CHAIN_EDGES = 2000          # chain edges fetched per direction (the tree shows MAX_TREE_LINES)
# calls a chain does not follow, by resolution, and how the tree labels them
_UNBOUND = {"builtin": "builtin", "external": "external", "ambiguous": "? ambiguous",
            "callback": "? ambiguous callback", "implicit": "? ambiguous implicit",
            "unresolved": "?? unresolved"}
_NOT_PARTS = sorted(VARIABLE_KINDS | {"field"} | ANONYMOUS_KINDS)   # not listed as a file's parts


def _label(res: str | None) -> str:
    return f" ({res})" if res and res not in CERTAIN_RESOLUTIONS else ""


def _site_label(c: graph.CallSite) -> str:
    """How sure a call site is: nothing when certain, the resolution, or the candidates
    (an ambiguous call, a callback or an implicit call that may be one of several functions)."""
    if c.resolution in ("ambiguous", "callback", "implicit") and c.candidates:
        cands = c.candidates
        return f" ({c.resolution}: one of {', '.join(cands[:4])}{', ...' if len(cands) > 4 else ''})"
    return _label(c.resolution)


def _plural(n: int, word: str, many: str | None = None) -> str:
    return f"{n:,} {word if n == 1 else (many or word + 's')}"


def _ambiguous(exc: graph.AmbiguousSymbol) -> str:
    shown = exc.matches[:15]
    lines = [f"{exc.name!r} matches {exc.total} definitions; call again with a qualified name:"]
    lines += [f"{m.qualname} ({m.kind}) {m.path}:{span(m.start_line, m.end_line)}" for m in shown]
    if exc.total > len(shown):
        lines.append(f"... {exc.total - len(shown)} more")
    return "\n".join(lines)


def _not_found(symbol: str) -> ToolError:
    return ToolError(f"error: no definition named {symbol!r}; try read_outline or a qualified name")


def _resolve(ctx: Context, symbol: str) -> tuple[int | None, str | None]:
    """(symbol id, None) or (None, ambiguity text); raises ToolError when nothing matches."""
    symbol = symbol.strip()
    if not symbol:
        raise ToolError("error: give a symbol name")
    try:
        return graph.symbol_id(ctx.con, symbol), None
    except graph.AmbiguousSymbol as exc:
        return None, _ambiguous(exc)
    except graph.SymbolNotFound:
        raise _not_found(symbol) from None


def _syms(ctx: Context, ids) -> dict[int, tuple]:
    """symbol id -> (qualname, kind, path, start, end)."""
    return {i: (m.qualname, m.kind, m.path, m.start_line, m.end_line)
            for i, m in graph.symbols_by_id(ctx.con, ids).items()}


def _where(info: tuple) -> str:
    q, kind, path, a, b = info
    return f"{q} (module level) {path}" if kind == "module" else f"{q} {path}:{span(a, b)}"


# ---------------------------------------------------------------- find_definition

@tool("Where a symbol is defined: qualified name, kind, file and line range, signature and "
      "one-line doc, for every definition matching the name (best match first). Long lists "
      "come in pages: the note at the end gives the offset of the next one.",
      {"symbol": {"type": "string", "description": "name or qualified name"}, "offset": OFFSET},
      ["symbol"], advice="use a qualified name")
def find_definition(ctx: Context, symbol: str, offset: int = 0):
    symbol = symbol.strip()
    offset = offset_arg(offset)
    if not symbol:
        raise ToolError("error: give a symbol name")
    defs = graph.find_definition(ctx.con, symbol, limit=ctx.rules.max_rows, offset=offset)
    if not defs.total:
        raise _not_found(symbol)
    lines = []
    for d in defs:
        line = f"{d.qualname} ({d.kind}) {d.path}:{span(d.start_line, d.end_line)}"
        if d.callers:
            line += f" \u2014 {_plural(d.callers, 'call site')}"
        if d.signature:
            line += f"\n  {d.signature}"
        if d.doc:
            line += f"\n  {d.doc}"
        lines.append(line)
    head = [f"{_plural(defs.total, 'definition')} matching {symbol!r}:"] if defs.total > len(defs) or offset else []
    text, k, nxt = ctx.page(head, lines, defs.total, offset, "definitions", {"symbol": symbol})
    shown = list(defs)[:k]
    data = {"total": defs.total, "offset": offset, "next_offset": nxt,
            "definitions": [{"qualname": d.qualname, "kind": d.kind, "path": d.path,
                             "lines": [d.start_line, d.end_line], "callers": d.callers} for d in shown]}
    return Answer(text, data, files=tuple(d.path for d in shown))


# ---------------------------------------------------------------- search_symbols

@tool("Definitions whose name or qualified name contains a text (case-insensitive), the "
      "exact name first, then the most called; or, with a path, every definition of that "
      "file in source order. For when you know part of a name.",
      {"query": {"type": "string", "description": "part of a name; empty with a path: all"},
       "path": {"type": "string", "description": "optional file to search in"},
       "offset": OFFSET},
      ["query"], advice="use a longer text or a path")
def search_symbols(ctx: Context, query: str, path: str | None = None, offset: int = 0):
    rel = ctx.info(path).path if path else None
    offset = offset_arg(offset)
    if not query.strip() and rel is None:
        raise ToolError("error: give part of a name, or a path to list a file's definitions")
    found = graph.search_symbols(ctx.con, query, path=rel, limit=ctx.rules.max_rows, offset=offset)
    if not found.total:
        where = f" in {rel}" if rel else ""
        raise ToolError(f"error: no definition matching {query.strip()!r}{where}")
    lines = [f"{s.qualname} ({s.kind}) {s.path}:{span(s.start_line, s.end_line)}"
             + (f" \u2014 {_plural(s.callers, 'call site')}" if s.callers else "") for s in found]
    head = [f"{_plural(found.total, 'definition')} matching {query.strip()!r}"
            + (f" in {rel}" if rel else "") + ":"] if found.total > len(found) or offset else []
    text, k, nxt = ctx.page(head, lines, found.total, offset, "definitions",
                         {"query": query, "path": rel})
    shown = list(found)[:k]
    data = {"total": found.total, "offset": offset, "next_offset": nxt,
            "symbols": [s.as_dict() for s in shown]}
    return Answer(text, data, files=tuple(s.path for s in shown))


# ---------------------------------------------------------------- find_callers

@tool("Who calls a function or method (a class: also its constructor): each call site with "
      "file and line, and how sure the link is. Calls the index could not resolve but that "
      "use the same name are listed separately, marked unresolved. Long lists come in pages: "
      "the note at the end gives the offset of the next one.",
      {"symbol": {"type": "string", "description": "name or qualified name of the callee"},
       "offset": OFFSET},
      ["symbol"], advice="use a qualified name")
def find_callers(ctx: Context, symbol: str, offset: int = 0):
    sid, amb = _resolve(ctx, symbol)
    if amb:
        return amb, {"ambiguous": True}, {}
    offset = offset_arg(offset)
    me = _syms(ctx, [sid])[sid]
    qual = me[0]
    name = qual.rsplit(".", 1)[-1]
    size = ctx.rules.max_rows
    # one list: the resolved call sites, then the unresolved calls using the name
    targets = graph.constructor_targets(ctx.con, sid)
    sites = graph.find_callers(ctx.con, sid, limit=size, offset=offset, targets=targets)
    r_total = sites.total
    maybe = graph.find_unresolved_calls(ctx.con, name, targets, limit=size - len(sites),
                                        offset=max(0, offset - r_total))
    total = r_total + maybe.total
    head = [f"callers of {qual} ({me[2]}:{span(me[3], me[4])}): {_plural(r_total, 'call site')}"
            + (f", and {_plural(maybe.total, 'unresolved call')} using the name" if maybe.total else "")]
    rows = []
    for c in sites:
        who = f"{c.caller} (module level)" if c.caller_kind == "module" else c.caller
        rows.append(f"  {who} {c.path}:{c.line}{_site_label(c)}")
    for i, c in enumerate(maybe):
        row = f"  {c.caller} {c.path}:{c.line} calls {c.as_written}"
        if i == 0:       # the section line travels with the first unresolved row of a page
            row = f"unresolved calls to a '{name}' (may or may not be this one): {maybe.total:,}\n" + row
        rows.append(row)
    text, k, nxt = ctx.page(head, rows, total, offset, "call sites", {"symbol": symbol.strip()})
    got_sites, got_maybe = list(sites)[:k], list(maybe)[:max(0, k - len(sites))]
    data = {"symbol": qual, "total": r_total, "offset": offset, "next_offset": nxt,
            "callers": [{"caller": c.caller, "path": c.path, "line": c.line, "resolution": c.resolution}
                        for c in got_sites],
            "unresolved_total": maybe.total,
            "unresolved": [{"caller": c.caller, "path": c.path, "line": c.line, "as_written": c.as_written}
                           for c in got_maybe]}
    return Answer(text, data, files=tuple(dict.fromkeys([me[2]] + [c.path for c in got_sites + got_maybe])))


# ---------------------------------------------------------------- find_callees

@tool("What a function or method calls, in source order: each call as written, the "
      "definition it reaches and how sure the link is; calls to builtins, to code outside "
      "the repository and calls the index could not resolve are listed as such. Long lists "
      "come in pages: the note at the end gives the offset of the next one.",
      {"symbol": {"type": "string", "description": "name or qualified name of the caller"},
       "offset": OFFSET},
      ["symbol"], advice="use a qualified name")
def find_callees(ctx: Context, symbol: str, offset: int = 0):
    sid, amb = _resolve(ctx, symbol)
    if amb:
        return amb, {"ambiguous": True}, {}
    offset = offset_arg(offset)
    me = _syms(ctx, [sid])[sid]
    calls = graph.find_callees(ctx.con, sid, limit=ctx.rules.max_rows, offset=offset)
    head = [f"calls made by {_where(me)}: {_plural(calls.total, 'call site')}"]
    rows = []
    for c in calls:
        target = f" -> {c.callee}" if c.callee and c.callee != c.as_written else ""
        rows.append(f"  {c.line}: {c.as_written}{target}{_site_label(c)}")
    text, k, nxt = ctx.page(head, rows, calls.total, offset, "call sites", {"symbol": symbol.strip()})
    shown = list(calls)[:k]
    data = {"symbol": me[0], "total": calls.total, "offset": offset, "next_offset": nxt,
            "callees": [{"line": c.line, "as_written": c.as_written, "callee": c.callee,
                         "resolution": c.resolution, "candidates": c.candidates} for c in shown]}
    return Answer(text, data, files=(me[2],))


# ---------------------------------------------------------------- trace_call_chain

@tool("The call chain from a function: what it calls, and what those call, down to depth "
      "(direction 'down'); or who calls it, and who calls those (direction 'up'); 'both' "
      "shows the two. Only calls bound to a definition are followed; at each step the others "
      "are named by kind: builtin, external (outside the repository), ambiguous, unresolved.",
      {"symbol": {"type": "string", "description": "name or qualified name"},
       "depth": {"type": "integer", "description": "levels to follow (1-8)", "default": 3},
       "direction": {"type": "string", "enum": list(graph.DIRECTIONS), "default": "down"}},
      ["symbol"], advice="lower depth, or trace one of the symbols shown")
def trace_call_chain(ctx: Context, symbol: str, depth: int = 3, direction: str = "down"):
    sid, amb = _resolve(ctx, symbol)
    if amb:
        return amb, {"ambiguous": True}, {}
    depth = max(1, min(int(depth), 8))
    edges = graph.trace_call_chain(ctx.con, sid, depth, direction, limit=MAX_CHAIN_EDGES)
    # (direction, level, parent) -> children: the parent is the caller going down, the callee going up
    children: dict[tuple, list] = defaultdict(list)
    for e in edges:
        parent, child = (e.src_id, e.dst_id) if e.direction == "down" else (e.dst_id, e.src_id)
        children[(e.direction, e.depth, parent)].append((child, e.resolution, e.cycle, e.line))
    info = _syms(ctx, [sid] + [e.src_id for e in edges] + [e.dst_id for e in edges])
    unbound: dict[int, dict[str, list[str]]] = {}     # caller -> kind of call -> names
    if direction in ("down", "both"):
        nodes = sorted({sid} | {e.dst_id for e in edges if e.direction == "down"})
        for src, res, name in store.run(ctx.con, """
                SELECT src_id, resolution, dst_name FROM edges WHERE kind = 'calls' AND dst_id IS NULL
                AND src_id IN (SELECT unnest(?)) GROUP BY ALL ORDER BY src_id, dst_name""", [nodes]):
            kind = res if res in _UNBOUND else "unresolved"
            unbound.setdefault(src, {}).setdefault(kind, []).append(name)
    out = [_where(info[sid])]
    tree = {"symbol": info[sid][0], "children": []}
    budget = [MAX_TREE_LINES]
    seen = [sid]

    def walk(way: str, node: int, level: int, into: dict) -> None:
        arrow = "->" if way == "down" else "<-"
        for child, res, cyc, site in children.get((way, level, node), ()):
            if budget[0] <= 0:
                return
            budget[0] -= 1
            seen.append(child)
            where = _where(info[child])
            if info[child][1] == "module":
                where += f":{site}"              # the call site of module-level code
            line = "  " * level + f"{arrow} {where}{_label(res)}"
            if cyc:
                line += " (recursive)"
            out.append(line)
            sub = {"symbol": info[child][0], "resolution": res, "cycle": cyc, "children": []}
            if direction == "both":
                sub["direction"] = way
            into["children"].append(sub)
            if not cyc and level < depth:
                walk(way, child, level + 1, sub)
        groups = unbound.get(node, {}) if way == "down" else {}
        for kind in _UNBOUND:
            names = groups.get(kind)
            if not names or level > depth or budget[0] <= 0:
                continue
            shown = ", ".join(names[:8]) + (f", ... +{len(names) - 8}" if len(names) > 8 else "")
            out.append("  " * level + f"{_UNBOUND[kind]}: {shown}")
            into[kind] = names

    for way in (("down", "up") if direction == "both" else (direction,)):
        walk(way, sid, 1, tree)
    if budget[0] <= 0 or edges.total > len(edges):
        out.append(f"... (cut at {MAX_TREE_LINES} lines; lower depth or trace a callee)")
    return Answer("\n".join(out), tree, files=tuple(dict.fromkeys(info[n][2] for n in seen)))


# ---------------------------------------------------------------- architecture

@tool("Architecture of a directory: its parts (sub-directories and files) with sizes and main "
      "definitions, which parts import or call which, entry points and the most used "
      "external packages.",
      {"directory": {"type": "string", "description": "directory relative to the repository "
                     "root", "default": "."}}, advice="give a sub-directory (directory=...)")
def get_architecture_overview(ctx: Context, directory: str = "."):
    rel = ctx.path(directory)
    prefix = "" if rel == "." else rel + "/"
    a = graph.get_architecture_overview(ctx.con, rel)
    if not a.files:
        raise ToolError(f"error: no indexed source files under {rel!r}")
    tops = defaultdict(list)
    for p, n in store.run(ctx.con, """
            SELECT s.path, s.name FROM symbols s JOIN symbols m ON s.parent_id = m.symbol_id
            WHERE m.kind = 'module' AND m.parent_id IS NULL
              AND NOT list_contains(?, s.kind)
              AND starts_with(s.path, ?) ORDER BY s.path, s.start_line""", [_NOT_PARTS, prefix]):
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
    named = [u.name for u in a.units if not u.name.endswith("/")] + [e.path for e in a.entry_points[:12]]
    return Answer("\n".join(out), a.as_dict(), files=tuple(dict.fromkeys(named)))


# ---------------------------------------------------------------- impact

@tool("What depends on the given files: symbols elsewhere that call, import or subclass "
      "something defined in them (depth 1), and what reaches those in turn, closest first.",
      {"paths": {"type": "array", "items": {"type": "string"},
                 "description": "changed files, relative to the repository root"},
       "depth": {"type": "integer", "description": "levels to follow (1-5)", "default": 2},
       "offset": OFFSET},
      ["paths"], advice="lower depth or give fewer paths")
def impact(ctx: Context, paths: list, depth: int = 2, offset: int = 0):
    rels = [ctx.path(p) for p in paths]
    if not rels:
        raise ToolError("error: give at least one file path")
    known = {r[0] for r in store.run(ctx.con, "SELECT path FROM files WHERE path IN (SELECT unnest(?))",
                                     [rels])}
    missing = [p for p in rels if p not in known]
    if missing:
        raise ToolError(f"error: no indexed file {missing[0]!r}; impact takes file paths "
                        "(list_files shows what exists)")
    depth = max(1, min(int(depth), 5))
    offset = offset_arg(offset)
    rows = graph.impact(ctx.con, rels, depth=depth, limit=ctx.rules.max_rows, offset=offset)
    what = ", ".join(rels)
    if not rows.total:
        return Answer(f"nothing outside {what} depends on {'it' if len(rels) == 1 else 'them'}",
                      {"paths": rels, "total": 0, "impacted": []}, files=tuple(rels))
    head = [f"what depends on {what} (depth {depth}): {_plural(rows.total, 'symbol')}"]
    lines = [f"{'  ' * r.depth}{r.qualname} ({r.kind}) {r.path}:{r.line} {r.edge} {r.via}" for r in rows]
    text, k, nxt = ctx.page(head, lines, rows.total, offset, "symbols",
                         {"paths": rels, "depth": depth})
    shown = list(rows)[:k]
    data = {"paths": rels, "total": rows.total, "offset": offset, "next_offset": nxt,
            "impacted": [r.as_dict() for r in shown]}
    return Answer(text, data, files=tuple(dict.fromkeys(rels + [r.path for r in shown])))
