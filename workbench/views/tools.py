"""The file tools: list_files, file_index, read_outline, read_region, resolve_symbol. Each
returns the exact text an agent receives (see registry.py for how tools are registered
and called; graph_tools.py, repo_map.py and repo_overview.py hold the others).

One `Rules` object drives them all. A `Session` (see session.py) adds memory: repeats
answered "already provided", running token totals, stale-version warnings.

Path arguments are repository-relative only (see pathsafe.py): absolute paths, `..`
escapes, symlinks leading out of the root and NUL bytes get an error text, never content.
"""
from __future__ import annotations

import json
import posixpath
from itertools import accumulate

from .. import store
from ..safeio import ReadRefused, TooLarge
from . import pathsafe
from .lookup import imported_by, lookup_symbols, narrowing, place
from .levels import pick as pick_level
from .outline import RENDERERS, import_label, json_file, load, outlinable
from .paging import OFFSET, Budget, call_hint, fit, page_note
from .registry import Answer, Context, ToolError, offset_arg, span, tool
from .rules import Rules
from .source import FileInfo, Text, all_files, file_info, read_text
from .tokens import get_tokenizer


# ---------------------------------------------------------------- helpers

def render_region(path: str, lines: list[str], start: int, end: int, rules: Rules,
                  header: str | None = None, warnings: tuple[str, ...] = (),
                  budget: Budget | None = None) -> tuple[str, int]:
    """The text of lines start..end of a file within the answer caps, and the last line
    returned. Pure: the same function serves tools and the strategy benchmark.

    The whole response (warnings, header, lines and note) stays within `budget` (default:
    the rules' `max_chars` and `max_tokens`); it is cut at a whole line and then ends with
    a note giving the file's total lines and the exact range to request next.
    """
    budget = budget or Budget(rules.max_chars, rules.max_tokens, get_tokenizer(rules.tokenizer))
    total = len(lines)
    head = list(warnings) + [header or f"{path} lines {span(start, end)} of {total}:"]
    rows = _numbered(lines, start, end, rules)
    ends = list(accumulate([sum(len(h) + 1 for h in head)] + [len(r) + 1 for r in rows]))

    def note(k: int) -> str | None:
        if k >= len(rows):
            return None
        last = start + k - 1
        # which cap stopped the page: the characters when the next line would not fit them
        unit = (f"{budget.chars:,} characters" if ends[min(k + 1, len(rows))] + 80 > budget.chars
                else f"{budget.tokens:,} tokens")
        got = span(start, last) if k else "none"
        return f"[cut at {unit}: file has {total} lines, returned {got}; request {span(last + 1, end)} next]"
    text, k = fit(head, rows, budget, note,
                  lambda room, n: f" [line {start} cut at {room:,} of {n:,} characters]")
    return text, start + k - 1


def _numbered(lines: list[str], start: int, end: int, rules: Rules) -> list[str]:
    """Lines start..end as a region shows them (with their numbers under the rule)."""
    if not rules.region_line_numbers:
        return [lines[n - 1] for n in range(start, end + 1)]
    width = len(str(end))
    return [f"{n:>{width}}| {lines[n - 1]}" for n in range(start, end + 1)]


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
    except ReadRefused as exc:
        more = "; it changed since it was indexed (re-index)" if isinstance(exc, TooLarge) else ""
        raise ToolError(f"error: {info.path} cannot be read: it {exc.reason}{more}") from None
    except FileNotFoundError:
        raise ToolError(f"error: {info.path} no longer exists on disk; re-index") from None
    except OSError as exc:
        raise ToolError(f"error: {info.path} cannot be read ({exc.strerror or exc})") from None


def _region_response(ctx: Context, info: FileInfo, start: int, end: int, header: str | None,
                     version: str | None, key: tuple | None):
    cur = _read(ctx, info)
    total = len(cur.lines)
    mine = (info.path,)         # _warnings reports this file's freshness itself
    if total == 0:
        return Answer(f"{info.path} is empty (0 lines)", {"path": info.path, "lines": 0},
                      {info.path: cur.sha256}, checked=mine)
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
            return Answer(text, {"path": info.path, "repeat_of": turn}, {info.path: cur.sha256}, turn,
                          checked=mine)
    if header is None and clipped < end:
        header = f"{info.path} lines {span(start, clipped)} of {total} (file ends at line {total}):"
    text, last = render_region(info.path, cur.lines, start, clipped, ctx.rules, header, tuple(warns),
                               ctx.budget)
    if s is not None:
        if key:
            s.remember(key, cur.sha256)
        s.remember_region(info.path, start, last, cur.sha256)
    data = {"path": info.path, "start_line": start, "end_line": last, "total_lines": total,
            "complete": last >= clipped, "next": [last + 1, clipped] if last < clipped else None,
            "version": cur.version, "warnings": warns}
    return Answer(text, data, {info.path: cur.sha256}, checked=mine)


# ---------------------------------------------------------------- tools

@tool("List the repository's files, one path per line, directories ending in '/'. "
      "Ignored directories (dependencies, build output, VCS) are pruned and summarised. "
      "Start here; then use file_index or read_outline on a file. Long listings come in pages: "
      "the note at the end gives the offset of the next one.",
      {"path": {"type": "string", "description": "directory, relative to the repository root",
                "default": "."},
       "max_depth": {"type": "integer", "description": "levels below path to list", "default": 2},
       "offset": OFFSET}, advice="list a sub-directory or lower max_depth")
def list_files(ctx: Context, path: str = ".", max_depth: int | None = None, offset: int = 0):
    rel = ctx.path(path)
    offset = offset_arg(offset)
    depth = ctx.rules.list_depth if max_depth is None else max(1, max_depth)
    if rel != "." and file_info(ctx.con, rel) is not None:
        return Answer(rel, {"path": rel, "entries": [rel]}, files=(rel,))
    prefix = "" if rel == "." else rel + "/"
    paths = [f.path for f in all_files(ctx.con) if f.path.startswith(prefix)]
    if not paths:
        raise ToolError(f"error: no indexed files under {rel!r}", missing=rel)
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
    tail = (f"ignored {len(ignored)} dir{'s' if len(ignored) != 1 else ''}: " + ", ".join(sorted(ignored))
            if ignored else None)
    total = len(entries)
    page = entries[offset:offset + ctx.rules.list_max_entries]
    args = {"path": rel, "max_depth": max_depth}

    def note(k: int) -> str | None:        # the next page, or the pruned dirs after the last
        if offset + k < total:
            return page_note("entries", offset, k, total, ctx.tool, args)
        return tail
    if offset and offset >= total:
        raise ToolError(f"error: offset {offset:,} is past the end: {total:,} entries in all")
    text, k = ctx.fit([], page, note)
    shown = page[:k]
    nxt = offset + k if offset + k < total else None
    data = {"path": rel, "total": total, "offset": offset, "next_offset": nxt, "entries": shown,
            "ignored_dirs": ignored}
    listed = set(paths)
    return Answer(text, data, files=tuple(e for e in shown if e in listed))


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
        WHERE s.path = ? AND s.kind <> 'lambda' ORDER BY s.start_line, s.end_line DESC, s.symbol_id""",
                  [info.path])
    n_defs = store.one(ctx.con, "SELECT count(*) FROM symbols WHERE path = ? AND kind NOT IN "
                       "('module', 'lambda')", [info.path])[0]
    doc = store.one(ctx.con, "SELECT doc FROM symbols WHERE path = ? AND kind = 'module'", [info.path])
    imports = [r for r in store.run(ctx.con, "SELECT DISTINCT module, name, alias, min(line) AS l "
                                    "FROM imports WHERE path = ? GROUP BY ALL ORDER BY l, module, name, alias",
                                    [info.path])]
    imp = list(dict.fromkeys(import_label(m, n, a, info.language) for m, n, a, _ in imports))
    by = imported_by(ctx.con, info)
    out = [info.path,
           f"language: {info.language or 'unknown'} | lines: {info.line_count} | bytes: {info.size_bytes}"
           f" | status: {info.status}" + (f" ({info.skip_reason})" if info.skip_reason else "")]
    if doc and doc[0]:
        out.append(f"doc: {doc[0]}")
    vars_ = [r for r in rows if r[0] in ("variable", "constant")]
    defs = [r for r in rows if r[0] not in ("variable", "constant")]
    room = ctx.budget.chars - sum(len(x) + 1 for x in out) - 400    # the lists share what is left
    if defs or vars_:
        out.append(_listed(f"definitions ({n_defs}): ", [
            f"{k} {n} [{span(a, b)}]" + (f" ({m} member{'s' if m != 1 else ''})" if m else "")
            for k, n, a, b, m in defs], room // 2, f"read_outline(path={_q(info.path)})"))
    if vars_:
        out.append(_listed("variables: ", [f"{n} [{span(a, b)}]" for _, n, a, b, _ in vars_], room // 6,
                           f"read_outline(path={_q(info.path)})"))
    out.append(_listed("imports: ", imp, room // 6, "read_region the file's head") if imp else "imports: none")
    out.append(_listed("imported by: ", by, room // 6, f"impact(paths=[{_q(info.path)}])")
               if by else "imported by: no indexed file")
    data = {"path": info.path, "language": info.language, "lines": info.line_count,
            "bytes": info.size_bytes, "status": info.status, "definitions": n_defs,
            "top_level": [{"kind": k, "name": n, "lines": [a, b], "members": m} for k, n, a, b, m in rows],
            "imports": imp, "imported_by": by, "version": info.version}
    return "\n".join(out), data, {info.path: info.sha256}


def _q(s: str) -> str:
    return json.dumps(s, ensure_ascii=False)


def _listed(label: str, items: list[str], room: int, more: str) -> str:
    """`label` and the comma-separated `items` that fit in `room` characters, then
    `(+N more: <call>)`."""
    out, used = [], len(label)
    for i, it in enumerate(items):
        if used + len(it) + 2 > max(room, 200) and i:
            return label + ", ".join(out) + f", (+{len(items) - i} more: {more})"
        out.append(it)
        used += len(it) + 2
    return label + ", ".join(out)


@tool("The outline of a file or directory: definitions with signatures, line ranges and "
      "one-line docs, without bodies. Read this before reading code; then read_region "
      "exactly the lines you need. A large file's outline shows its top-level definitions "
      "first: give symbol to expand one (a class: its members; a function: its blocks). A long "
      "outline comes in pages (a directory: files; a file: outline lines): the note at the end "
      "gives the offset of the next one.",
      {"path": {"type": "string", "description": "file or directory relative to the repository root"},
       "symbol": {"type": "string", "description": "optional: a definition of the file to expand "
                  "(e.g. 'Session' or 'Session.send')"},
       "level": {"type": "integer", "enum": [1, 2, 3], "description": "optional: 1 = top-level "
                 "definitions, 2 = one definition's members, 3 = one function's blocks"},
       "offset": {"type": "integer", "description": "where to continue, from the previous answer's "
                  "note (files of a directory, lines of a file's outline)", "default": 0}},
      ["path"], advice="outline a sub-directory or a single file")
def read_outline(ctx: Context, path: str, symbol: str | None = None, level: int | None = None,
                 offset: int = 0):
    rel = ctx.path(path)
    offset = offset_arg(offset)
    info = file_info(ctx.con, rel) if rel != "." else None
    out = None
    if info is None and symbol is None and level is None:      # a directory: whole file outlines, paged
        prefix = "" if rel == "." else rel.rstrip("/") + "/"
        code = [f for f in all_files(ctx.con) if f.path.startswith(prefix) and outlinable(f)]
        out = _directory_page(ctx, rel, code, offset) if code else None
    if out is None:
        try:
            text, data, versions = pick_level(ctx.con, rel, ctx.rules, symbol, level)
        except LookupError as exc:
            raise ToolError(exc.args[0], missing=rel) from None
        if info is not None and symbol is None and level is None and not offset \
                and ctx.rules.outline_budget is not None:
            whole = _whole_file_instead(ctx, info, text)
            if whole is not None:
                return Answer(*whole)
        if info is not None and versions and (offset or not ctx.budget.fits(text)):
            text, data = _file_page(ctx, rel, text, data, offset)
        elif offset:
            raise ToolError(f"error: offset {offset:,} is past the end of the outline of {rel!r}")
    else:
        text, data, versions = out
    s = ctx.session
    if s is not None and versions:
        key = ("outline", rel, symbol, level, offset, ctx.rules)
        stamp = "|".join(f"{p}:{h}" for p, h in sorted(versions.items()))
        turn = s.already_sent(key, stamp) if ctx.rules.dedupe else None
        if turn is not None:
            what = f"{symbol} in {rel}" if symbol else rel
            page = f" from offset {offset}" if offset else ""
            return Answer(f"outline of {what}{page} already provided above (turn {turn}); unchanged "
                          "since, not sent again", {"path": rel, "repeat_of": turn}, versions, turn)
        s.remember(key, stamp)
    return Answer(text, data, versions)


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
    # the whole file as render_region(path, lines, 1, n) shows it without caps (its header,
    # then every line; no cut, no note), joined directly: walking the cap logic line by line
    # costs more than the rest of the answer
    full = "\n".join([f"{info.path} lines {span(1, n)} of {n}:", *_numbered(cur.lines, 1, n, ctx.rules)])
    if tok.count(outline_text) <= tok.count(full):
        return None
    text, last = render_region(info.path, cur.lines, 1, n, ctx.rules)
    if ctx.session is not None:
        ctx.session.remember_region(info.path, 1, last, cur.sha256)
    data = {"path": info.path, "start_line": 1, "end_line": last, "total_lines": n,
            "complete": last >= n, "next": [last + 1, n] if last < n else None,
            "version": cur.version, "warnings": [], "instead_of_outline": True}
    return text, data, {info.path: cur.sha256}


def _outline_json(obj, rules: Rules) -> str:
    return json.dumps(obj, ensure_ascii=False, indent=rules.json_indent,
                      separators=None if rules.json_indent else (",", ":"))


def _file_page(ctx: Context, rel: str, text: str, data, offset: int):
    """One page of a file's outline: its lines from `offset` (json: its top-level symbols)."""
    args = {"path": rel}
    if ctx.rules.format == "json":
        syms = data.get("symbols", [])
        if offset and offset >= len(syms):
            raise ToolError(f"error: offset {offset:,} is past the end: the outline of {rel} has "
                            f"{len(syms):,} top-level symbols")
        base = {k: v for k, v in data.items() if k != "symbols" and (offset == 0 or k != "module_vars")}
        if offset:
            base["offset"] = offset
        rows = [_outline_json(x, ctx.rules) for x in syms[offset:]]
        k = _fit_json(ctx, base, syms[offset:], rows, lambda k: page_note(
            "top-level symbols", offset, k, len(syms), ctx.tool, args))
        page = dict(base, symbols=syms[offset:offset + k])
        out = _outline_json(page, ctx.rules)
        nxt = offset + k if offset + k < len(syms) else None
        if nxt is not None:
            out += "\n" + page_note("top-level symbols", offset, k, len(syms), ctx.tool, args)
        return out, dict(page, next_offset=nxt)
    lines = text.split("\n")
    if offset and offset >= len(lines):
        raise ToolError(f"error: offset {offset:,} is past the end: the outline of {rel} has "
                        f"{len(lines):,} lines")
    if not offset and ctx.budget.fits(text):
        return text, data
    head = [f"outline of {rel}, continued from outline line {offset + 1}:"] if offset else []
    out, k, nxt = ctx.page(head, lines[offset:], len(lines), offset, "outline lines", args)
    return out, {"path": rel, "offset": offset, "next_offset": nxt, "outline_lines": len(lines),
                 "outline": data}


def _fit_json(ctx: Context, base: dict, items: list, rows: list[str], note) -> int:
    """How many of `items` (their json texts `rows`) fit with `base` and the note."""
    fixed = len(_outline_json(dict(base, symbols=[]), ctx.rules))
    k, used = 0, fixed
    while k < len(items) and used + len(rows[k]) + 1 + len(note(k + 1)) + 1 <= ctx.budget.chars:
        used += len(rows[k]) + 1
        k += 1
    while k > 1 and not ctx.budget.fits(_outline_json(dict(base, symbols=items[:k]), ctx.rules)
                                          + "\n" + note(k)):
        k -= 1
    return max(k, 1) if items else 0


def _directory_page(ctx: Context, rel: str, code: list[FileInfo], offset: int):
    """One page of a directory's outline: whole file outlines from file `offset` on, as
    many as fit; a first file too long for a page is cut at a line, with the call that
    continues it."""
    n = len(code)
    args = {"path": rel}
    if offset and offset >= n:
        raise ToolError(f"error: offset {offset:,} is past the end: {rel!r} has {n:,} files to outline")
    fmt, rules, budget = ctx.rules.format, ctx.rules, ctx.budget
    blocks: list[str] = []
    objs: list = []
    versions: dict = {}
    used_chars, used_tokens = 0, 0
    sep = "," if fmt == "json" else "\n\n"
    i = offset
    while i < n:
        fd = load(ctx.con, code[i].path, [code[i]])[0]
        obj = json_file(fd, rules)
        block = _outline_json(obj, rules) if fmt == "json" else RENDERERS[fmt](fd, rules)
        note = page_note("files", offset, i + 1 - offset, n, ctx.tool, args) if i + 1 < n else ""
        c = used_chars + len(block) + len(sep) + len(note) + 40
        t = used_tokens + budget.tok.count(block) + 2 + (len(note) // 2 if note else 0)
        if c > budget.chars or t > budget.tokens:
            if not blocks:                          # one file alone is too long: cut it
                return _cut_file_page(ctx, rel, code, i, offset, fd, obj, block)
            break
        blocks.append(block)
        objs.append(obj)
        versions[fd.path] = fd.info.sha256
        used_chars, used_tokens = c - len(note) - 40, t - (len(note) // 2 if note else 0)
        i += 1
    nxt = i if i < n else None

    def render(k: int) -> str:
        if fmt == "json":
            page = {"path": rel, "files": objs[:k]}
            if offset:
                page["offset"] = offset
            text = _outline_json(page, rules)
        else:
            text = sep.join(blocks[:k])
        if offset + k < n:
            text += "\n" + page_note("files", offset, k, n, ctx.tool, args)
        return text
    k = len(blocks)
    text = render(k)
    while k > 1 and not budget.fits(text):          # the token estimate was short: one file less
        k -= 1
        text = render(k)
        nxt = offset + k
        versions.pop(code[offset + k].path, None)
    data = {"path": rel, "files": objs[:k], "offset": offset, "next_offset": nxt, "total_files": n}
    return text, data, versions


def _cut_file_page(ctx, rel, code, i, offset, fd, obj, block):
    """A directory page holding only the start of one long file outline."""
    n = len(code)
    path = code[i].path
    lines = block.split("\n")
    after = (f"; next files: {call_hint(ctx.tool, {'path': rel, 'offset': i + 1})}" if i + 1 < n else "")

    def note(k: int) -> str | None:
        if k >= len(lines):
            return page_note("files", offset, 1, n, ctx.tool, {"path": rel}) if i + 1 < n else None
        return (f"[outline of {path}: lines 1-{k} of {len(lines)} shown; the rest: "
                f"{call_hint(ctx.tool, {'path': path, 'offset': k})}{after}]")
    text, k = ctx.fit([], lines, note)
    data = {"path": rel, "files": [obj], "offset": offset, "next_offset": i + 1 if i + 1 < n else None,
            "total_files": n, "cut_file": path, "cut_after_line": k}
    return text, data, {fd.path: fd.info.sha256}


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
       "path": {"type": "string", "description": "optional file to look in"},
       "line": {"type": "integer", "description": "optional line inside the definition, to choose "
                "among same-named ones in one file (a property's getter and setter, overloads)"}},
      ["name"])
def resolve_symbol(ctx: Context, name: str, path: str | None = None, line: int | None = None):
    name = name.strip()
    if not name:
        raise ToolError("error: resolve_symbol needs a non-empty name")
    rel = ctx.path(path) if path else None
    rows = lookup_symbols(ctx.con, name, rel, line=line)
    if not rows:
        raise ToolError(f"error: no definition named {name!r}{place(rel, line)}; try read_outline "
                        "or a qualified name")
    if len(rows) > 1:
        shown = rows[:15]
        lines = [f"{name!r} is ambiguous ({rows.total} definitions); call again with a "
                 f"{narrowing(rows)}:"]
        lines += [f"{q} ({k}) {p}:{span(a, b)}" for _, p, k, q, a, b, _ in shown]
        if rows.total > len(shown):
            lines.append(f"... {rows.total - len(shown)} more")
        return "\n".join(lines), {"candidates": [r[3] for r in rows]}, {}
    sid, p, kind, qual, a, b, _ = rows[0]
    info = file_info(ctx.con, p)
    header = f"{qual} ({kind}) {p} lines {span(a, b)}:"
    return _region_response(ctx, info, a, b, header, None, ("symbol", sid))
