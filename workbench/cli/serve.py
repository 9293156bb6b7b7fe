"""`workbench serve DB`: the agent tools over MCP (see workbench/server and docs/mcp.md)."""
from __future__ import annotations

from .common import DB_HELP, add_command, fail, profile_of


def cmd_serve(a) -> int:
    import os
    from ..locations import db_for
    db = db_for(a.db)
    if not os.path.exists(db):
        hint = f"`workbench index {a.db}`" if db != a.db else f"`workbench index ROOT --db {a.db}`"
        return fail("serve", f"no workbench database at {db!r}; run {hint} first")
    try:
        profile = profile_of(a)
    except (ValueError, TypeError) as exc:
        return fail("serve", str(exc))
    from ..server import serve
    try:
        serve(db, profile, a.transport, a.host, a.port, a.log, a.refresh)
    except OSError as exc:             # the port is taken, the log cannot be written...
        return fail("serve", str(exc))
    except KeyboardInterrupt:
        pass
    return 0


def add_parsers(sub) -> None:
    s = add_command(sub, "serve", "serve the agent tools over MCP (stdio or streamable HTTP)",
                    description="Serve every agent tool over MCP: each answer is exactly what "
                                "`workbench tool DB NAME ...` prints with the same rules.",
                    examples=("serve pyshop.duckdb",
                              "serve pyshop.duckdb --rules lean.toml --log calls.duckdb",
                              "serve pyshop.duckdb --transport http --port 0"))
    s.add_argument("db", help=DB_HELP)
    s.add_argument("--rules", metavar="FILE", help="rule profile file (TOML); default: the default rules")
    s.add_argument("--rule", action="append", metavar="NAME=VALUE", help="any Rules field (repeatable)")
    s.add_argument("--transport", choices=("stdio", "http"), default="stdio",
                   help="stdio (default: the client starts the server) or streamable HTTP")
    s.add_argument("--host", default="127.0.0.1", help="HTTP address (default 127.0.0.1, loopback only)")
    s.add_argument("--port", type=int, default=8765, help="HTTP port (default 8765; 0: a free one, printed)")
    s.add_argument("--log", metavar="FILE", help="append every call to the table `calls` of this "
                                                 "DuckDB file, not the index (default: no log)")
    s.add_argument("--refresh", action="store_true",
                   help="re-index files an answer finds changed on disk before answering (default: "
                        "answer from the index and name the changed files)")
    s.set_defaults(func=cmd_serve)
