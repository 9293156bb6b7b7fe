"""`workbench serve`: the agent tools over MCP (Model Context Protocol), so a real agent
receives exactly what the notebooks and `workbench tool` preview.

    workbench serve DB [--rules FILE] [--transport stdio|http] [--host 127.0.0.1]
                       [--port N] [--log FILE] [--refresh]

`state.Served` answers calls (a session per client, the rule profile, the call log, the
refresh); `mcp.py` puts it on the official `mcp` SDK. docs/mcp.md says how to connect
clients.
"""
from __future__ import annotations

import ipaddress

from .state import Served

LOOPBACK = ("127.0.0.1", "localhost", "::1")


def is_loopback(host: str) -> bool:
    if host in LOOPBACK:
        return True
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        return False


def serve(db: str, profile=None, transport: str = "stdio", host: str = "127.0.0.1",
          port: int = 8765, log: str | None = None, refresh: bool = False, say=None) -> None:
    """Serve the index `db` until the client leaves (stdio) or the process is stopped (http)."""
    from . import mcp
    served = Served(db, profile, log, refresh, **({"say": say} if say else {}))
    say = served.say
    try:
        if transport == "stdio":
            _exit_on_sigterm()          # a client that stops us: still flush the call log
            mcp.run_stdio(served)
        elif transport == "http":
            if not is_loopback(host):
                say(f"binding to {host}: anyone who can reach this address can read the indexed "
                    "repository through the tools (no authentication)")
            mcp.run_http(served, host, port, say)
        else:
            raise ValueError(f"unknown transport {transport!r}; stdio or http")
    finally:
        served.close()


def _stop(signum, frame):
    raise SystemExit(0)


def _exit_on_sigterm() -> None:
    import signal
    import threading
    if threading.current_thread() is threading.main_thread():
        signal.signal(signal.SIGTERM, _stop)


__all__ = ["serve", "Served"]
