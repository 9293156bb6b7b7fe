"""The file tools: list_files, file_index, read_outline, read_region, resolve_symbol. Each
returns the exact text an agent receives (see registry.py for how tools are registered
and called; graph_tools.py, repo_map.py and repo_overview.py hold the others).

One `Rules` object drives them all. A `Session` (see session.py) adds memory: repeats
answered "already provided", running token totals, stale-version warnings.

Path arguments are repository-relative only (see pathsafe.py): absolute paths, `..`
escapes, symlinks leading out of the root and NUL bytes get an error text, never content.
"""
from __future__ import annotations

import posixpath

from .. import store
from . import pathsafe
from .lookup import imported_by, lookup_symbols
from .outline import import_label
from .levels import pick as pick_level
from .registry import Context, ToolError, span, tool
from .rules import Rules
from .source import FileInfo, Text, all_files, file_info, read_text
from .tokens import get_tokenizer


# ---------------------------------------------------------------- helpers

def render_region(path: str, lines: list[str], start: int, end: int, rules: Rules,
                  header: str | None = None, warnings: tuple[str, ...] = ()) -> tuple[str, int]:
    """The text of lines start..end of a file under the character cap, and the last line
    returned. Pure: the same function serves tools and the strategy benchmark.

    The whole response (warnings, header, lines and note) stays within `rules.max_chars`;
    it is cut at a whole line and then ends with a note giving the file's total lines and
    the exact range to request next.
    """
    total = len(lines)
    head = list(warnings) + [header or f"{path} lines {span(start, end)} of {total}:"]
    head_text = "\n".join(head)
    cap = rules.max_chars
    body: list[str] = []
    used = len(head_text)
    last = start - 1
    numbered = rules.region_line_numbers
    width = len(str(end))

    def fmt(n: int) -> str:
        return f"{n:>{width}}| {lines[n - 1]}" if numbered else lines[n - 1]

    def note(last_line: int) -> str:
        return (f"[cut at {cap:,} characters: file has {total} lines, returned "
                f"{span(start, last_line)}; request {span(last_line + 1, end)} next]")

    n = start
    while n <= end:
        line = fmt(n)
        rest_note = 0 if n == end else len(note(n)) + 1
        if used + 1 + len(line) + rest_note <= cap:
            body.append(line)
            used += 1 + len(line)
            last = n
            n += 1
            continue
        break
    if last < end:
        if last < start:          # a single line longer than the cap: cut inside it
            room = cap - used - 1 - len(note(start)) - 1 - 40
            body.append(fmt(start)[:max(0, room)] + f" [line {start} cut]")
            last = start
        if last < end:
            body.append(note(last))
    text = head_text + ("\n" + "\n".join(body) if body else "")
    return text, last


def _warnings(ctx: Context, info: FileInfo, cur: Text, version: str | None) -> list[str]:
    out = []
    if info.sha256 and cur.sha256 != info.sha256:
        out.append(f"warning: {info.path} changed on disk since it was indexed; line numbers "
                   "from outlines and searches may be stale (re-index to refresh)")
    if version and not cur.sha256.startswith(version.strip().lower()):
        out.append(f"warning: {info.path} changed since version {version} you were given "
                   f"(now {cur.version}); re-read the outline before editing")
    if ctx.session is not None:
        seen = ctx.session.last_version(info.path)
        if seen and seen[1] != cur.sha256 and not (info.sha256 and cur.sha256 != info.sha256
                                                  and seen[1] == info.sha256 and out):
            out.append(f"warning: {info.path} changed since you last saw it (turn {seen[0]}); "
                       "earlier line numbers may be stale")
    return out


def _read(ctx: Context, info: FileInfo) -> Text:
    if info.status == "skipped" and info.skip_reason and (
            "binary" in info.skip_reason or "symlink" in info.skip_reason
            or "large" in info.skip_reason or "size" in info.skip_reason):
        raise ToolError(f"error: {info.path} cannot be read ({info.skip_reason})")
    try:
        return read_text(ctx.root, info)
    except pathsafe.PathError:
        raise
    except FileNotFoundError:
        raise ToolError(f"error: {info.path} no longer exists on disk; re-index") from None
    except OSError as exc:
        raise ToolError(f"error: {info.path} cannot be read ({exc.strerror or exc})") from None


def _region_response(ctx: Context, info: FileInfo, start: int, end: int, header: str | None,
                     version: str | None, key: tuple | None):
    cur = _read(ctx, info)
    total = len(cur.lines)
    if total == 0:
        return f"{info.path} is empty (0 lines)", {"path": info.path, "lines": 0}, {info.path: cur.sha256}
    if start < 1 or end < start:
        raise ToolError(f"error: invalid range {start}-{end}; lines are numbered from 1 and "
                        "end_line must be >= start_line")
    if start > total:
        raise ToolError(f"error: {info.path} has only {total} lines; start_line {start} is past the end")
    warns = _warnings(ctx, info, cur, version)
    clipped = min(end, total)
    s = ctx.session
    if s is not None and ctx.rules.dedupe and not warns:
        turn = s.already_sent(key, cur.sha256) if key else None
        if turn is None:
            turn = s.covered(info.path, start, clipped, cur.sha256)
        if turn is not None:
            what = header.rstrip(":") if header else f"lines {span(start, clipped)} of {info.path}"
            text = (f"{what} already provided above (turn {turn}); unchanged since, not sent again")
            return text, {"path": info.path, "repeat_of": turn}, {info.path: cur.sha256}, turn
    if header is None and clipped < end:
        header = f"{info.path} lines {span(start, clipped)} of {total} (file ends at line {total}):"
    text, last = render_region(info.path, cur.lines, start, clipped, ctx.rules, header, tuple(warns))
    if s is not None:
        if key:
            s.remember(key, cur.sha256)
        s.remember_region(info.path, start, last, cur.sha256)
    data = {"path": info.path, "start_line": start, "end_line": last, "total_lines": total,
            "complete": last >= clipped, "next": [last + 1, clipped] if last < clipped else None,
            "version": cur.version, "warnings": warns}
    return text, data, {info.path: cur.sha256}


# ---------------------------------------------------------------- tools

@tool("List the repository's files, one path per line, directories ending in '/'. "
      "Ignored directories (dependencies, build output, VCS) are pruned and summarised. "
      "Start here; then use file_index or read_outline on a file.",
      {"path": {"type": "string", "description": "directory, relative to the repository root",
                "default": "."},
       "max_depth": {"type": "integer", "description": "levels below path to list", "default": 2}})
def list_files(ctx: Context, path: str = ".", max_depth: int | None = None):
    rel = ctx.path(path)
    depth = ctx.rules.list_depth if max_depth is None else max(1, max_depth)
    if rel != "." and file_info(ctx.con, rel) is not None:
        return rel, {"path": rel, "entries": [rel]}, {}
    prefix = "" if rel == "." else rel + "/"
    paths = [f.path for f in all_files(ctx.con) if f.path.startswith(prefix)]
    if not paths:
        raise ToolError(f"error: no indexed files under {rel!r}")
    entries: list[str] = []
    dir_counts: dict[str, int] = {}
    expanded: set[str] = {prefix.rstrip("/") or "."}
    for p in paths:
        parts = p[len(prefix):].split("/")
        for i in range(1, len(parts)):
            d = prefix + "/".join(parts[:i])
            if i < depth:
                expanded.add(d)
            if i <= depth:
                dir_counts[d] = dir_counts.get(d, 0) + 1
    seen_dirs: set[str] = set()
    for p in paths:
        parts = p[len(prefix):].split("/")
        for i in range(1, min(len(parts), depth + 1)):
            d = prefix + "/".join(parts[:i])
            if d not in seen_dirs:
                seen_dirs.add(d)
                n = dir_counts[d]
                entries.append(d + "/" if d in expanded else f"{d}/ ({n} file{'s' if n != 1 else ''})")
        if len(parts) <= depth:
            entries.append(p)
    ignored = _ignored_dirs(ctx, expanded, paths)
    cap = ctx.rules.list_max_entries
    lines = entries[:cap]
    if len(entries) > cap:
        lines.append(f"... {len(entries) - cap} more entries; list a subdirectory or lower max_depth")
    if ignored:
        lines.append(f"ignored {len(ignored)} dir{'s' if len(ignored) != 1 else ''}: "
                     + ", ".join(sorted(ignored)))
    return "\n".join(lines), {"path": rel, "entries": entries, "ignored_dirs": ignored}, {}


def _ignored_dirs(ctx: Context, expanded: set[str], paths: list[str]) -> list[str]:
    """Directories the indexer pruned (ignore rules) directly inside the listed
    directories, from the index (`meta.ignored_dirs`), never from the disk."""
    import json
    raw = store.get_meta(ctx.con, "ignored_dirs")
    pruned = json.loads(raw) if raw else []
    if isinstance(pruned, dict):            # an index written before paths were recorded
        pruned = []
    return [p for p in pruned if (posixpath.dirname(p) or ".") in expanded]


@tool("An index card for one file: language, size, its definitions with line ranges, what it "
      "imports and which files import it. Cheaper than reading the file.",
      {"path": {"type": "string", "description": "file path relative to the repository root"}},
      ["path"])
def file_index(ctx: Context, path: str):
    info = ctx.info(path)
    rows = store.run(ctx.con, """
        SELECT s.kind, s.name, s.start_line, s.end_line,
               (SELECT count(*) FROM symbols c WHERE c.parent_id = s.symbol_id
                AND c.kind <> 'lambda') AS members
        FROM symbols s JOIN symbols m ON s.parent_id = m.symbol_id AND m.kind = 'module'
        WHERE s.path = ? AND s.kind <> 'lambda' ORDER BY s.start_line""", [info.path])
    n_defs = store.one(ctx.con, "SELECT count(*) FROM symbols WHERE path = ? AND kind NOT IN "
                       "('module', 'lambda')", [info.path])[0]
    doc = store.one(ctx.con, "SELECT doc FROM symbols WHERE path = ? AND kind = 'module'", [info.path])
    imports = [r for r in store.run(ctx.con, "SELECT DISTINCT module, name, alias, min(line) AS l "
                                    "FROM imports WHERE path = ? GROUP BY ALL ORDER BY l", [info.path])]
    imp = list(dict.fromkeys(import_label(m, n, a, info.language) for m, n, a, _ in imports))
    by = imported_by(ctx.con, info)
    out = [info.path,
           f"language: {info.language or 'unknown'} | lines: {info.line_count} | bytes: {info.size_bytes}"
           f" | status: {info.status}" + (f" ({info.skip_reason})" if info.skip_reason else "")]
    if doc and doc[0]:
        out.append(f"doc: {doc[0]}")
    vars_ = [r for r in rows if r[0] in ("variable", "constant")]
    defs = [r for r in rows if r[0] not in ("variable", "constant")]
    if defs or vars_:
        out.append(f"definitions ({n_defs}): " + ", ".join(
            f"{k} {n} [{span(a, b)}]" + (f" ({m} member{'s' if m != 1 else ''})" if m else "") for k, n, a, b, m in defs))
    if vars_:
        out.append("variables: " + ", ".join(f"{n} [{span(a, b)}]" for _, n, a, b, _ in vars_))
    out.append("imports: " + (", ".join(imp) if imp else "none"))
    out.append("imported by: " + (", ".join(by) if by else "no indexed file"))
    data = {"path": info.path, "language": info.language, "lines": info.line_count,
            "bytes": info.size_bytes, "status": info.status, "definitions": n_defs,
            "top_level": [{"kind": k, "name": n, "lines": [a, b], "members": m} for k, n, a, b, m in rows],
            "imports": imp, "imported_by": by, "version": info.version}
    return "\n".join(out), data, {info.path: info.sha256}


@tool("The outline of a file or directory: definitions with signatures, line ranges and "
      "one-line docs, without bodies. Read this before reading code; then read_region "
      "exactly the lines you need. A large file's outline shows its top-level definitions "
      "first: give symbol to expand one (a class: its members; a function: its blocks).",
      {"path": {"type": "string", "description": "file or directory relative to the repository root"},
       "symbol": {"type": "string", "description": "optional: a definition of the file to expand "
                  "(e.g. 'Session' or 'Session.send')"},
       "level": {"type": "integer", "enum": [1, 2, 3], "description": "optional: 1 = top-level "
                 "definitions, 2 = one definition's members, 3 = one function's blocks"}},
      ["path"])
def read_outline(ctx: Context, path: str, symbol: str | None = None, level: int | None = None):
    rel = ctx.path(path)
    info = file_info(ctx.con, rel)
    try:
        text, data, versions = pick_level(ctx.con, rel, ctx.rules, symbol, level)
    except LookupError as exc:
        raise ToolError(exc.args[0]) from None
    s = ctx.session
    if s is not None and versions:
        key = ("outline", rel, symbol, level, ctx.rules)
        stamp = "|".join(f"{p}:{h}" for p, h in sorted(versions.items()))
        turn = s.already_sent(key, stamp) if ctx.rules.dedupe else None
        if turn is not None:
            what = f"{symbol} in {rel}" if symbol else rel
            return (f"outline of {what} already provided above (turn {turn}); unchanged since, "
                    "not sent again", {"path": rel, "repeat_of": turn}, versions, turn)
        s.remember(key, stamp)
    if info is not None and symbol is None and level is None and ctx.rules.outline_budget is not None:
        whole = _whole_file_instead(ctx, info, text)
        if whole is not None:
            return whole
    return text, data, versions


def _whole_file_instead(ctx: Context, info: FileInfo, outline_text: str):
    """The file itself, as read_region(path, 1, N) answers it, when the outline would cost
    more tokens than the whole file (small or very dense files): an outline never costs
    more than reading the file. A file longer than the response cap comes as its first
    part with the usual note on what to request next."""
    try:
        cur = _read(ctx, info)
    except ToolError:
        return None
    if not cur.lines:
        return None
    n = len(cur.lines)
    tok = get_tokenizer(ctx.rules.tokenizer)
    full, _ = render_region(info.path, cur.lines, 1, n, ctx.rules.replace(max_chars=10 ** 12))
    if tok.count(outline_text) <= tok.count(full):
        return None
    text, last = render_region(info.path, cur.lines, 1, n, ctx.rules)
    if ctx.session is not None:
        ctx.session.remember_region(info.path, 1, last, cur.sha256)
    data = {"path": info.path, "start_line": 1, "end_line": last, "total_lines": n,
            "complete": last >= n, "next": [last + 1, n] if last < n else None,
            "version": cur.version, "warnings": [], "instead_of_outline": True}
    return text, data, {info.path: cur.sha256}


@tool("Read lines start_line..end_line of a file (both required; take them from the outline). "
      "Long ranges are cut at a whole line; the note at the end gives the range to request next.",
      {"path": {"type": "string", "description": "file path relative to the repository root"},
       "start_line": {"type": "integer", "description": "first line, 1-based"},
       "end_line": {"type": "integer", "description": "last line, inclusive"},
       "version": {"type": "string", "description": "optional: the source version (content hash "
                   "prefix) your outline was based on; a mismatch is reported"}},
      ["path", "start_line", "end_line"])
def read_region(ctx: Context, path: str, start_line: int, end_line: int, version: str | None = None):
    info = ctx.info(path)
    return _region_response(ctx, info, start_line, end_line, None, version,
                            ("region", info.path, start_line, end_line))


@tool("The source of one definition (function, method, class...) by name: a bare name "
      "('place_order'), a qualified one ('Order.add_item', 'shop.orders.Order') and optionally "
      "the file it is in. Answers 'already provided' for something sent before.",
      {"name": {"type": "string", "description": "symbol name or qualified name"},
       "path": {"type": "string", "description": "optional file to look in"}},
      ["name"])
def resolve_symbol(ctx: Context, name: str, path: str | None = None):
    name = name.strip()
    if not name:
        raise ToolError("error: resolve_symbol needs a non-empty name")
    rel = ctx.path(path) if path else None
    rows = lookup_symbols(ctx.con, name, rel)
    if not rows:
        where = f" in {rel}" if rel else ""
        raise ToolError(f"error: no definition named {name!r}{where}; try read_outline or a "
                        "qualified name")
    if len(rows) > 1:
        shown = rows[:15]
        lines = [f"{name!r} is ambiguous ({rows.total} definitions); call again with a qualified "
                 "name or a path:"]
        lines += [f"{q} ({k}) {p}:{span(a, b)}" for _, p, k, q, a, b, _ in shown]
        if rows.total > len(shown):
            lines.append(f"... {rows.total - len(shown)} more")
        return "\n".join(lines), {"candidates": [r[3] for r in rows]}, {}
    sid, p, kind, qual, a, b, _ = rows[0]
    info = file_info(ctx.con, p)
    header = f"{qual} ({kind}) {p} lines {span(a, b)}:"
    return _region_response(ctx, info, a, b, header, None, ("symbol", sid))
