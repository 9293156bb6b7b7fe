"""Modules loaded by name: what a call of `importlib.import_module(name[, package])`
returns, read from the texts of its arguments without evaluating them (`Python`'s
`call_external` and `call_function` ask).

* `imported`: the module a literal name gives (`"plugins.alpha"`, or `".alpha"` relative
  to a literal package): the repository's module of that name, else the outside module
  (`(EXT, "ssl")`, as `import ssl` gives); for a name built from a literal prefix
  (`"plugins." + name`, `f"plugins.{name}"`), each repository module directly under it.
  None when the name cannot be read.
* The standard library indexed holds `importlib` itself, whose `import_module` returns
  `_bootstrap._gcd_import(...)` (`_bootstrap` being `_frozen_importlib` or the
  repository's `importlib._bootstrap`): its body says nothing about the module loaded.
  A call of the repository's own `importlib.import_module` (`is_import_module`) is read
  as a call of the outside one is, and gives nothing when the name cannot be read.
* A function handing a parameter of its own on to `import_module` and returning what
  that returns (`test.support.import_helper.import_module(name)`: `return
  importlib.import_module(name)`, `forwarding`) gives, called with a literal there, the
  module that literal names; its other returns as usual. One level only: a function
  passing its parameter to such a wrapper is read as any other function.
"""
from __future__ import annotations

from ..exprs import split_top, string_value
from ..values import EXT, SYM
from .python_names import name_text

#: the function's dotted name outside the repository
IMPORT_MODULE = "importlib.import_module"
#: `Model.ext` key: function id -> its forwarding returns (`forwarding`); a refreshed
#: model starts it afresh
_KEY = "python.import_forwarding"


def imported(rules, m, parts: list[str]) -> set | None:
    """The modules `import_module(*parts)` (its arguments as written) may return, or None
    when the name is not read. Files added or removed make a full run, so no lookup is
    noted."""
    parts = _by_keyword(parts)
    if not parts or not parts[0]:
        return None
    got = name_text(parts[0])
    if got is None:
        return None
    text, prefix = got
    if text.startswith("."):
        package = string_value(parts[1]) if len(parts) > 1 and parts[1] else None
        if not package:
            return None
        text = package + text
    if not prefix:
        mid = rules.module(m, text)
        if mid is not None and m.fam.get(mid) == "python":
            return {(SYM, mid)}
        return {(EXT, text)}
    if not text.endswith("."):
        return None
    out = set()
    for i in m.file_module.values():
        q = m.qual.get(i) or ""
        if q.startswith(text) and "." not in q[len(text):] and m.fam.get(i) == "python":
            out.add((SYM, i))
    return out or None


def _by_keyword(parts: list[str]) -> list[str]:
    """`import_module`'s arguments as written, `name=` / `package=` ones put in place:
    [name, package] (empty texts for those not passed)."""
    out = ["", ""]
    for k, p in enumerate(parts[:2]):
        p = p.strip()
        kv = split_top(p, ("=",))
        if len(kv) == 2 and kv[0].strip() in ("name", "package"):
            out[kv[0].strip() == "package"] = kv[1].strip()
        else:
            out[k] = p
    return out


def is_import_module(rules, m, fn: int) -> bool:
    """Whether function `fn` is the repository's own `importlib.import_module`."""
    if m.name.get(fn) != "import_module":
        return False
    parent = m.parent.get(fn)
    return parent is not None and parent == rules.module(m, "importlib")


def forwarding(m, fn: int) -> tuple:
    """The returns of function `fn` that may hand a parameter on to `import_module`:
    ((row index, callee text, argument texts), ...), read from the texts once per
    function (a file re-indexed gives its symbols new ids). Whether the callee is
    `import_module` is for the caller to evaluate."""
    cache = m.ext.get(_KEY)
    if cache is None:
        cache = m.ext[_KEY] = {}
    got = cache.get(fn)
    if got is None:
        got = ()
        for k, row in enumerate(m.returns.get(fn, ())):
            t = (row[3] or "").strip()
            i = t.find("import_module(")
            if i < 0 or not t.endswith(")"):
                continue
            callee = t[:i + len("import_module")]
            args = t[i + len("import_module("):-1]
            if "(" in callee or not all(c.isidentifier() for c in callee.split(".")):
                continue
            parts = _by_keyword(split_top(args, (",",))) if args.strip() else []
            if parts and parts[0].isidentifier():
                got += ((k, callee, parts),)
        cache[fn] = got
    return got


def _arg_texts(ev, f: tuple, args: str, shift: int) -> dict | None:
    """Parameter name -> argument text of a call of function value `f` with `args` as
    written (parameters not passed: their default's text); None for `*` / `**`
    arguments or more positional arguments than parameters."""
    ps = ev.params(f[1])
    if ps is None:
        return None
    out: dict = {}
    pos = shift
    for a in ([a.strip() for a in split_top(args, (",",))] if args.strip() else []):
        if a.startswith("*"):
            return None
        kv = split_top(a, ("=",))
        if len(kv) == 2 and kv[0].strip().isidentifier():
            out[kv[0].strip()] = kv[1].strip()
            continue
        if pos >= len(ps) or ps[pos].kind != "pos":
            return None
        out[ps[pos].name] = a
        pos += 1
    for p in ps[shift:]:
        if p.name not in out and p.default is not None:
            out[p.name] = p.default.strip()
    return out


def call_result(rules, ev, f: tuple, args: str, depth: int) -> set | None:
    """What a call of function value `f` with `args` (as written) returns when `f` is
    the repository's `import_module` or forwards a parameter to it; None: read its
    returns as usual."""
    m = ev.m
    fn = f[1]
    if is_import_module(rules, m, fn):
        ev.memo.read(fn)
        got = imported(rules, m, split_top(args, (",",)) if args.strip() else [])
        return got if got is not None else set()
    if m.lazy:                    # incremental runs load bindings per file
        m.ensure_bindings(m.path.get(fn))
    rows = forwarding(m, fn)
    if not rows:
        return None
    texts = None
    found: dict = {}
    for k, callee, parts in rows:
        if not _calls_import_module(rules, ev, fn, callee, depth):
            continue
        if texts is None:
            texts = _arg_texts(ev, f, args, rules._shift(m, f))
            if texts is None:
                return None
        if parts[0] not in texts:
            continue
        got = imported(rules, m, [texts.get(p, p) if p else p for p in parts])
        if got is not None:
            found[k] = got
    if not found:
        return None
    ev.memo.read(fn)
    out: set = set()
    for k, row in enumerate(m.returns.get(fn, ())):
        out |= found[k] if k in found else ev.binding_values(row, depth + 1)
    return out


def _calls_import_module(rules, ev, fn: int, callee: str, depth: int) -> bool:
    """Whether `callee`, written in function `fn`, is `importlib.import_module`, the
    outside one or the repository's."""
    for v in ev.eval_text(fn, callee, depth=depth + 1)[0]:
        if v == (EXT, IMPORT_MODULE):
            return True
        if v[0] == SYM and is_import_module(rules, ev.m, v[1]):
            return True
    return False
