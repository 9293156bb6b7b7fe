"""Python containers filled through an attribute of another object: the index
`Python.outside_fills` reads (see `Members.filled_outside`).

`env.filters["upper"] = f`, `hook.impls.append(f)`, `app.before_request_funcs.setdefault(
None, []).append(f)`, `obj.handlers.extend([...])`, `mod.callbacks.append(f)`: element rows
(`element`, `extend`, `nest`) whose container is written as an attribute of something.
The index maps the attribute's name to those containers, (scope, container as written,
line of its first row), read once per model from the bindings table (a few hundred on the
standard library), in the order (file, line, text) so that a fresh model and a refreshed
one hold the same list. A kept model carries its rows over (`refresh`): those of the changed files' old
scopes dropped, the rows of the symbols added since read when the index is next needed.
A file provides the token ``e:NAME`` for each attribute NAME its rows fill (`provides`).
"""
from __future__ import annotations

from ..carry import carry, since_first

_KEY = "python.outside_fills"
_KEPT = "python.outside_fills.kept"


def outside_fills(m) -> dict:
    """attribute name -> [(scope, container as written)] (see the module doc)."""
    got = m.ext.get(_KEY)
    if got is not None:
        return got
    base, rows = since_first(m, _KEPT, """SELECT src_id, name, line FROM bindings
                                        WHERE kind IN ('element', 'extend', 'nest') AND contains(name, '.') {since}""")
    flat = list(base or ())
    for src, name, line in rows:
        scope = m.ns(src)
        head, _, attr = name.rpartition(".")
        if scope is None or not head or not attr.isidentifier() or m.fam.get(scope) != "python":
            continue
        flat.append((scope, name, line))
    path = m.path
    flat.sort(key=lambda r: (path.get(r[0]) or "", r[2] if r[2] is not None else -1, r[1], r[0]))
    got: dict = {}
    seen = set()
    for scope, name, line in flat:        # each container once, at its first row
        if (scope, name) not in seen:
            seen.add((scope, name))
            got.setdefault(name.rpartition(".")[2], []).append((scope, name, line))
    m.ext[_KEY] = got
    return got


def refresh(m, old_ext: dict, gone_ids: set, new: list[int]) -> None:
    """A kept model's index: the last run's rows without those of the scopes gone, and the
    first id of the symbols added since (whose rows are read when the index is next needed)."""
    got = old_ext.get(_KEY)
    carry(m, old_ext, _KEPT, None if got is None else [r for rs in got.values() for r in rs],
          lambda rows: [r for r in rows if r[0] not in gone_ids], new)


def provides(m, paths: set[str]) -> dict[str, dict[str, list[str]]]:
    """``e:NAME`` for each attribute NAME the rows of `paths` fill: path -> token -> facts."""
    out: dict = {}
    mods, fam = m.file_module, m.fam
    if not any(fam.get(mods.get(p)) == "python" for p in paths):
        return out                      # (no query for a run without Python files)
    qual, path_of = m.qual, m.path
    for attr, rows in outside_fills(m).items():
        for scope, name, _ in rows:
            p = path_of.get(scope)
            if p in paths:
                out.setdefault(p, {}).setdefault("e:" + attr, []).append(f"{qual.get(scope)}|{name}")
    return out
