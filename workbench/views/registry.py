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
from dataclasses import dataclass
from typing import Any, Callable

from . import pathsafe
from .lookup import is_dir
from .response import Response
from .rules import Rules
from .source import FileInfo, file_info, root_of
from .tokens import get_tokenizer


class ToolError(Exception):
    """Raised inside a tool: its message is the agent-facing error text."""


@dataclass
class Context:
    con: Any
    root: str
    rules: Rules
    session: Any = None

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
                            "(new files need a re-index)")
        return info


@dataclass
class Tool:
    name: str
    func: Callable
    description: str
    parameters: dict

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


def tool(description: str, props: dict, required: list[str] | None = None):
    """Register `impl(ctx, **args) -> (text, data, versions)` as an agent tool."""
    def deco(impl):
        name = impl.__name__

        def run(wb, *args, rules: Rules | None = None, session=None, **kw) -> Response:
            sig = inspect.signature(impl)
            names = [p for p in sig.parameters if p != "ctx"]
            kw.update(dict(zip(names, args)))
            return _invoke(name, impl, wb, kw, rules, session)

        run.__name__ = name
        run.__qualname__ = name
        run.__doc__ = f"{description}\n\nReturns a Response (exact text + token count)."
        run.impl = impl
        TOOLS[name] = Tool(name, run, description, _params(props, required or []))
        return run
    return deco


def _invoke(name: str, impl, wb, args: dict, rules: Rules | None, session) -> Response:
    rules = rules or (session.rules if session is not None else None) or Rules()
    tok = get_tokenizer(rules.tokenizer)
    con = getattr(wb, "con", wb)
    args = {k: v for k, v in args.items() if v is not None}
    repeat_of = None
    try:
        _check_args(name, args)
        ctx = Context(con, root_of(con), rules, session)
        out = impl(ctx, **args)
        text, data, versions = out[:3]
        repeat_of = out[3] if len(out) > 3 else None
        error = False
    except (pathsafe.PathError, ToolError) as exc:
        text, data, versions, error = str(exc), None, {}, True
    resp = Response(name, text, tok.count(text), args, tok.name, error, data, versions)
    if session is not None:
        session.record(resp, repeat_of)
    return resp


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
    for k, v in args.items():
        want = props[k].get("type")
        if want == "integer" and isinstance(v, str) and v.strip().lstrip("-").isdigit():
            args[k] = int(v)
            continue
        if want == "array" and isinstance(v, str):
            args[k] = [x.strip() for x in v.split(",") if x.strip()]
            continue
        if want and (not isinstance(v, _JSON_TYPES[want]) or (want == "integer" and isinstance(v, bool))):
            raise ToolError(f"error: {name} argument {k!r} must be {want}, got {type(v).__name__}")
        if "enum" in props[k] and v not in props[k]["enum"]:
            raise ToolError(f"error: {name} argument {k!r} must be one of {props[k]['enum']}")


def call(wb, name: str, args: dict | None = None, *, rules: Rules | None = None,
         session=None) -> Response:
    """Run tool `name` with `args` (a dict, as an agent's function call would carry)."""
    rules = rules or (session.rules if session is not None else None) or Rules()
    if name not in TOOLS:
        text = f"error: no tool {name!r}; tools: {', '.join(TOOLS)}"
        tok = get_tokenizer(rules.tokenizer)
        return Response(name, text, tok.count(text), dict(args or {}), tok.name, True)
    return TOOLS[name](wb, rules=rules, session=session, **dict(args or {}))


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


def span(a: int, b: int) -> str:
    """A line range as text: `7` or `7-12`."""
    return f"{a}" if a == b else f"{a}-{b}"
