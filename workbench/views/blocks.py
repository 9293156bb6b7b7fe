"""Level 3 of a hierarchical outline: the block outline of one function body, its
control-flow blocks (if / elif / else, for, while, try / except / finally, with, match /
case, switch, select ...) with line ranges, nested as in the code.

Block ranges are not in the index (extracting them for every function would slow every
index run for a view asked of one function at a time). This view parses the lines of the
one function it is asked about, from the file's current text, with the same tree-sitter
grammar the indexer used: the only place a view parses, one definition on request,
never a whole file. Which node types are blocks is data, per language (`BLOCK_TYPES`;
other grammars use a word rule on the node type).
"""
from __future__ import annotations

import json
import re

from ..compiled_queries import compiled
from ..languages import SPECS
from .outline import FileData, Sym, _md_label, lines_label
from .rules import Rules
from .source import read_text, root_of
from .tokens import get_tokenizer

_PY = ("if_statement", "elif_clause", "else_clause", "for_statement", "while_statement",
       "try_statement", "except_clause", "except_group_clause", "finally_clause", "with_statement",
       "match_statement", "case_clause")
_ECMA = ("if_statement", "else_clause", "for_statement", "for_in_statement", "while_statement",
         "do_statement", "try_statement", "catch_clause", "finally_clause", "switch_statement",
         "switch_case", "switch_default")
_C = ("if_statement", "else_clause", "for_statement", "for_range_loop", "while_statement",
      "do_statement", "switch_statement", "case_statement", "try_statement", "catch_clause")
BLOCK_TYPES: dict[str, frozenset] = {
    "python": frozenset(_PY),
    "javascript": frozenset(_ECMA), "typescript": frozenset(_ECMA), "tsx": frozenset(_ECMA),
    "java": frozenset({"if_statement", "for_statement", "enhanced_for_statement", "while_statement",
                       "do_statement", "try_statement", "try_with_resources_statement", "catch_clause",
                       "finally_clause", "switch_expression", "switch_block_statement_group",
                       "switch_rule", "synchronized_statement"}),
    "go": frozenset({"if_statement", "for_statement", "expression_switch_statement",
                     "type_switch_statement", "select_statement", "expression_case", "type_case",
                     "default_case", "communication_case"}),
    "rust": frozenset({"if_expression", "else_clause", "for_expression", "while_expression",
                       "loop_expression", "match_expression", "match_arm"}),
    "c": frozenset(_C), "cpp": frozenset(_C),
}
#: Clauses shown level with the statement they continue (`else` under `if`'s depth).
CONTINUATIONS = frozenset({"elif_clause", "else_clause", "except_clause", "except_group_clause",
                           "finally_clause", "catch_clause"})
_WORDS = frozenset("""if elif else for foreach while do loop try catch except rescue finally
ensure switch case when match with select guard unless until synchronized using lock""".split())
_SUFFIXES = ("_statement", "_clause", "_expression", "_arm", "_case", "_loop")
#: Languages whose methods only parse inside a class body: (before, after) on the same lines.
METHOD_WRAP = {lang: ("class _W { ", "\n}") for lang in
               ("java", "javascript", "typescript", "tsx", "csharp", "kotlin", "scala", "dart")}
METHOD_WRAP["php"] = ("<?php class _W { ", "\n}")
_DEF_TYPE = re.compile(r"(function|method|class|struct|impl)_(definition|declaration|item)$")


def is_block(language: str | None, node_type: str) -> bool:
    types = BLOCK_TYPES.get(language or "")
    if types is not None:
        return node_type in types
    parts = node_type.split("_")
    return node_type.endswith(_SUFFIXES) and any(p in _WORDS for p in parts) \
        and "comprehension" not in node_type and "pattern" not in node_type


def _header(lines: list[str], row: int, col: int, width: int = 72) -> str:
    text = " ".join(lines[row][col:].split()) if row < len(lines) else ""
    return text if len(text) <= width else text[: width - 1] + "\u2026"


def blocks_of(lines: list[str], language: str | None, kind: str) -> list[dict]:
    """The blocks of the function whose source is `lines` (its own lines, first line =
    row 0), as a tree: {type, text, rows [a, b] (0-based, inclusive), children}."""
    spec = SPECS.get(language or "")
    if spec is None or not spec.parse:
        return []
    first = lines[0] if lines else ""
    indent = first[: len(first) - len(first.lstrip())]
    body = [ln[len(indent):] if ln.startswith(indent) else ln for ln in lines]
    before, after = METHOD_WRAP.get(spec.name, ("", "")) if kind in ("method", "constructor") else ("", "")
    src = (before + "\n".join(body) + after).encode("utf-8", "replace")
    tree = compiled(spec).parser.parse(src)
    shift = len(before)                         # columns added on row 0 by the wrapper
    out: list[dict] = []
    skip = [2 if before else 1]                 # the wrapper class, then the function itself

    def visit(node, into: list):
        for c in node.named_children:
            is_def = bool(_DEF_TYPE.search(c.type))
            if is_def and skip[0]:
                skip[0] -= 1
                visit(c, into)
            elif is_block(spec.name, c.type) or is_def:
                a, b = c.start_point[0], c.end_point[0]
                if c.end_point[1] == 0 and b > a:
                    b -= 1
                col = c.start_point[1] - (shift if a == 0 else 0) \
                    + (len(indent) if lines[a].startswith(indent) else 0)
                entry = {"type": c.type, "text": _header(lines, a, max(0, col)), "rows": [a, b],
                         "children": []}
                into.append(entry)
                visit(c, entry["children"])
            else:
                visit(c, into)
    visit(tree.root_node, out)
    _split_continuations(out)
    return out


def _split_continuations(items: list[dict]) -> None:
    """Lift `else` / `except` / `finally` clauses to the level of their statement, and end
    the statement's own range where its first clause starts."""
    i = 0
    while i < len(items):
        e = items[i]
        _split_continuations(e["children"])
        conts = [c for c in e["children"] if c["type"] in CONTINUATIONS]
        if conts and e["type"] not in CONTINUATIONS:
            e["children"] = [c for c in e["children"] if c["type"] not in CONTINUATIONS]
            e["rows"] = [e["rows"][0], max(e["rows"][0], conts[0]["rows"][0] - 1)]
            items[i + 1:i + 1] = conts
        i += 1


def block_outline(con, fd: FileData, s: Sym, rules: Rules) -> tuple[str, dict, dict]:
    """(text, data, versions) of level 3 for definition `s` of file `fd`."""
    text_now = read_text(root_of(con), fd.info)
    lines = text_now.lines[s.start - 1: s.end]
    tree = blocks_of(lines, fd.language, s.kind)
    shift = s.start

    def absolute(items):
        for e in items:
            e["lines"] = [e["rows"][0] + shift, e["rows"][1] + shift]
            del e["rows"]
            absolute(e["children"])
    absolute(tree)
    tok = get_tokenizer(rules.tokenizer)
    depth_tries = [rules.max_depth if rules.max_depth else None, 1]
    data: dict = {}
    text = ""
    for depth in depth_tries:
        out = [f"## {fd.path} \u203a {_local(fd, s)} [{lines_label(s)}]: blocks"]
        head = _md_label(s, rules)
        out.append(head + (f" [{lines_label(s)}]" if rules.line_numbers else ""))
        _render(tree, rules, 1, depth, out)
        if not tree:
            out.append("  (no control-flow blocks: straight-line code)")
        out.append(f'read_region(path="{fd.path}", start_line=A, end_line=B) reads a block')
        data = {"path": fd.path, "symbol": s.qualname, "level": 3, "lines": [s.start, s.end],
                "blocks": tree, "version": fd.info.version}
        text = _dump(data, rules) if rules.format == "json" else "\n".join(out)
        if rules.outline_budget is None or tok.count(text) <= rules.outline_budget:
            break
    versions = {fd.path: fd.info.sha256}
    if text_now.sha256 != fd.info.sha256:
        text = (f"warning: {fd.path} changed on disk since it was indexed; line numbers may be "
                "stale (re-index to refresh)\n") + text
    return text, data, versions


def _local(fd: FileData, s: Sym) -> str:
    mod = fd.info.module or ""
    return s.qualname[len(mod) + 1:] if mod and s.qualname.startswith(mod + ".") else s.qualname


def _render(items: list[dict], rules: Rules, indent: int, depth: int | None, out: list[str]) -> None:
    for e in items:
        line = "  " * indent + e["text"]
        if rules.line_numbers:
            a, b = e["lines"]
            line += f" [{a}]" if a == b else f" [{a}-{b}]"
        hidden = _count(e["children"]) if depth is not None and indent >= depth else 0
        if hidden:
            line += f" (+{hidden} nested)"
        out.append(line)
        if not hidden:
            _render(e["children"], rules, indent + 1, depth, out)


def _count(items: list[dict]) -> int:
    return sum(1 + _count(e["children"]) for e in items)


def _dump(obj, rules: Rules) -> str:
    return json.dumps(obj, ensure_ascii=False, indent=rules.json_indent,
                      separators=None if rules.json_indent else (",", ":"))
