"""Tiny, language-light readers of expressions *as written* (callee texts, binding values).

The resolver never re-parses files; what it knows about an expression is the text the
extractor stored (`edges.dst_name`, `bindings.value`). These helpers cut such a text into
a postfix chain (``a.b(x)[0].c`` -> name, attr, call, index, attr), split alternatives
(``a or b``, ``c ? a : b``) and list literals (``[f, g]``, ``{"k": f}``). Strings and
brackets are respected; anything else yields ``None`` ("not a simple chain").
"""
from __future__ import annotations

import re
from functools import lru_cache

_IDENT = re.compile(r"[^\W\d][\w$]*|\$[\w$]*", re.UNICODE)
_OPEN = "([{"
_CLOSE = ")]}"
_PREFIXES = ("await ", "yield from ", "yield ", "new ", "return ", "void ", "typeof ", "go ",
             "defer ", "...", "*", "&")


def skip_string(s: str, i: int) -> int:
    """Index just after the string literal starting at `s[i]` (a quote), or -1."""
    q = s[i]
    if q in "\"'" and s.startswith(q * 3, i):
        end = s.find(q * 3, i + 3)
        return -1 if end < 0 else end + 3
    j, n = i + 1, len(s)
    while j < n:
        c = s[j]
        if c == "\\":
            j += 2
            continue
        if c == q:
            return j + 1
        j += 1
    return -1


def match_bracket(s: str, i: int) -> int:
    """Index just after the bracket closing the one at `s[i]`, or -1 (unbalanced/truncated)."""
    depth, n = 0, len(s)
    while i < n:
        c = s[i]
        if c in _OPEN:
            depth += 1
        elif c in _CLOSE:
            depth -= 1
            if depth == 0:
                return i + 1
        elif c in "\"'`":
            j = skip_string(s, i)
            if j < 0:
                return -1
            i = j
            continue
        i += 1
    return -1


_NESTING = re.compile(r"[][(){}\"'`]")
_SEP_RES: dict[tuple[str, ...], re.Pattern] = {}


def split_top(s: str, seps: tuple[str, ...]) -> list[str]:
    """Split `s` at any of `seps` occurring outside brackets and strings."""
    if not _NESTING.search(s):          # nothing to skip: a plain split (same leftmost-first rule)
        if len(seps) == 1:
            parts = s.split(seps[0])
        else:
            rx = _SEP_RES.get(seps)
            if rx is None:
                rx = _SEP_RES[seps] = re.compile("|".join(map(re.escape, seps)))
            parts = rx.split(s)
        return [p.strip() for p in parts if p.strip()]
    parts, depth, start, i, n = [], 0, 0, 0, len(s)
    while i < n:
        c = s[i]
        if c in _OPEN:
            depth += 1
        elif c in _CLOSE:
            depth -= 1
        elif c in "\"'`":
            j = skip_string(s, i)
            if j < 0:
                break
            i = j
            continue
        elif depth == 0:
            for sep in seps:
                if s.startswith(sep, i):
                    parts.append(s[start:i])
                    i += len(sep)
                    start = i
                    break
            else:
                i += 1
            continue
        i += 1
    parts.append(s[start:])
    return [p.strip() for p in parts if p.strip()]


_ALT_SEPS = (" or ", " and ", " if ", " else ", "||", "&&", "??", " ? ", " : ")


def alternatives(text: str) -> tuple[str, ...]:
    """The operands a value may come from: ``a or b`` -> (a, b); ``x if c else y`` -> (x, c, y)."""
    if " " not in text and "|" not in text and "&" not in text and "?" not in text:
        return (text.strip(),)       # most texts: not worth a place in the cache
    for sep in _ALT_SEPS:
        if sep in text:
            return _alternatives(text)
    return (text.strip(),)           # no separator anywhere: nothing to split (as `split_top`)


@lru_cache(maxsize=65536)
def _alternatives(text: str) -> tuple[str, ...]:
    parts = split_top(text, _ALT_SEPS)
    return tuple(parts) if len(parts) > 1 else (text.strip(),)


@lru_cache(maxsize=65536)
def literal_entries(text: str) -> tuple[str, ...] | None:
    """Entries of a list/tuple/set/dict/object literal written as text, in order; None if
    not one. A dict's values stand for its entries; a starred entry (`*xs`, JS `...xs`)
    is kept as ``*xs``: it stands for any number of items, so the places after it are
    unknown. A dict's `**d` is left out."""
    s = text.strip()
    if len(s) < 2 or s[0] not in "[({" or match_bracket(s, 0) != len(s):
        return None
    out = []
    for part in split_top(s[1:-1], (",",)):
        if part.startswith("**"):
            continue
        if part.startswith("..."):
            out.append("*" + part[3:])
            continue
        kv = split_top(part, (":",))
        out.append(kv[-1] if len(kv) == 2 else part)
    return tuple(out)


@lru_cache(maxsize=65536)
def literal_items(text: str) -> tuple[str, ...] | None:
    """Values of a list/tuple/set/dict/object literal written as text; None if not one.
    Starred entries are left out (`literal_entries` keeps them)."""
    entries = literal_entries(text)
    if entries is None:
        return None
    return tuple(e for e in entries if e[:1] != "*")


@lru_cache(maxsize=65536)
def literal_pairs(text: str) -> tuple[tuple[str, str], ...] | None:
    """``{a, b: c}`` -> (("a", "a"), ("b", "c")): keys and values of an object literal."""
    s = text.strip()
    if len(s) < 2 or s[0] != "{" or match_bracket(s, 0) != len(s):
        return None
    out = []
    for part in split_top(s[1:-1], (",",)):
        kv = split_top(part, (":",))
        if len(kv) == 2:
            k = kv[0].strip("\"'` ")
            out.append((k, kv[1]))
        elif _IDENT.fullmatch(part):
            out.append((part, part))
    return tuple(out)


@lru_cache(maxsize=131072)
def parse_chain(text: str) -> tuple[tuple, bool] | None:
    """``a.b(x)[0].c`` -> ((("name","a"),("attr","b"),("call","x"),("index","0"),("attr","c")), new).

    `new` tells the chain was written `new X(...)` (or Go `&X{...}`, a composite literal).
    A parenthesised head becomes ("paren", inner). Returns None for anything else.
    """
    s = text.strip()
    if _DOTTED.fullmatch(s):            # `a`, `a.b.c` (most texts): no prefix, bracket or string
        return _shared_steps([("attr", x) if k else ("name", x) for k, x in enumerate(s.split("."))]), False
    new = False
    changed = True
    while changed:
        changed = False
        for p in _PREFIXES:
            if s.startswith(p):
                if p == "new ":
                    new = True
                s = s[len(p):].lstrip()
                changed = True
    n = len(s)
    if not n:
        return None
    steps: list[tuple] = []
    q = 0
    while q < 2 and q < n and s[q] in "rRbBuUfF":
        q += 1
    if q < n and s[q] in "\"'`" and (q == 0 or s[q] != "`"):
        j = skip_string(s, q)
        if j < 0:
            return None
        steps.append(("str", s[:j]))
        i = j
    elif s[0] == "(":
        j = match_bracket(s, 0)
        if j < 0:
            return None
        steps.append(("paren", s[1:j - 1]))
        i = j
    else:
        m = _IDENT.match(s)
        if not m:
            return None
        steps.append(("name", m.group()))
        i = m.end()
    while i < n:
        c = s[i]
        if c == "." or s.startswith("?.", i) or s.startswith("::", i) or s.startswith("->", i):
            i += 1 if c == "." else 2
            while i < n and s[i] == " ":
                i += 1
            if i < n and s[i] in "([":
                continue
            m = _IDENT.match(s, i)
            if not m:
                return None
            steps.append(("attr", m.group()))
            i = m.end()
        elif c == "(":
            j = match_bracket(s, i)
            if j < 0:
                return None
            steps.append(("call", s[i + 1:j - 1]))
            i = j
        elif c == "[":
            j = match_bracket(s, i)
            if j < 0:
                return None
            steps.append(("index", s[i + 1:j - 1]))
            i = j
        elif c == "{":                  # Go / Rust composite literal `T{...}`
            j = match_bracket(s, i)
            if j < 0:
                return None
            steps.append(("call", ""))
            new = True
            i = j
        elif c == "!" and not s.startswith("!=", i):
            i += 1                      # TypeScript non-null assertion
        elif c == "<":                  # generic arguments `f<T>(...)`
            depth, j = 0, i
            while j < n:
                if s[j] == "<":
                    depth += 1
                elif s[j] == ">":
                    depth -= 1
                    if depth == 0:
                        break
                elif s[j] in "();=":
                    return None
                j += 1
            if j >= n:
                return None
            i = j + 1
        elif c == " " or c == "\t":
            i += 1
        else:
            return None
    if new and steps[-1][0] != "call":
        steps.append(("call", ""))
    return _shared_steps(steps), new


def _shared_steps(steps: list[tuple]) -> tuple:
    # the cache holds ~70,000 chains on the standard library: share their name and
    # attribute steps (~260,000 of them, ~40,000 different)
    if len(_STEPS) > 262144:
        _STEPS.clear()
    share = _STEPS.setdefault
    return tuple([share(st, st) if st[0] in _SHARED_STEPS else st for st in steps])


_STEPS: dict[tuple, tuple] = {}
_SHARED_STEPS = ("name", "attr")
#: a name, or names joined by dots, as `parse_chain` reads them (`_IDENT` each)
_DOTTED = re.compile(r"(?:[^\W\d][\w$]*|\$[\w$]*)(?:\.(?:[^\W\d][\w$]*|\$[\w$]*))*")


def first_arg(args: str) -> str | None:
    parts = split_top(args, (",",))
    return parts[0] if parts else None


def string_value(text: str) -> str | None:
    """The content of a plain string literal (`"name"` / `'name'`), else None."""
    s = text.strip()
    if len(s) >= 2 and s[0] == s[-1] and s[0] in "\"'`" and s[0] not in s[1:-1]:
        return s[1:-1]
    return None


def clear_caches() -> None:
    """Forget the parsed texts (~25 MB after a full run on the standard library): a full
    run lets them go before its writes; later runs parse what they need again."""
    for fn in (_alternatives, literal_items, literal_pairs, parse_chain):
        fn.cache_clear()
    _STEPS.clear()
