"""The MCP glue: every tool of the registry as an MCP tool (its JSON schema and
description), answered by `Served.call`, over stdio or streamable HTTP, on the official
`mcp` Python SDK (its low-level `Server`, which takes the registry's schemas as they are).

A client's session is its MCP connection: the stdio process (one client), or the
`Mcp-Session-Id` a streamable-HTTP connection gets at its handshake. Requests of the
2026-07-28 protocol era are self-contained (no handshake, no session id): they share the
session named by a `Workbench-Session` header when the client sends one, else the session
of their client's name and version.
"""
from __future__ import annotations

import socket

import anyio
import mcp_types as types
from mcp.server.lowlevel import Server

from .. import __version__
from ..views import TOOLS
from .state import Served

INSTRUCTIONS = """Tools over an index of one repository (tree-sitter symbols, a call graph).
Start with repo_overview or list_files; read an outline (read_outline, file_index) before
reading code, then read_region exactly the lines you need. Every answer is capped: when
one ends with a note such as [... next page: find_callers(symbol="x", offset=40)], make
that call for the rest. A warning that a file changed on disk means line numbers from it
may be stale."""

# hints for clients: the tools read, never write; a session may answer a repeat differently
ANNOTATIONS = types.ToolAnnotations(read_only_hint=True, destructive_hint=False,
                                    idempotent_hint=False, open_world_hint=False)


def session_key(ctx, local: str = "stdio") -> tuple[str, str | None, str]:
    """(session key, client name, transport) of a request (`local`: the transport of a
    request that did not come over HTTP)."""
    params = ctx.session.client_params
    info = params.client_info if params is not None else None
    client = f"{info.name} {info.version}".strip() if info is not None else None
    req = ctx.request
    if req is None:
        return local, client, local
    sid = req.headers.get("mcp-session-id")
    if sid:
        return f"http:{sid}", client, "http"
    named = req.headers.get("workbench-session")
    if named:
        return f"http:named:{named}", client, "http"
    host = req.client.host if req.client is not None else ""
    return f"http:client:{client or 'anonymous'}@{host}", client, "http"


def build(served: Served) -> Server:
    """The MCP server of `served`."""
    tools = [types.Tool(name=t.name, description=t.description, input_schema=t.parameters,
                        annotations=ANNOTATIONS) for t in TOOLS.values()]
    one_at_a_time = anyio.CapacityLimiter(1)      # one DuckDB connection: calls take turns

    async def list_tools(ctx, params) -> types.ListToolsResult:
        return types.ListToolsResult(tools=tools)

    async def call_tool(ctx, params: types.CallToolRequestParams) -> types.CallToolResult:
        key, client, transport = session_key(ctx, served.transport)
        resp = await anyio.to_thread.run_sync(served.call, params.name, params.arguments, key,
                                              client, transport, limiter=one_at_a_time)
        return types.CallToolResult(content=[types.TextContent(text=resp.text)], is_error=resp.error)

    return Server("context-workbench", version=__version__, title="Context Workbench",
                  instructions=INSTRUCTIONS, on_list_tools=list_tools, on_call_tool=call_tool)


def run_stdio(served: Served) -> None:
    from mcp.server.stdio import stdio_server
    server = build(served)

    async def main():
        async with stdio_server() as (read, write):
            await server.run(read, write, server.create_initialization_options())
    anyio.run(main)


def bind(host: str, port: int) -> socket.socket:
    """A listening socket on host:port (port 0: a free one)."""
    family, kind, proto, _, addr = socket.getaddrinfo(host, port, type=socket.SOCK_STREAM)[0]
    sock = socket.socket(family, kind, proto)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    sock.bind(addr)
    sock.listen(128)
    sock.set_inheritable(True)
    return sock


def run_http(served: Served, host: str, port: int, say) -> None:
    import uvicorn
    server = build(served)
    app = server.streamable_http_app(host=host)   # loopback: DNS-rebinding protection on
    sock = bind(host, port)
    bound = sock.getsockname()[1]
    shown = f"[{host}]" if ":" in host else host
    say(f"listening on http://{shown}:{bound}/mcp (streamable HTTP; Ctrl-C stops)")
    uvicorn.Server(uvicorn.Config(app, log_level="warning", lifespan="on")).run(sockets=[sock])
