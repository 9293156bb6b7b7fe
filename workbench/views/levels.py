"""Hierarchical outlines: a file at the level of detail that fits a token budget.

    level 1   a file's (or directory's) top-level definitions with line ranges and member
              counts: the outline with `max_depth=1` (`(+N nested)` says what is inside)
    level 2   one definition expanded: its members with signatures and line ranges, theirs
              counted
    level 3   the block outline of one function: its control-flow blocks (if / for / while /
              try / with / match ...) with line ranges (blocks.py)

`pick` is what `read_outline` answers: without a symbol, the whole outline when it fits
`rules.outline_budget` tokens, else level 1, else level 1 without signatures and docs;
with a symbol, level 2 for a class (or any definition with members), level 3 for a
function. Every answer that is not the whole outline ends with how to expand it. Level 2
shows every member of the definition (the agent asked for it; `max_children` bounds the
whole-file outline); over the budget, it drops signatures and docs instead.

Everything is rendered by the outline renderers (`outline.py`) in the rules' format.
"""
from __future__ import annotations

import json

from ..vocab import ANONYMOUS_KINDS, CLASS_KINDS, SIGNATURE_KINDS
from .outline import (RENDERERS, FileData, Sym, _comment, _keep, _no_outline_text, json_file,
                      lines_label, load, load_uses, members, outlinable, render, top_level)
from .rules import Rules
from .source import file_info
from .tokens import get_tokenizer

LEVELS = (1, 2, 3)


class LevelError(LookupError):
    """A symbol or level that cannot be shown; the message is the agent-facing text."""


# ---------------------------------------------------------------- hints

def _hint(path: str) -> str:
    return f'[level 1; expand one: read_outline(path="{path}", symbol="NAME")]'


def _with_hint(text: str, rules: Rules, hint: str, language: str | None) -> str:
    """`text` with the expansion hint appended in the format's own way (a key of the
    object in json, a comment in stub)."""
    if rules.format == "json":
        obj = json.loads(text)
        obj.setdefault("level", 1)
        obj["expand"] = hint
        return _dump(obj, rules)
    prefix = _comment(language) + " " if rules.format == "stub" else ""
    return text + "\n" + prefix + hint


def _dump(obj, rules: Rules) -> str:
    return json.dumps(obj, ensure_ascii=False, indent=rules.json_indent,
                      separators=None if rules.json_indent else (",", ":"))


# ---------------------------------------------------------------- level 1 and the whole outline

def _tokens(rules: Rules, text: str) -> int:
    return get_tokenizer(rules.tokenizer).count(text)


_NAMES_ONLY = {"docs": False, "signatures": False, "decorators": False, "imports": False,
               "module_vars": False}
#: How an answer over the budget is made smaller, step by step (the last step is sent
#: even when it is still over: a file's index is never cut). `dense` (markdown, one file
#: or one definition): names and line ranges only, members side by side on shared lines.
COMPACT_STEPS = (("", {}),
                 ("without docs", {"docs": False}),
                 ("names only", _NAMES_ONLY),
                 ("dense", _NAMES_ONLY))


def _steps(rules: Rules, dense_ok: bool) -> tuple:
    if rules.outline_budget is None:
        return COMPACT_STEPS[:1]
    return COMPACT_STEPS if dense_ok and rules.format == "markdown" else COMPACT_STEPS[:-1]


def _kind_word(s: Sym) -> str:
    return "def" if s.kind in SIGNATURE_KINDS else "class" if s.kind in CLASS_KINDS else s.kind


def _nested(s: Sym, rules: Rules) -> int:
    return members(s, rules, 2)[2]


def _dense_file(fd: FileData, rules: Rules) -> str:
    """Level 1, dense: one short line per top-level definition."""
    out = [f"## {fd.path} ({fd.definitions} definition{'s' if fd.definitions != 1 else ''})"]
    _vars, defs, _more = top_level(fd, rules)
    for s in defs:
        n = _nested(s, rules)
        out.append(f"{_kind_word(s)} {s.name} {lines_label(s, True)}" + (f" +{n}" if n else ""))
    return "\n".join(out)


def _dense_members(fd: FileData, s: Sym, rules: Rules, width: int = 100) -> str:
    """Level 2, dense: the definition's line, then its members side by side."""
    out = [f"## {fd.path} \u203a {_kind_word(s)} {_local(fd, s)} {lines_label(s, True)}"]
    line = ""
    for c in s.children:
        if c.kind in ANONYMOUS_KINDS or not _keep(c, rules, True):
            continue
        n = _nested(c, rules.replace(max_depth=2))
        item = f"{c.name} {lines_label(c, True)}" + (f" +{n}" if n else "")
        if line and len(line) + len(item) + 2 > width:
            out.append(line + ",")
            line = ""
        line = f"{line}, {item}" if line else item
    if line:
        out.append(line)
    return "\n".join(out)


def _local(fd: FileData, s: Sym) -> str:
    """`s`'s dotted name within its file (`Session.send`)."""
    mod = fd.info.module or ""
    return s.qualname[len(mod) + 1:] if mod and s.qualname.startswith(mod + ".") else s.qualname


def file_levels(con, rel: str, rules: Rules, level: int | None = None) -> tuple[str, dict, dict]:
    """(text, data, versions) of a file or directory outline: the whole outline when it fits
    `rules.outline_budget` (or `level` is None and there is no budget), else level 1, made
    smaller (COMPACT_STEPS) until it fits."""
    budget = rules.outline_budget
    if level is not None and level != 1:
        raise LevelError(f"error: level {level} needs a symbol: read_outline(path=\"{rel}\", "
                         f"symbol=\"NAME\", level={level})")
    info = file_info(con, rel) if rel != "." else None
    one = load(con, rel, [info])[0] if info is not None and outlinable(info) else None
    if one is not None:
        load_uses(con, [one], rules)            # a max_children cap ranks members by use
    if level is None:
        if one is not None:
            data, versions = json_file(one, rules), {one.path: one.info.sha256}
            text = _dump(data, rules) if rules.format == "json" else RENDERERS[rules.format](one, rules)
        else:
            text, data, versions = render(con, rel, rules)
        if budget is None or _tokens(rules, text) <= budget or not versions:
            return text, data, versions
    steps = _steps(rules, one is not None)
    for i, (how, change) in enumerate(steps):
        r = rules.replace(max_depth=1, **change)
        if one is None:                            # a directory (or a file without outline)
            text, data, versions = render(con, rel, r)
        else:                                      # one file: loaded once, rendered per step
            data, versions = json_file(one, r), {one.path: one.info.sha256}
            text = _dense_file(one, r) if how == "dense" else \
                _dump(data, r) if r.format == "json" else RENDERERS[r.format](one, r)
        if isinstance(data, dict):
            data = {**data, "level": 1, "compact": how or None}
        text = _with_hint(text, r, _hint(rel), data.get("language") if isinstance(data, dict) else None)
        if budget is None or _tokens(rules, text) <= budget or i == len(steps) - 1:
            return text, data, versions
    raise AssertionError("unreachable")


# ---------------------------------------------------------------- level 2 and 3: one symbol

def find_symbol(fd: FileData, name: str) -> Sym | None:
    """The definition of a loaded file named `name`: a dotted path from the top level
    (`Session.send`), a qualified name (`pkg.mod.Session.send`) or a unique bare name."""
    name = name.strip()
    every: list[Sym] = []

    def walk(items):
        for s in items:
            if s.kind not in ANONYMOUS_KINDS:
                every.append(s)
                walk(s.children)
    walk(fd.top)
    exact = [s for s in every if s.qualname == name]
    if exact:
        return exact[0]
    suffix = [s for s in every if s.qualname.endswith("." + name)]
    if len(suffix) == 1:
        return suffix[0]
    if suffix:                            # `send` in a file with two classes that have one
        raise LevelError(f"error: {name!r} is ambiguous in {fd.path}: "
                         + ", ".join(f"{s.qualname} [{lines_label(s, True)}]" for s in suffix[:10])
                         + "; give the dotted name")
    return None


def _load_file(con, rel: str, rules: Rules) -> FileData:
    info = file_info(con, rel)
    if info is None:
        raise LevelError(f"error: a symbol is looked up in one file; {rel!r} is not an indexed file")
    if not outlinable(info):
        raise LevelError(_no_outline_text(info))
    fd = load(con, rel, [info])[0]
    load_uses(con, [fd], rules)
    return fd


def symbol_level(con, rel: str, symbol: str, rules: Rules, level: int | None = None) -> tuple[str, dict, dict]:
    """(text, data, versions) of one definition of file `rel`: level 2 (members) or 3
    (blocks); None picks 2 for a definition with members, 3 for a function without."""
    fd = _load_file(con, rel, rules)
    s = find_symbol(fd, symbol)
    if s is None:
        raise LevelError(f"error: no definition {symbol!r} in {rel}; read_outline(path=\"{rel}\") "
                         "lists them")
    if level == 1:
        raise LevelError("error: level 1 is a whole file's outline; leave out the symbol")
    if level is None:
        level = 3 if s.kind in SIGNATURE_KINDS and not [c for c in s.children if c.kind not in ANONYMOUS_KINDS] \
            else 2
    if level == 3:
        if s.kind not in SIGNATURE_KINDS:
            raise LevelError(f"error: level 3 (blocks) is for a function or method; {s.qualname} is a "
                             f"{s.kind}: read_outline(path=\"{rel}\", symbol=\"{symbol}\") shows its members")
        from .blocks import block_outline
        return block_outline(con, fd, s, rules)
    return _members(fd, s, rules)


def _members(fd: FileData, s: Sym, rules: Rules) -> tuple[str, dict, dict]:
    """Level 2: `s` with its members (all of them) and their members counted."""
    part = FileData(fd.info, None, [], [], [s], fd.definitions)
    base = rules.replace(max_depth=2, max_children=None, imports=False, module_vars=True)
    versions = {fd.path: fd.info.sha256}
    steps = _steps(rules, True)
    for i, (how, change) in enumerate(steps):
        r = base.replace(**change)
        data = json_file(part, r)
        data["level"] = 2
        data["symbol"] = s.qualname
        data["compact"] = how or None
        if r.format == "json":
            text = _dump(data, r)
        elif how == "dense":
            text = _dense_members(fd, s, r)
        else:
            text = RENDERERS[r.format](part, r)
        kids = [c for c in s.children if c.kind not in ANONYMOUS_KINDS and c.children]
        if kids:
            text = _with_hint(text, r, f'[level 2; expand a member: symbol="{_local(fd, s)}.NAME"]',
                              fd.language)
        if rules.outline_budget is None or _tokens(rules, text) <= rules.outline_budget \
                or i == len(steps) - 1:
            return text, data, versions
    raise AssertionError("unreachable")


def pick(con, rel: str, rules: Rules, symbol: str | None = None,
         level: int | None = None) -> tuple[str, dict, dict]:
    """What `read_outline(path, symbol?, level?)` answers (see the module doc)."""
    if level is not None and level not in LEVELS:
        raise LevelError(f"error: level must be 1, 2 or 3, not {level!r}")
    if symbol:
        return symbol_level(con, rel, symbol, rules, level)
    return file_levels(con, rel, rules, level)


__all__ = ["pick", "file_levels", "symbol_level", "find_symbol", "LevelError", "LEVELS"]
