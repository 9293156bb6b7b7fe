"""`workbench serve DB`: the agent tools over MCP (see workbench/server and docs/mcp.md)."""
from __future__ import annotations

from .common import fail, profile_of


def cmd_serve(a) -> int:
    import os
    if not os.path.exists(a.db):
        return fail("serve", f"no workbench database at {a.db!r}; run `workbench index ROOT --db {a.db}` first")
    try:
        profile = profile_of(a)
    except (ValueError, TypeError) as exc:
        return fail("serve", str(exc))
    from ..server import serve
    try:
        serve(a.db, profile, a.transport, a.host, a.port, a.log, a.refresh)
    except OSError as exc:             # the port is taken, the log cannot be written...
        return fail("serve", str(exc))
    except KeyboardInterrupt:
        pass
    return 0


def add_parsers(sub) -> None:
    s = sub.add_parser("serve", help="serve the agent tools over MCP (stdio or streamable HTTP)",
                       description="Serve every agent tool over MCP: each answer is exactly what "
                                   "`workbench tool DB NAME ...` prints with the same rules.")
    s.add_argument("db")
    s.add_argument("--rules", metavar="FILE", help="rule profile file (TOML); default: the default rules")
    s.add_argument("--rule", action="append", metavar="NAME=VALUE", help="any Rules field (repeatable)")
    s.add_argument("--transport", choices=("stdio", "http"), default="stdio",
                   help="stdio (default: the client starts the server) or streamable HTTP")
    s.add_argument("--host", default="127.0.0.1", help="HTTP address (default 127.0.0.1, loopback only)")
    s.add_argument("--port", type=int, default=8765, help="HTTP port (default 8765; 0: a free one, printed)")
    s.add_argument("--log", metavar="FILE", help="append every call to the table `calls` of this "
                                                 "DuckDB file (not the index)")
    s.add_argument("--refresh", action="store_true",
                   help="re-index files an answer finds changed on disk before answering")
    s.set_defaults(func=cmd_serve)
