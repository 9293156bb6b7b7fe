"""Reading strategies: the path an agent takes through the tools to reach one definition.

Each strategy is a function `(probe, target, param) -> None` that makes tool calls through
the probe; the probe records what they cost and which lines came back. A strategy knows
the task's file and the names leading to the definition (`Session.send`), never its line
range: it finds ranges in the answers, as an agent would.

| strategy | path |
|---|---|
| `whole_file` | read_region(1, N), following the continuation notes to the end |
| `first_n[:N]` | read_region(1, N) (default 300 lines), following continuation notes up to line N |
| `outline_region` | read_outline(path) (whatever level it picks), expand as it says until the definition shows, read_region |
| `outline_symbol` | read_outline(path); when the definition is not shown, read_outline(path, symbol=Class.method) (its own line and blocks), read_region |
| `hierarchical` | read_outline(path, level=1), expand one definition at a time (level 2), read_region |
| `map_region[:B]` | repo_map(budget B); if the definition is on it, read_region; else as `outline_region` |
| `resolve` | resolve_symbol(Class.method, path) (a second call when the answer lists candidates) |
| `search_region` | search_symbols(name, path), read_region |
| `context_pack[:B]` | context_pack(fix-bug, the definition, budget B) (for an added definition: its anchor); when the answer lists same-named definitions of the file, again with a line of the target |

`register(name, fn)` adds a strategy of your own.
"""
from __future__ import annotations

from typing import Callable

from .probe import Probe, Target, find_in_outline

STRATEGIES: dict[str, Callable] = {}
DEFAULT_STRATEGIES = ("whole_file", "first_n", "outline_region", "outline_symbol", "hierarchical",
                      "map_region", "resolve", "search_region", "context_pack")
MAX_EXPANSIONS = 6


def register(name: str, fn: Callable | None = None):
    """Add a strategy `fn(probe, target, param)`; usable as a decorator."""
    def deco(f):
        STRATEGIES[name] = f
        return f
    return deco(fn) if fn is not None else deco


def parse(spec: str) -> tuple[str, str | None]:
    """'first_n:200' -> ('first_n', '200')."""
    name, _, param = spec.partition(":")
    if name not in STRATEGIES:
        raise ValueError(f"unknown strategy {name!r}; built in: {', '.join(STRATEGIES)}")
    return name, (param or None)


def _int(param: str | None, default: int | None) -> int | None:
    if param is None:
        return default
    try:
        return int(param)
    except ValueError:
        raise ValueError(f"strategy parameter must be an integer, not {param!r}") from None


@register("whole_file")
def whole_file(p: Probe, t: Target, param=None) -> None:
    p.read(1, t.line_count)


@register("first_n")
def first_n(p: Probe, t: Target, param=None) -> None:
    p.read(1, min(t.line_count, _int(param, 300)))


def _expand_and_read(p: Probe, t: Target, resp, level: int | None = None) -> None:
    """From an outline answer: expand the deepest visible ancestor until the definition
    shows with its lines, then read it; when no expansion reveals it, look it up by name
    in the file (search_symbols) the way an agent would."""
    if p.has_range():                   # the answer was the file itself
        return
    for _ in range(MAX_EXPANSIONS):
        lines, depth = find_in_outline(resp.data, t)
        if lines:
            p.read_target()
            return
        if resp.error or depth == 0 or depth >= len(t.names):
            break
        resp = p.call("read_outline", path=t.path, symbol=".".join(t.names[:depth]), level=level)
        if resp.error:
            break
    search_region(p, t)


@register("outline_region")
def outline_region(p: Probe, t: Target, param=None) -> None:
    _expand_and_read(p, t, p.call("read_outline", path=t.path))


@register("outline_symbol")
def outline_symbol(p: Probe, t: Target, param=None) -> None:
    r = p.call("read_outline", path=t.path)
    if p.has_range():
        return
    lines, _depth = find_in_outline(r.data, t)
    if not lines:
        r = p.call("read_outline", path=t.path, symbol=t.dotted)
    _expand_and_read(p, t, r)


@register("hierarchical")
def hierarchical(p: Probe, t: Target, param=None) -> None:
    _expand_and_read(p, t, p.call("read_outline", path=t.path, level=1), level=2)


@register("map_region")
def map_region(p: Probe, t: Target, param=None) -> None:
    r = p.call("repo_map", budget_tokens=_int(param, None))
    shown = (r.data or {}).get("symbols", []) if isinstance(r.data, dict) else []
    if any(s.get("path") == t.path and s.get("name") == t.names[-1]
           and (s.get("lines") or [None])[0] == t.def_start for s in shown):
        p.read_target()
        return
    outline_region(p, t)


@register("resolve")
def resolve(p: Probe, t: Target, param=None) -> None:
    r = p.call("resolve_symbol", name=t.dotted, path=t.path)
    d = r.data if isinstance(r.data, dict) else {}
    if d.get("candidates"):             # several definitions of that name: ask for the right one
        r = p.call("resolve_symbol", name=t.qualname)
        d = r.data if isinstance(r.data, dict) else {}
        if d.get("candidates"):
            search_region(p, t)
            return
    if r.error:
        search_region(p, t)
        return
    if d.get("next"):                   # cut at the response cap: read the rest
        p.read(d["next"][0], d["next"][1])
    if not p.has_range() and d.get("end_line"):
        p.read_target()


@register("search_region")
def search_region(p: Probe, t: Target, param=None) -> None:
    r = p.call("search_symbols", query=t.names[-1], path=t.path)
    rows = (r.data or {}).get("symbols", []) if isinstance(r.data, dict) and not r.error else []
    if any(s.get("qualname") == t.qualname for s in rows):
        p.read_target()


@register("context_pack")
def context_pack(p: Probe, t: Target, param=None) -> None:
    r = p.call("context_pack", task="fix-bug", target=t.qualname, path=t.path,
               budget_tokens=_int(param, None))
    if isinstance(r.data, dict) and r.data.get("candidates"):
        # same-named definitions in one file (getter and setter, overloads): the answer
        # listed them with their lines; ask again for the one meant
        p.call("context_pack", task="fix-bug", target=t.qualname, path=t.path,
               budget_tokens=_int(param, None), line=t.start_line)
