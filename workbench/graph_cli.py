"""CLI twins of `workbench.graph` and the call-graph export (issue 3).

    workbench definition DB compute_total
    workbench callers DB shop.pricing.compute_total
    workbench callees DB shop.orders.place_order
    workbench chain DB shop.cli.main --depth 3 --direction down
    workbench overview DB shop
    workbench impact DB shop/pricing.py --depth 2
    workbench resolve DB                      # re-run cross-file resolution
    workbench callgraph main.py --package ROOT # JSON call graph (PyCG-style names)

Every query command takes --json for the structured result (the dataclasses of
`workbench.graph` as dicts).
"""
from __future__ import annotations

import json
import sys


def _open(db: str, read_only: bool = True):
    from .api import open as wb_open
    return wb_open(db, read_only=read_only)


def _emit(a, rows, text_lines) -> int:
    if getattr(a, "json", False):
        if isinstance(rows, list):
            print(json.dumps([r.as_dict() for r in rows], indent=2))
        else:
            print(json.dumps(rows.as_dict(), indent=2, default=list))
    else:
        for line in text_lines:
            print(line)
    return 0


def _guard(fn):
    def run(a) -> int:
        from .graph import AmbiguousSymbol, SymbolNotFound
        try:
            return fn(a)
        except AmbiguousSymbol as exc:
            print(f"workbench {a.cmd}: {exc.name!r} is ambiguous; use a qualified name:", file=sys.stderr)
            for m in exc.matches[:20]:
                print(f"  {m.qualname} ({m.kind}) {m.path}:{m.start_line}", file=sys.stderr)
            return 1
        except SymbolNotFound as exc:
            print(f"workbench {a.cmd}: {exc}", file=sys.stderr)
            return 1
    return run


def _site(s, who: str) -> str:
    target = s.caller if who == "caller" else (s.callee or s.as_written)
    extra = f" as {s.as_written}" if who == "caller" and s.as_written != (s.callee or "").rsplit(".", 1)[-1] else ""
    cands = f" {s.candidates}" if s.candidates else ""
    return f"{s.path}:{s.line}  {target}{extra}  [{s.resolution}]{cands}"


@_guard
def _cmd_definition(a) -> int:
    from .graph import find_definition
    with _open(a.db) as wb:
        rows = find_definition(wb.con, a.symbol, limit=a.limit)
    lines = [f"{d.qualname} ({d.kind}) {d.path}:{d.start_line}-{d.end_line}  [{d.match}; {d.callers} callers]"
             + (f"\n    {d.signature}" if d.signature else "") for d in rows]
    return _emit(a, rows, lines or [f"no definition named {a.symbol!r}"])


@_guard
def _cmd_callers(a) -> int:
    from .graph import find_callers
    with _open(a.db) as wb:
        rows = find_callers(wb.con, a.symbol, include_ambiguous=not a.resolved_only)
    return _emit(a, rows, [_site(s, "caller") for s in rows] or ["no callers found"])


@_guard
def _cmd_callees(a) -> int:
    from .graph import find_callees
    with _open(a.db) as wb:
        rows = find_callees(wb.con, a.symbol, resolved_only=a.resolved_only)
    return _emit(a, rows, [_site(s, "callee") for s in rows] or ["no calls"])


@_guard
def _cmd_chain(a) -> int:
    from .graph import trace_call_chain
    with _open(a.db) as wb:
        rows = trace_call_chain(wb.con, a.symbol, depth=a.depth, direction=a.direction)
    lines = [f"{'  ' * (e.depth - 1)}{'->' if e.direction == 'down' else '<-'} "
             f"{e.src} -> {e.dst}  {e.path}:{e.line} [{e.resolution}]{'  (cycle)' if e.cycle else ''}"
             for e in rows]
    return _emit(a, rows, lines or ["no resolved calls"])


def _cmd_overview(a) -> int:
    from .graph import get_architecture_overview
    with _open(a.db) as wb:
        arch = get_architecture_overview(wb.con, a.directory)
    lines = [f"{arch.directory}: {arch.files} files, {arch.lines} lines"]
    lines += [f"  {u.name}: {u.files} files, {u.lines} lines, {u.functions} functions, "
              f"{u.classes} classes ({', '.join(u.languages)})" for u in arch.units]
    if arch.dependencies:
        lines.append("dependencies (imports, calls):")
        lines += [f"  {d.src} -> {d.dst}: {d.imports} imports, {d.calls} calls" for d in arch.dependencies]
    if arch.entry_points:
        lines.append("entry points:")
        lines += [f"  {e.qualname} {e.path}:{e.line} ({e.reason})" for e in arch.entry_points]
    if arch.external:
        lines.append("external: " + ", ".join(f"{n} ({c})" for n, c in arch.external))
    return _emit(a, arch, lines)


def _cmd_impact(a) -> int:
    from .graph import impact
    with _open(a.db) as wb:
        rows = impact(wb.con, a.paths, depth=a.depth)
    lines = [f"{'  ' * (r.depth - 1)}{r.qualname} ({r.kind}) {r.path}:{r.line}  {r.edge} {r.via}"
             for r in rows]
    return _emit(a, rows, lines or ["nothing outside these files depends on them"])


def _cmd_resolve(a) -> int:
    from . import store
    from .resolve import resolve_edges
    con = store.connect(a.db)
    try:
        print(resolve_edges(con, None, progress=not a.quiet))
    finally:
        con.close()
    return 0


def _cmd_callgraph(a) -> int:
    from .callgraph import callgraph
    graph = callgraph(a.entries, package=a.package)
    print(json.dumps(graph, indent=2 if a.pretty else None, sort_keys=True))
    return 0


def add_parsers(sub) -> None:
    s = sub.add_parser("definition", help="where a symbol is defined (ranked matches)")
    s.add_argument("db")
    s.add_argument("symbol")
    s.add_argument("--limit", type=int, default=20)
    s.add_argument("--json", action="store_true")
    s.set_defaults(func=_cmd_definition)

    s = sub.add_parser("callers", help="who calls a symbol: call sites with resolution")
    s.add_argument("db")
    s.add_argument("symbol")
    s.add_argument("--resolved-only", action="store_true", help="leave out ambiguous call sites")
    s.add_argument("--json", action="store_true")
    s.set_defaults(func=_cmd_callers)

    s = sub.add_parser("callees", help="what a symbol calls, resolved or not")
    s.add_argument("db")
    s.add_argument("symbol")
    s.add_argument("--resolved-only", action="store_true")
    s.add_argument("--json", action="store_true")
    s.set_defaults(func=_cmd_callees)

    s = sub.add_parser("chain", help="call chain from (down) or to (up) a symbol")
    s.add_argument("db")
    s.add_argument("symbol")
    s.add_argument("--depth", type=int, default=3)
    s.add_argument("--direction", choices=("down", "up", "both"), default="down")
    s.add_argument("--json", action="store_true")
    s.set_defaults(func=_cmd_chain)

    s = sub.add_parser("overview", help="architecture of a directory: parts, dependencies, entry points")
    s.add_argument("db")
    s.add_argument("directory", nargs="?", default=".")
    s.add_argument("--json", action="store_true")
    s.set_defaults(func=_cmd_overview)

    s = sub.add_parser("impact", help="what depends on the given files (callers, importers), transitively")
    s.add_argument("db")
    s.add_argument("paths", nargs="+")
    s.add_argument("--depth", type=int, default=2)
    s.add_argument("--json", action="store_true")
    s.set_defaults(func=_cmd_impact)

    s = sub.add_parser("resolve", help="re-run cross-file resolution of an index")
    s.add_argument("db")
    s.add_argument("-q", "--quiet", action="store_true", help="no progress bar")
    s.set_defaults(func=_cmd_resolve)

    s = sub.add_parser("callgraph", help="JSON call graph of entry files (PyCG-style exchange format)")
    s.add_argument("entries", nargs="+", metavar="ENTRY_FILE")
    s.add_argument("--package", required=True, metavar="ROOT", help="package root the names are relative to")
    s.add_argument("--pretty", action="store_true")
    s.set_defaults(func=_cmd_callgraph)
