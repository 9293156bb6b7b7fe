"""The attribute names `getattr`'s second argument stands for (`Python._getattr`), read from
the texts the extractor stored, without evaluating values.

A name is an exact text or a prefix: `"run"` -> ("run", False); `"do_" + cmd` or
`f"get_{platform}"` -> ("do_", True) when the rest is not known. A name read through
variables is followed while every value it may hold is a text this module understands:

* a local variable assigned such texts (`method = "visit_" + name`), or the variable of a
  `for` over a literal of texts (`for name in ("setUp", "tearDown")`), or over a name
  assigned one (`for name in _HOOKS`);
* a module-level name assigned a text (`HOOK = "teardown"`) read inside a function;
* a concatenation or an f-string whose variable part is known: `"do_" + cmd` with `cmd`
  one of `"greet"` / `"help"` is ("do_greet", False) and ("do_help", False), no prefix.

Anything else (a parameter, an attribute, a call, a name bound another way) makes the
names unknown: `None`, and the caller does what it does without them. So does a set of
more than `MAX_NAMES` names: a table of many names says little about one call.
"""
from __future__ import annotations

from ..exprs import alternatives, literal_items, split_top, string_value
from ..kinds import CLASS_KINDS, FUNCTION_KINDS

#: the most names one argument may stand for; more count as unknown
MAX_NAMES = 8
#: how many variables deep a name is followed
_MAX_HOPS = 4
_NO: dict = {}
#: binding kinds whose rows a name's values are read from
_READ = frozenset({"assign", "iter"})


def name_text(text: str) -> tuple[str, bool] | None:
    """An attribute name as written: `"run"` -> ("run", False); a prefix and more,
    `"do_" + cmd` or `f"get_{platform}"` -> ("do_", True) / ("get_", True); else None."""
    attr = string_value(text)
    if attr is not None:
        return (attr, False) if attr else None
    terms = split_top(text, ("+",))
    if len(terms) == 2:
        prefix = string_value(terms[0])
        return (prefix, True) if prefix else None
    if text[:2] in ("f'", 'f"'):
        prefix = string_value(text[1:].split("{", 1)[0] + text[1])
        return (prefix, True) if prefix and "{" in text else None
    return None


def attr_names(ev, scope: int, text: str) -> list[tuple[str, bool]]:
    """The names (or prefixes) `text`, written in `scope`, stands for; [] when unknown."""
    got = _names(ev, scope, text.strip(), 0)
    return list(got) if got else []


def _names(ev, scope: int, text: str, hops: int):
    """A tuple of (name, is_prefix) for `text`, or None when not every value is understood."""
    alts = alternatives(text)
    if len(alts) > 1:                     # `"a" if x else "b"`, `x or "b"`: each value
        if len(alts) == 3 and " if " in text and " else " in text:
            alts = (alts[0], alts[2])
        elif any(sep in text for sep in (" and ", " if ", " else ")):
            return None
        out: list = []
        for a in alts:
            got = _names(ev, scope, a, hops)
            if got is None:
                return None
            out.extend(got)
        return _capped(out)
    attr = string_value(text)
    if attr is not None:
        return ((attr, False),) if attr else None
    if text.isidentifier():
        return _variable(ev, scope, text, hops)
    if text[:2] in ("f'", 'f"'):
        return _fstring(ev, scope, text, hops)
    terms = split_top(text, ("+",))
    if len(terms) == 2:
        return _joined(ev, scope, terms, hops) or _prefix(text)
    return None


def _prefix(text: str):
    got = name_text(text)
    return (got,) if got is not None else None


def _joined(ev, scope: int, terms: list, hops: int):
    """`"do_" + cmd` with `cmd`'s texts known: each whole name; else None."""
    prefix = string_value(terms[0])
    if not prefix or not terms[1].isidentifier():
        return None
    rest = _variable(ev, scope, terms[1], hops)
    if not rest or any(p for _, p in rest):
        return None
    return _capped([(prefix + n, False) for n, _ in rest])


def _fstring(ev, scope: int, text: str, hops: int):
    """`f"get_{platform}"`: with one plain name between the braces whose texts are known,
    each whole name; else the prefix, as written."""
    body = text[2:-1] if len(text) > 3 and text[-1] == text[1] else ""
    head, sep, tail = body.partition("{")
    var, sep2, after = tail.partition("}")
    if sep and sep2 and var.isidentifier() and "{" not in after and "}" not in after \
            and text[1] not in body and "\\" not in body:
        rest = _variable(ev, scope, var, hops)
        if rest and not any(p for _, p in rest):
            return _capped([(head + n + after, False) for n, _ in rest])
    return _prefix(text)


def _variable(ev, scope: int, name: str, hops: int):
    """The texts variable `name` holds where `scope` reads it: its binding rows in the
    nearest scope binding it, each an assignment or a `for` over a literal, all understood."""
    where, rows = _binding(ev, scope, name, hops)
    if not rows:
        return None
    out: list = []
    for row in rows:
        kind, value = row[1], (row[3] or "").strip()
        if kind not in _READ or not value or name in value.replace(".", " ").split():
            return None                   # another binding, or one reading the name itself
        got = _names(ev, where, value, hops + 1) if kind == "assign" else _items(ev, where, value, hops + 1)
        if got is None:
            return None
        out.extend(got)
    return _capped(out)


def _items(ev, scope: int, text: str, hops: int):
    """The texts a `for` over `text` gives: the items of a literal (`("setUp", "tearDown")`),
    or of the literal a name was assigned (`for name in _HOOKS`), each a plain text."""
    items = literal_items(text) if text[:1] in "([{" else None
    if items is None:
        where, rows = _binding(ev, scope, text, hops) if text.isidentifier() else (scope, ())
        if not rows:
            return None
        out: list = []
        for row in rows:
            value = (row[3] or "").strip()
            # a tuple: a list or set may have had names added since (`names.append(...)`)
            got = _items(ev, where, value, hops + 1) if row[1] == "assign" and value[:1] == "(" else None
            if got is None:
                return None
            out.extend(got)
        return _capped(out)
    if text[:1] == "(" and len(split_top(text[1:-1], (",",))) < 2 and not text[1:-1].rstrip().endswith(","):
        return None                       # `("abc")`: a text in parentheses, not a tuple
    if not items or text[:1] == "{" and any(len(split_top(i, (":",))) > 1
                                            for i in split_top(text[1:-1], (",",))):
        return None                       # a dict: its keys are not what `literal_items` gives
    out = []
    for it in items:
        attr = string_value(it)
        if not attr:
            return None
        out.append((attr, False))
    return _capped(out)


def _binding(ev, scope: int, name: str, hops: int):
    """(scope, rows): the binding rows of `name` in the nearest scope around `scope` binding
    it (a class body is not seen from its methods); no rows when a function, an import or a
    parameter (assigned in the function or not) binds it there first, or the name was
    followed too far."""
    if hops >= _MAX_HOPS:
        return scope, ()
    m = ev.m
    s, first = scope, True
    while s is not None:
        k = m.kind.get(s)
        if first or k not in CLASS_KINDS:
            if m.lazy:                    # incremental runs load bindings per file
                m.ensure_bindings(m.path.get(s))
            ev.memo.read(s)
            rows = m.binds.get(s, _NO).get(name)
            if k in FUNCTION_KINDS and any(p.name == name for p in ev.params(s) or ()):
                return s, ()              # a parameter, maybe assigned again: what comes in is not known
            if rows:
                return s, rows
            if name in m.children.get(s, _NO) or name in m.imports_by_scope.get(s, _NO):
                return s, ()
        first = False
        s = m.ns(m.parent.get(s))
    return scope, ()


def _capped(out: list):
    got = tuple(dict.fromkeys(out))
    return got if 0 < len(got) <= MAX_NAMES else None
