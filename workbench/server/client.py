"""Tool calls made by a real MCP client (the SDK's own) against `workbench serve`, from
plain Python: for notebooks (which record a call log to replay) and benchmarks.

    >>> answers = run_calls(wb, [("read_outline", {"path": "shop/orders.py"})], log="calls.duckdb")
    >>> answers[0].text, answers[0].is_error

In process (the default) the client talks to the server over the SDK's in-memory
transport: the same protocol messages and the same server code as over stdio, without a
second process. `stdio=True` starts `workbench serve DB` as a child process instead.
"""
from __future__ import annotations

import sys
import threading
from dataclasses import dataclass


@dataclass
class Answer:
    tool: str
    args: dict
    text: str
    is_error: bool


async def _session(client, calls) -> list[Answer]:
    out = []
    async with client as c:
        for name, args in calls:
            r = await c.call_tool(name, dict(args))
            out.append(Answer(name, dict(args), "".join(b.text for b in r.content if b.type == "text"),
                              bool(r.is_error)))
    return out


def run_calls(db, calls, *, profile=None, log: str | None = None, stdio: bool = False,
              extra_args: tuple = ()) -> list[Answer]:
    """Make `calls` ((tool, args) pairs) in one MCP session and return the answers. `db`
    is an index file or (in process) an open Workbench; `profile` a rule profile; `log`
    a call log file the server appends to."""
    import anyio
    from mcp.client.client import Client
    served = None
    if stdio:
        from mcp.client.stdio import StdioServerParameters
        import os
        args = ["-m", "workbench.cli", "serve", str(getattr(db, "db", db)), *extra_args]
        if log:
            args += ["--log", str(log)]
        if profile is not None and getattr(profile, "source", None):
            args += ["--rules", profile.source]
        client = Client(StdioServerParameters(command=sys.executable, args=args, env=dict(os.environ)))
    else:
        from .mcp import build
        from .state import Served
        served = Served(db, profile, log, transport="in-process")
        client = Client(build(served))
    try:
        return _run(lambda: anyio.run(_session, client, calls))
    finally:
        if served is not None:
            served.close()


def _run(fn):
    """fn() here, or in a thread when this thread already runs an event loop (a notebook)."""
    import asyncio
    try:
        asyncio.get_running_loop()
    except RuntimeError:
        return fn()
    box = {}

    def target():
        try:
            box["value"] = fn()
        except BaseException as exc:       # re-raised in the caller's thread
            box["error"] = exc
    t = threading.Thread(target=target)
    t.start()
    t.join()
    if "error" in box:
        raise box["error"]
    return box["value"]
