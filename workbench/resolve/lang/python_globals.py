"""Python module names bound from inside functions: `global name` declarations and PEP 562
module `__getattr__` branches, read from the bindings rows of kinds `global` and
`getattr_case` (which no per-scope index holds: a few hundred on the standard library),
once per model; a refreshed model reads them again.

`declared` holds, per module, the functions whose bindings of a name bind their module's
name (`Python.global_scopes` reads it; `Resolver.declared_values` evaluates them);
`module_getattr` the value a module's
`__getattr__` returns for a name it compares with (`if name == "X": return ...`).

A kept model carries the rows read over (`refresh`): those of the changed files' old
symbols dropped, the rows of the symbols added since read when the index is next needed
(one scan of the bindings table: ~0.02 s on the standard library, which a one-file
re-index of a kept model otherwise spent on every run).
"""
from __future__ import annotations

from ..exprs import string_value
from ..carry import carry, since_first
from ..kinds import FUNCTION_KINDS

_KEY = "python.declared"
_ROWS = "python.declared.rows"       # the rows the index was made from (`refresh`)
_KEPT = "python.declared.kept"       # a refreshed model's rows, and the first id added since


def declared(m) -> tuple[dict, dict]:
    """(module -> name -> the scopes declaring `global name` in it, in source order;
    module `__getattr__` function -> name compared -> the expressions it returns under
    `if name == "X":`)."""
    got = m.ext.get(_KEY)
    if got is None:
        base, new = since_first(m, _KEPT, """SELECT path, src_id, kind, name, value FROM bindings
                                           WHERE kind IN ('global', 'getattr_case') AND src_id IS NOT NULL {since}
                                           ORDER BY path, line, rowid""")
        # a file's rows all come from one side (its scopes are its own symbols), each side
        # in the table's order: a stable sort by path gives the order of one query
        rows = new if base is None else sorted([*base, *new], key=lambda r: r[0])
        got = m.ext[_KEY] = _index(m, rows)
        m.ext[_ROWS] = rows
    return got


def _index(m, rows: list[tuple]) -> tuple[dict, dict]:
    """`declared` of the rows (path, src_id, kind, name, value), in the table's order."""
    globs: dict = {}
    cases: dict = {}
    for _, src, kind, name, value in rows:
        scope = m.ns(src)
        if scope is None or m.fam.get(scope) != "python" or not value:
            continue
        if kind == "global":
            mod = m.module_of(scope)
            if mod is None or mod == scope:
                continue
            scopes = globs.setdefault(mod, {}).setdefault(value, [])
            if scope not in scopes:
                scopes.append(scope)
        elif m.kind.get(m.parent.get(scope)) == "module":
            key = string_value(name or "")
            if key:
                cases.setdefault(scope, {}).setdefault(key, []).append(value)
    return globs, cases


def refresh(m, old_ext: dict, gone_ids: set, new: list[int]) -> None:
    """A kept model's rows: the last run's without those of the symbols gone, and the
    first id of the symbols added since (whose rows are read when the index is next needed)."""
    carry(m, old_ext, _KEPT, old_ext.get(_ROWS) if old_ext.get(_KEY) is not None else None,
          lambda rows: [r for r in rows if r[1] not in gone_ids], new)


def module_getattr(ev, mid: int, name: str, depth: int) -> set:
    """PEP 562: an attribute module `mid` does not define, when the module defines
    `def __getattr__(name)`, is what that function returns under `if name == "X":`
    (`elif` too) for the name asked: the returned expression read in the function.
    Nothing for a name no such comparison names (what else the function returns, a
    `getattr(module, name)` of a lazy-import table, is not read)."""
    m = ev.m
    fns = [c for c in m.children.get(mid, {}).get("__getattr__", ()) if m.kind.get(c) in FUNCTION_KINDS]
    if not fns:
        return set()
    fn = fns[-1]                    # a name defined twice: the later definition
    ev.memo.read(fn)
    texts = declared(m)[1].get(fn, {}).get(name)
    out: set = set()
    for t in texts or ():
        out |= ev.eval_text(fn, t, depth=depth + 1)[0]
    return out
