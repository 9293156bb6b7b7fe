"""The agent-tool registry: `@tool` registers a function with its JSON schema in `TOOLS`;
`call` runs one by name with argument checking, rules and an optional session.

    >>> r = call(wb, "read_region", {"path": "shop/orders.py", "start_line": 17, "end_line": 40})
    >>> print(r.text); r.tokens
    >>> TOOLS["read_region"].schema          # function-calling shape
    >>> schemas()                            # all of them, ready for an API request

Every tool is a plain function `name(wb, **args, rules=None, session=None) -> Response`.
The modules that define tools (tools.py, repo_overview.py, repo_map.py, graph_tools.py)
import this one; `workbench.views` imports them all, so importing anything from the
package fills the registry. One schema feeds the CLI (`workbench NAME`, `workbench tool`),
the Python API (`wb.tool`), the widgets and `schemas()`.
"""
from __future__ import annotations

import inspect
import json
import re
import time
from dataclasses import dataclass, field
from typing import Any, Callable

import duckdb

from .. import rowcache, store
from . import freshness, pathsafe
from .limits import limited
from .lookup import is_dir
from .paging import Budget, cap, fit, page_note
from .response import Response
from .rules import Rules
from .source import FileInfo, file_info, root_of
from .tokens import get_tokenizer


class ToolError(Exception):
    """Raised inside a tool: its message is the agent-facing error text. `missing` names a
    repository path the index does not hold (a refresh may add it)."""

    def __init__(self, message: str, missing: str | None = None):
        super().__init__(message)
        self.missing = missing


@dataclass
class Answer:
    """What a tool implementation returns (a `(text, data, versions[, repeat_of])` tuple is
    read as one too)."""
    text: str
    data: Any = None
    versions: dict = field(default_factory=dict)   # path -> sha256 the text is based on
    repeat_of: int | None = None                   # turn whose content this answer did not resend
    files: tuple | None = None      # indexed files the text shows rows of (None: the versions' paths)
    checked: tuple = ()             # files whose freshness the text already reports itself


@dataclass
class Context:
    con: Any
    root: str
    rules: Rules
    session: Any = None
    budget: Budget | None = None    # what the answer may hold (the caps, less the registry's notes)
    tool: str = ""

    def path(self, p) -> str:
        """Checked repo-relative path (PathError -> the error response)."""
        rel, _ = pathsafe.check(self.root, p)
        return rel

    def info(self, p) -> FileInfo:
        rel = self.path(p)
        info = file_info(self.con, rel)
        if info is None:
            if is_dir(self.con, rel):
                raise ToolError(f"error: {rel!r} is a directory; give a file path "
                                "(list_files shows what it holds)")
            raise ToolError(f"error: no indexed file {rel!r}; call list_files to see what exists "
                            "(new files need a re-index)", missing=rel)
        return info

    def versions(self, paths) -> dict:
        """{path: indexed sha256} of the files an answer used (for freshness and the log)."""
        paths = sorted({p for p in paths if p})
        if not paths:
            return {}
        if rowcache.of(self.con) is not None:       # the files rows a long-lived reader holds
            return {i.path: i.sha256 for i in (file_info(self.con, p) for p in paths) if i is not None}
        return dict(store.run(self.con, "SELECT path, sha256 FROM files WHERE path IN "
                                        "(SELECT unnest(?))", [paths]))

    def fit(self, head: list[str], rows: list[str], note) -> tuple[str, int]:
        """`paging.fit` within this answer's budget."""
        return fit(head, rows, self.budget, note)

    def page(self, head: list[str], rows: list[str], total: int, offset: int, what: str,
             args: dict) -> tuple[str, int, int | None]:
        """(text, rows shown, next offset or None): `head`, then the rows of the page that
        starts at `offset` (of `total`; `rows` are the page's candidates) that fit the
        answer's caps, then the note naming the call that returns the next page."""
        if offset and offset >= total:
            return "\n".join(head + [f"[offset {offset:,} is past the end: {total:,} {what} in all]"]), 0, None

        def note(k: int) -> str | None:
            return page_note(what, offset, k, total, self.tool, args) if offset + k < total else None
        text, k = self.fit(head, rows, note)
        return text, k, (offset + k if offset + k < total else None)


@dataclass
class Tool:
    name: str
    func: Callable
    description: str
    parameters: dict
    advice: str = "ask for less"    # how to narrow the request when the final cap cuts it

    @property
    def schema(self) -> dict:
        """The tool in the function-calling shape of chat-completion APIs."""
        return {"type": "function",
                "function": {"name": self.name, "description": self.description,
                             "parameters": self.parameters}}

    def __call__(self, wb, *args, rules: Rules | None = None, session=None, **kw) -> Response:
        return self.func(wb, *args, rules=rules, session=session, **kw)


TOOLS: dict[str, Tool] = {}


def _params(props: dict, required: list[str]) -> dict:
    return {"type": "object", "properties": props, "required": required,
            "additionalProperties": False}


def tool(description: str, props: dict, required: list[str] | None = None,
         advice: str = "ask for less"):
    """Register `impl(ctx, **args) -> Answer | (text, data, versions)` as an agent tool.
    `advice` is what the note says when the final cap cuts an answer (tools that page
    themselves never get there)."""
    def deco(impl):
        name = impl.__name__

        def run(wb, *args, rules: Rules | None = None, session=None, refresh=None, **kw) -> Response:
            sig = inspect.signature(impl)
            names = [p for p in sig.parameters if p != "ctx"]
            kw.update(dict(zip(names, args)))
            return _invoke(name, impl, wb, kw, rules, session, refresh)

        run.__name__ = name
        run.__qualname__ = name
        run.__doc__ = f"{description}\n\nReturns a Response (exact text + token count)."
        run.impl = impl
        TOOLS[name] = Tool(name, run, description, _params(props, required or []), advice)
        return run
    return deco


def _answer(out) -> Answer:
    if isinstance(out, Answer):
        return out
    return Answer(out[0], out[1], out[2], out[3] if len(out) > 3 else None)


class _Clock:
    """The time a call's tool runs may still take (a refresh between runs does not count)."""

    def __init__(self, seconds: float | None):
        self.total = self.left = seconds

    def spend(self, seconds: float) -> None:
        if self.left is not None:
            self.left = max(0.0, self.left - seconds)


def _run(name: str, impl, wb, args: dict, rules: Rules, session, tok, head: list[str],
         clock: _Clock):
    """One run of a tool: (answer, stale files) with `head` lines' room kept free, its
    queries stopped when the call's time (`clock`) runs out or they need more memory than
    the rules allow."""
    con = getattr(wb, "con", wb)
    spent = "\n".join(head)
    budget = Budget(rules.max_chars, rules.max_tokens, tok)
    if head:
        budget = budget.less(len(spent) + 1, tok.count(spent) + 1)
    ctx = Context(con, getattr(wb, "root", None) or root_of(con), rules, session, budget, name)
    t0 = time.monotonic()
    lim = None
    try:
        with limited(con, clock.left, rules.tool_memory_mb) as lim:
            ans = _answer(impl(ctx, **args))
            used = ans.files if ans.files is not None else tuple(ans.versions)
            found = freshness.stale(con, ctx.root, set(used) - set(ans.checked)) if used else {}
    except duckdb.InterruptException:
        if lim is None or not lim.fired:
            raise                   # not our limit (a user's interrupt): let it through
        raise ToolError(f"error: {_shown_call(name, args)} was stopped after {clock.total:g} s, the "
                        "time limit of one tool call (rule tool_timeout); narrow the request: "
                        f"{TOOLS[name].advice}") from None
    except duckdb.OutOfMemoryException:
        limit = f"{rules.tool_memory_mb:,} MB, the memory limit of one tool call (rule tool_memory_mb)" \
            if rules.tool_memory_mb else "the memory DuckDB may use"
        raise ToolError(f"error: {_shown_call(name, args)} needed more than {limit}; narrow the "
                        f"request: {TOOLS[name].advice}") from None
    finally:
        clock.spend(time.monotonic() - t0)
    return ans, found


def _shown_call(name: str, args: dict) -> str:
    """`name(a=1, b='x')` for an error text (long values cut)."""
    def one(v) -> str:
        r = repr(v)
        return _shown(v) if isinstance(v, str) else r if len(r) <= 60 else r[:50] + " ...]"
    return f"{name}(" + ", ".join(f"{k}={one(v)}" for k, v in args.items()) + ")"


def _invoke(name: str, impl, wb, args: dict, rules: Rules | None, session, refresh=None) -> Response:
    head: list[str] = []
    if session is not None:
        switched = session.before_call()
        if switched:
            head.append(switched)
        rules = rules or session.rules
    rules = rules or Rules()
    tool_ = TOOLS[name]
    tok = get_tokenizer(rules.tokenizer)
    args = {k: v for k, v in args.items() if v is not None}
    ans, found, error, cut, why = None, {}, False, False, None
    clock = _Clock(rules.tool_timeout)
    try:
        _check_args(name, args)
        try:
            ans, found = _run(name, impl, wb, args, rules, session, tok, head, clock)
        except ToolError as exc:
            if refresh is None or exc.missing is None or refresh([exc.missing]) is not True:
                raise
            ans, found = _run(name, impl, wb, args, rules, session, tok, head, clock)
        if found and refresh is not None:
            done = refresh(sorted(found))
            if done is True:
                ans, found = _run(name, impl, wb, args, rules, session, tok, head, clock)
            elif isinstance(done, str):
                why = done
        notes = head + ([freshness.warning(found)] if found else []) + ([why] if why and found else [])
        text = "\n".join(notes + [ans.text]) if notes else ans.text
        budget = Budget(rules.max_chars, rules.max_tokens, tok)
        if notes and not budget.fits(text):         # make room for the warning and go again
            ans, _ = _run(name, impl, wb, args, rules, session, tok, notes, clock)
            text = "\n".join(notes + [ans.text])
        text, cut = cap(text, budget, tool_.advice)
        data, versions, repeat_of = ans.data, ans.versions, ans.repeat_of
        files = list(ans.files if ans.files is not None else ans.versions)
        if not versions and files:
            versions = Context(getattr(wb, "con", wb), "", rules).versions(files)
    except (pathsafe.PathError, ToolError) as exc:
        text, data, versions, repeat_of, error, files = str(exc), None, {}, None, True, []
        if head:
            text = "\n".join(head + [text])
    resp = Response(name, text, tok.count(text), args, tok.name, error, data, versions,
                    files=files, stale=sorted(found), cut=cut or _paged(data))
    if session is not None:
        session.record(resp, repeat_of)
    return resp


def _paged(data) -> bool:
    """Did the tool leave rows for a next page (its data says where it continues)?"""
    return isinstance(data, dict) and (data.get("next_offset") is not None or data.get("next") is not None)


_JSON_TYPES = {"string": str, "integer": int, "array": list, "number": (int, float),
               "boolean": bool}


def _check_args(name: str, args: dict) -> None:
    t = TOOLS[name]
    props = t.parameters["properties"]
    unknown = [k for k in args if k not in props]
    if unknown:
        raise ToolError(f"error: {name} has no argument {', '.join(map(repr, unknown))}; "
                        f"arguments: {', '.join(props) or 'none'}")
    missing = [k for k in t.parameters["required"] if k not in args]
    if missing:
        extra = " (the range is required: read the outline first to find it)" \
            if name == "read_region" else ""
        raise ToolError(f"error: {name} needs {', '.join(missing)}{extra}")
    for k, v in list(args.items()):
        spec = props[k]
        want = spec.get("type")
        if want == "integer" and isinstance(v, str):            # CLI text: ASCII digits only
            if not _INT_TEXT.fullmatch(v.strip()):
                raise ToolError(f"error: {name} argument {k!r} must be integer, got "
                                f"{_shown(v)}")
            args[k] = v = int(v.strip())
        elif want == "array" and isinstance(v, str):
            _check_text(name, k, v)
            args[k] = v = [x.strip() for x in v.split(",") if x.strip()]
        if want and (not isinstance(v, _JSON_TYPES[want]) or (want == "integer" and isinstance(v, bool))):
            raise ToolError(f"error: {name} argument {k!r} must be {want}, got {type(v).__name__}")
        if want == "integer" and not -MAX_INT <= v <= MAX_INT:
            raise ToolError(f"error: {name} argument {k!r} is out of range ({_shown(str(v))}); "
                            f"give a number between -{MAX_INT} and {MAX_INT}")
        if isinstance(v, str):
            _check_text(name, k, v)
        if want == "array":
            _check_items(name, k, v, spec.get("items", {}).get("type"))
        if "enum" in spec and v not in spec["enum"]:
            raise ToolError(f"error: {name} argument {k!r} must be one of {spec['enum']}")


# Bounds of one argument: a request larger than these is an error, not a runaway query.
MAX_TEXT = 4096          # characters of a string (a path, a name, a search text)
MAX_ITEMS = 1000         # entries of an array (paths, focus)
MAX_INT = 2 ** 31 - 1    # integers (line numbers, depths, budgets)
_INT_TEXT = re.compile(r"[+-]?[0-9]{1,10}")


def _shown(v: str) -> str:
    """A value for an error text: repr (escapes line breaks and undecodable bytes), cut."""
    r = repr(v)
    return r if len(r) <= 60 else r[:50] + f"...' ({len(v):,} characters)"


def _check_text(name: str, k: str, v: str) -> None:
    try:
        v.encode("utf-8")
    except UnicodeEncodeError:
        raise ToolError(f"error: {name} argument {k!r} is not valid text (it holds bytes that are "
                        f"not UTF-8: {_shown(v)}); send UTF-8 text") from None
    if len(v) > MAX_TEXT:
        raise ToolError(f"error: {name} argument {k!r} is {len(v):,} characters long; at most "
                        f"{MAX_TEXT:,} are accepted")


def _check_items(name: str, k: str, v: list, item_type: str | None) -> None:
    if len(v) > MAX_ITEMS:
        raise ToolError(f"error: {name} argument {k!r} has {len(v):,} entries; at most "
                        f"{MAX_ITEMS:,} are accepted")
    for x in v:
        if item_type and (not isinstance(x, _JSON_TYPES[item_type])
                          or (item_type == "integer" and isinstance(x, bool))):
            raise ToolError(f"error: {name} argument {k!r} must be a list of {item_type}s, got "
                            f"{type(x).__name__} {_shown(repr(x))}")
        if isinstance(x, str):
            _check_text(name, k, x)


def typed_args(name: str, args: dict) -> dict:
    """`args` converted to the types of tool `name`'s schema (`"40"` -> 40, `"a,b"` ->
    ["a", "b"]), as an agent's function call would carry them; unchanged when they do not
    fit the schema (the call then answers with the error)."""
    out = {k: v for k, v in args.items() if v is not None}
    try:
        _check_args(name, out)
    except (ToolError, KeyError):
        return dict(args)
    return out


def call(wb, name: str, args: dict | None = None, *, rules: Rules | None = None,
         session=None, refresh=None) -> Response:
    """Run tool `name` with `args` (a dict, as an agent's function call would carry).

    Without `rules` a session's current rules apply (its compact rules once past
    `compress_at`), else the defaults. `refresh(paths)`, when given, is called with the
    files an answer found changed on disk (or a path the index lacks); when it returns
    True (it re-indexed them) the answer is made again from the new rows; a text it
    returns instead (why it could not) is added to the answer's warning."""
    if name not in TOOLS:
        rules = rules or (session.rules if session is not None else None) or Rules()
        text = f"error: no tool {name!r}; tools: {', '.join(TOOLS)}"
        tok = get_tokenizer(rules.tokenizer)
        return Response(name, text, tok.count(text), dict(args or {}), tok.name, True)
    return TOOLS[name](wb, rules=rules, session=session, refresh=refresh, **dict(args or {}))


def parse_tool_args(items: list[str]) -> dict:
    """`name=value` strings -> tool arguments (a value starting with `[` or `{` is JSON; the
    rest stay strings, which `call` converts to the schema's integers and arrays)."""
    args = {}
    for item in items:
        if "=" not in item:
            raise ValueError(f"expected name=value, got {item!r}")
        k, v = item.split("=", 1)
        v = v.strip()
        if v[:1] in "[{":
            try:
                v = json.loads(v)
            except json.JSONDecodeError:
                pass
        args[k.strip()] = v
    return args


def schemas() -> list[dict]:
    """Every tool's schema, in function-calling shape."""
    return [t.schema for t in TOOLS.values()]


def offset_arg(offset) -> int:
    """A paging argument: 0 when absent, an error text when negative."""
    if offset is None:
        return 0
    if offset < 0:
        raise ToolError(f"error: offset must be 0 or more, not {offset}")
    return offset


def span(a: int, b: int) -> str:
    """A line range as text: `7` or `7-12`."""
    return f"{a}" if a == b else f"{a}-{b}"
