"""Task-aware context packs: what one kind of task on one definition needs, within a token
budget, and a list of what did not fit.

| task | what the pack holds, most needed first |
|---|---|
| `fix-bug` | the definition's body, its callers' call sites (the lines), its callees' signatures, the tests that reference it |
| `add-method` | the class outline (members with signatures), the class header, one similar method's body, the file's imports, the constructor's body |
| `rename` | every reference with its line: the definition, resolved call sites, imports, subclasses; ambiguous sites and unresolved sites of the same name marked as such |
| `explain` | the signature and doc, the signatures and docs down the call chain (depth 2), the body |

The pack is filled in that order; an item that does not fit is left out (a body is cut at
a whole line instead, when at least a few lines fit), and the pack ends with what it left
out. The text is checked against the budget with the rules' tokenizer: never over it.
"""
from __future__ import annotations

import re
from dataclasses import dataclass

from .. import graph, store
from ..vocab import CLASS_KINDS
from .lookup import lookup_symbols, narrowing, place
from .registry import Context, ToolError, span, tool
from .source import file_info, read_text
from .tokens import get_tokenizer

TASKS = ("fix-bug", "add-method", "rename", "explain")
MIN_BUDGET = 50
MAX_ROWS = 400                 # rows fetched per list (the budget decides what is shown)
MIN_CUT_LINES = 3
TEST_PATH = re.compile(r"(^|/)(tests?|testing|__tests__|specs?)/|(^|/)test_[^/]*$|_tests?\.\w+$"
                       r"|\.(test|spec)\.\w+$|Tests?\.\w+$|(^|/)conftest\.py$")


def is_test_path(path: str) -> bool:
    return bool(TEST_PATH.search(path))


@dataclass
class _Item:
    section: str
    label: str                     # how the left-out list names it
    lines: list[str]
    region: tuple | None = None    # (path, first line) when `lines` are verbatim source
    cuttable: bool = False


class _Pack:
    def __init__(self, rules, budget: int, header: str):
        self.tok = get_tokenizer(rules.tokenizer)
        self.budget = budget
        self.header = header
        self.items: list[_Item] = []

    def add(self, section: str, label: str, lines: list[str], region=None, cuttable=False) -> None:
        if lines:
            self.items.append(_Item(section, label, list(lines), region, cuttable))

    def _text(self, chosen: list[_Item], left: list[str]) -> str:
        out = [self.header]
        section = None
        for it in chosen:
            if it.section != section:
                section = it.section
                out.append(f"### {section}")
            out.extend(it.lines)
        if left:
            out.append("left out (budget " + f"{self.budget:,}" + " tokens): " + "; ".join(left))
        return "\n".join(out)

    def _fits(self, chosen: list[_Item], left: list[str]) -> bool:
        return self.tok.count(self._text(chosen, left)) <= self.budget

    def build(self) -> tuple[str, list[_Item], list[str]]:
        """(text, items included, labels left out) within the budget."""
        chosen: list[_Item] = []
        left: list[str] = []
        for i, it in enumerate(self.items):
            rest = _grouped([x.label for x in self.items[i + 1:]])
            if self._fits(chosen + [it], _grouped(left) + rest):
                chosen.append(it)
                continue
            part = self._cut(chosen, it, left, rest) if it.cuttable else None
            if part is not None:
                chosen.append(part[0])
                left.append(part[1])
            else:
                left.append(it.label)
        left = _grouped(left)
        text = self._text(chosen, left)
        while self.tok.count(text) > self.budget and chosen:      # token counts are not additive
            dropped = chosen.pop()
            left = _grouped([dropped.label] + left)
            text = self._text(chosen, left)
        if self.tok.count(text) > self.budget:                   # not even the list of what is missing
            for text in (f"{self.header}\nleft out: everything (budget {self.budget:,} tokens)",
                         self.header, "context pack: the budget is too small for anything"):
                if self.tok.count(text) <= self.budget:
                    break
        return text, chosen, left

    def _cut(self, chosen, it: _Item, left, rest) -> tuple[_Item, str] | None:
        """The longest head of a verbatim item that fits (at least MIN_CUT_LINES lines),
        and the left-out note naming the lines it leaves."""
        best = None
        lo, hi = MIN_CUT_LINES, len(it.lines) - (2 if it.region else 1)
        while lo <= hi:
            k = (lo + hi) // 2
            part = _head(it, k)
            if self._fits(chosen + [part[0]], _grouped(left + [part[1]]) + rest):
                best, lo = part, k + 1
            else:
                hi = k - 1
        return best


def _head(it: _Item, k: int) -> tuple[_Item, str]:
    """The first `k` lines of an item (of a verbatim one: `k` source lines after its
    header line) and the note on what it leaves out."""
    if not it.region:
        n = len(it.lines) - k
        return (_Item(it.section, it.label, it.lines[:k] + [f"... {n} more lines"]),
                f"{it.label}: its last {n} lines")
    path, a = it.region
    body = it.lines[1:]
    rest = span(a + k, a + len(body) - 1)
    head = it.lines[0].rsplit(" lines ", 1)[0] + f" lines {span(a, a + k - 1)} (cut; lines {rest} not shown):"
    return _Item(it.section, it.label, [head] + body[:k], it.region), f"{it.label}: lines {rest} (read_region)"


def _grouped(labels: list[str]) -> list[str]:
    """'call site a', 'call site b' -> '2 call sites' (labels ending in ':N' are counted)."""
    out: list[str] = []
    counts: dict[str, int] = {}
    for lab in labels:
        if lab.startswith("#"):
            kind = lab[1:].split(":", 1)[0]
            if kind not in counts:
                out.append(lab)
            counts[kind] = counts.get(kind, 0) + 1
        else:
            out.append(lab)
    return [f"{counts[lab[1:].split(':', 1)[0]]} {lab[1:].split(':', 1)[0]}" if lab.startswith("#") else lab
            for lab in out]


# ---------------------------------------------------------------- what packs are made of

class _Files:
    """File lines read once per pack."""

    def __init__(self, ctx: Context):
        self.ctx = ctx
        self.cache: dict[str, list[str] | None] = {}

    def lines(self, path: str) -> list[str] | None:
        if path not in self.cache:
            info = file_info(self.ctx.con, path)
            try:
                self.cache[path] = read_text(self.ctx.root, info).lines if info else None
            except OSError:
                self.cache[path] = None
        return self.cache[path]

    def line(self, path: str, n: int) -> str:
        lines = self.lines(path)
        return lines[n - 1].strip() if lines and 0 < n <= len(lines) else ""

    def region(self, path: str, a: int, b: int, what: str) -> list[str]:
        lines = self.lines(path) or []
        body = lines[a - 1:b]
        return [f"{what} {path} lines {span(a, a + len(body) - 1)}:"] + body if body else []


def _sym(ctx: Context, sid: int) -> tuple:
    return store.one(ctx.con, """SELECT symbol_id, path, kind, name, qualname, start_line, end_line,
        signature, doc, parent_id FROM symbols WHERE symbol_id = ?""", [sid])


def _label(res: str | None, cands=None) -> str:
    if res in ("ambiguous", "callback", "implicit") and cands:
        return f" ({res}: one of " + ", ".join(cands[:3]) + ("..." if len(cands) > 3 else "") + ")"
    if res == "ambiguous":
        return " (ambiguous: one of )"
    if res in ("unresolved",):
        return " (unresolved: may be another definition of that name)"
    if res in ("name-unique", "inferred", "callback", "implicit"):
        return f" ({res})"
    return ""


def _call_sites(ctx, f: _Files, sid: int, pack: _Pack, section: str) -> list:
    sites = graph.find_callers(ctx.con, sid, limit=MAX_ROWS)
    for c in sites:
        pack.add(section, "#call sites", [f"{c.path}:{c.line} in {c.caller}: {f.line(c.path, c.line)}"
                                          + _label(c.resolution, c.candidates)])
    return list(sites)


def _signature(s: tuple) -> str:
    _sid, path, kind, name, qual, a, b, sig, doc, _p = s
    line = f"{qual} ({kind}) {path}:{span(a, b)}"
    if sig:
        line += f"\n  {sig}"
    if doc:
        line += f"\n  {doc}"
    return line


def _fix_bug(ctx, f: _Files, s: tuple, pack: _Pack) -> None:
    sid, path, kind, name, qual, a, b = s[:7]
    pack.add("body", f"the body of {name}", f.region(path, a, b, "definition"), (path, a), cuttable=True)
    sites = _call_sites(ctx, f, sid, pack, "call sites")
    seen = set()
    for c in graph.find_callees(ctx.con, sid, limit=MAX_ROWS):
        if c.callee_id is not None and c.callee_id not in seen:
            seen.add(c.callee_id)
            t = _sym(ctx, c.callee_id)
            if t is not None:
                pack.add("callees", "#callee signatures", [_signature(t)])
        elif c.callee_id is None and c.as_written not in seen:
            seen.add(c.as_written)
            pack.add("callees", "#callee signatures",
                     [f"{c.as_written} (line {c.line}){_label(c.resolution, c.candidates) or ' (' + c.resolution + ')'}"])
    tests: dict[int, int] = {}
    for c in sites:
        if is_test_path(c.path) and c.caller_id not in tests:
            tests[c.caller_id] = c.line
    for c in graph.find_unresolved_calls(ctx.con, name, [sid], limit=MAX_ROWS):
        if is_test_path(c.path) and c.caller_id not in tests:
            tests[c.caller_id] = -c.line                        # unresolved: marked below
    for tid, line in tests.items():
        t = _sym(ctx, tid)
        if t is None:
            continue
        how = f"calls it at line {line}" if line > 0 else f"line {-line}: unresolved call of that name"
        pack.add("tests", "#tests", [f"{t[4]} {t[1]}:{span(t[5], t[6])} ({how})"])


def _add_method(ctx, f: _Files, s: tuple, pack: _Pack) -> None:
    from .levels import _load_file, _members, find_symbol
    cls = s
    while cls is not None and cls[2] not in CLASS_KINDS and cls[9] is not None:
        parent = _sym(ctx, cls[9])
        if parent is None or parent[2] == "module":
            break
        cls = parent
    if cls[2] not in CLASS_KINDS:
        raise ToolError(f"error: add-method needs a class (or a member of one); {s[4]} is a {s[2]}")
    sid, path, kind, name, qual, a, b = cls[:7]
    fd = _load_file(ctx.con, path, ctx.rules)
    sym = find_symbol(fd, qual)
    text, _, _ = _members(fd, sym, ctx.rules.replace(outline_budget=None, format="markdown"))
    pack.add("class outline", f"the outline of {name}", text.splitlines(), cuttable=True)
    methods = store.run(ctx.con, """SELECT symbol_id, name, start_line, end_line FROM symbols
        WHERE parent_id = ? AND kind IN ('method', 'function', 'constructor')
        AND NOT coalesce(is_declaration, false) ORDER BY start_line""", [sid])
    ordinary = [m for m in methods if not m[1].startswith("_")] or \
        [m for m in methods if not (m[1].startswith("__") and m[1].endswith("__"))] or methods
    if ordinary:
        ordinary.sort(key=lambda m: m[3] - m[2])
        m = ordinary[len(ordinary) // 2]                          # a typical one: the median length
        pack.add("a similar method", f"the body of {m[1]}", f.region(path, m[2], m[3], "method"),
                 (path, m[2]), cuttable=True)
    imports = [r[0] for r in store.run(ctx.con, "SELECT DISTINCT line FROM imports WHERE path = ? "
                                                "AND src_id IN (SELECT symbol_id FROM symbols WHERE path = ? "
                                                "AND kind = 'module') ORDER BY line", [path, path])]
    if imports:
        pack.add("imports", "the imports", [f.line(path, n) for n in imports])
    init = [m for m in methods if m[1] in ("__init__", "constructor") or m[1] == name]
    if init:
        m = init[0]
        pack.add("constructor", f"the body of {m[1]}", f.region(path, m[2], m[3], "constructor"),
                 (path, m[2]), cuttable=True)


def _rename(ctx, f: _Files, s: tuple, pack: _Pack) -> None:
    sid, path, kind, name, qual, a, b = s[:7]
    pack.add("definition", "the definition", [f"{path}:{a} definition: {f.line(path, a)}"])
    _call_sites(ctx, f, sid, pack, "references (resolved unless marked)")
    for p, line, via in store.run(ctx.con, """SELECT path, line, resolved_path FROM imports
            WHERE name = ? AND path <> ? ORDER BY resolved_path IS DISTINCT FROM ?, path, line LIMIT ?""",
                                  [name, path, path, MAX_ROWS]):
        mark = "" if via == path else f" (from {via}: a re-export or another {name})" if via \
            else " (unresolved: may be another definition of that name)"
        pack.add("references (resolved unless marked)", "#imports", [f"{p}:{line} import: {f.line(p, line)}{mark}"])
    for p, line in store.run(ctx.con, """SELECT path, line FROM edges WHERE dst_id = ?
            AND kind IN ('inherits', 'implements') ORDER BY path, line LIMIT ?""", [sid, MAX_ROWS]):
        pack.add("references (resolved unless marked)", "#subclasses", [f"{p}:{line} base: {f.line(p, line)}"])
    for c in graph.find_unresolved_calls(ctx.con, name, [sid], limit=MAX_ROWS):
        pack.add("same name, not resolved to it", "#unresolved sites",
                 [f"{c.path}:{c.line} in {c.caller}: {f.line(c.path, c.line)} (unresolved)"])


def _explain(ctx, f: _Files, s: tuple, pack: _Pack) -> None:
    sid, path, kind, name, qual, a, b = s[:7]
    pack.add("definition", "the signature", [_signature(s)])
    seen = {sid}
    for e in graph.trace_call_chain(ctx.con, sid, depth=2, limit=MAX_ROWS):
        if e.dst_id in seen:
            continue
        seen.add(e.dst_id)
        t = _sym(ctx, e.dst_id)
        if t is not None:
            pad = "  " * (e.depth - 1)
            pack.add("down the call chain", "#callee signatures",
                     [pad + ln for ln in _signature(t).splitlines()])
    pack.add("body", f"the body of {name}", f.region(path, a, b, "definition"), (path, a), cuttable=True)


_BUILD = {"fix-bug": _fix_bug, "add-method": _add_method, "rename": _rename, "explain": _explain}


@tool("A context pack for one task on one definition, within a token budget: fix-bug (the "
      "body, call sites, callee signatures, tests), add-method (class outline, a similar "
      "method, imports), rename (every reference with its line, unresolved ones marked), "
      "explain (signatures and docs down the call chain). Ends with what did not fit.",
      {"task": {"type": "string", "enum": list(TASKS), "description": "what the pack is for"},
       "target": {"type": "string", "description": "the definition: name or qualified name"},
       "budget_tokens": {"type": "integer", "description": "token budget (default 2000)",
                         "default": 2000},
       "path": {"type": "string", "description": "optional file the definition is in"},
       "line": {"type": "integer", "description": "optional line inside the definition, to choose "
                "among same-named ones in one file (a property's getter and setter, overloads)"}},
      ["task", "target"])
def context_pack(ctx: Context, task: str, target: str, budget_tokens: int | None = None,
                 path: str | None = None, line: int | None = None):
    budget = ctx.rules.pack_budget if budget_tokens is None else budget_tokens
    if budget < MIN_BUDGET:
        raise ToolError(f"error: budget_tokens must be at least {MIN_BUDGET}")
    rel = ctx.path(path) if path else None
    rows = lookup_symbols(ctx.con, target.strip(), rel, line=line)
    if not rows:
        raise ToolError(f"error: no definition named {target!r}{place(rel, line)}; "
                        "try search_symbols")
    if len(rows) > 1:
        return ("\n".join([f"{target!r} is ambiguous ({rows.total} definitions); call again with a "
                           f"{narrowing(rows)}:"]
                          + [f"{q} ({k}) {p}:{span(a, b)}" for _, p, k, q, a, b, _ in rows[:15]]),
                {"candidates": [r[3] for r in rows]}, {})
    s = _sym(ctx, rows[0][0])
    f = _Files(ctx)
    pack = _Pack(ctx.rules, budget, f"context pack: {task} for {s[4]} ({s[2]}) {s[1]}:{span(s[5], s[6])}")
    _BUILD[task](ctx, f, s, pack)
    text, chosen, left = pack.build()
    regions = [{"path": it.region[0], "start_line": it.region[1],
                "end_line": it.region[1] + len(it.lines) - 2} for it in chosen if it.region]
    versions = {}
    for p in {r["path"] for r in regions} | {s[1]}:
        info = file_info(ctx.con, p)
        if info is not None:
            versions[p] = info.sha256
    data = {"task": task, "target": s[4], "budget": budget, "regions": regions,
            "included": list(dict.fromkeys(it.section for it in chosen)), "left_out": left}
    return text, data, versions
