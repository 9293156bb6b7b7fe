"""DuckDB schema and bulk writes. The database is the API: see docs/schema.md."""
from __future__ import annotations

import json
import time

import duckdb
import pyarrow as pa

SCHEMA_VERSION = 1

DDL = """
CREATE TABLE IF NOT EXISTS meta (key VARCHAR PRIMARY KEY, value VARCHAR);
CREATE TABLE IF NOT EXISTS files (
    file_id BIGINT NOT NULL,
    path VARCHAR NOT NULL,
    language VARCHAR,
    size_bytes BIGINT,
    line_count BIGINT,
    sha256 VARCHAR,
    mtime DOUBLE,
    status VARCHAR NOT NULL,          -- ok | partial | failed | skipped
    error_count INTEGER,
    skip_reason VARCHAR,
    encoding VARCHAR,
    message VARCHAR,
    module VARCHAR
);
CREATE TABLE IF NOT EXISTS symbols (
    symbol_id BIGINT NOT NULL,
    file_id BIGINT NOT NULL,
    path VARCHAR NOT NULL,
    language VARCHAR,
    kind VARCHAR NOT NULL,
    name VARCHAR NOT NULL,
    qualname VARCHAR NOT NULL,
    parent_id BIGINT,
    start_line INTEGER NOT NULL,
    end_line INTEGER NOT NULL,
    start_byte BIGINT,
    end_byte BIGINT,
    signature VARCHAR,
    doc VARCHAR,
    decorators VARCHAR[],
    visibility VARCHAR,
    is_truncated BOOLEAN,
    is_declaration BOOLEAN,
    body_start_line INTEGER
);
CREATE TABLE IF NOT EXISTS edges (
    edge_id BIGINT NOT NULL,
    src_id BIGINT NOT NULL,
    kind VARCHAR NOT NULL,            -- contains | calls | imports | inherits | implements
    dst_name VARCHAR,
    dst_id BIGINT,
    dst_qualname VARCHAR,
    path VARCHAR NOT NULL,            -- the source file of the edge
    line INTEGER,
    resolution VARCHAR,
    candidates VARCHAR[]
);
CREATE TABLE IF NOT EXISTS imports (
    file_id BIGINT NOT NULL,
    path VARCHAR NOT NULL,
    src_id BIGINT,
    module VARCHAR,
    name VARCHAR,
    alias VARCHAR,
    line INTEGER,
    resolved_path VARCHAR
);
CREATE TABLE IF NOT EXISTS bindings (  -- call-graph facts for workbench/resolve/ (docs/schema.md)
    file_id BIGINT NOT NULL,
    path VARCHAR NOT NULL,
    src_id BIGINT,                    -- enclosing symbol
    kind VARCHAR NOT NULL,            -- assign | element | iter | with | return | yield | arg | export ...
    name VARCHAR,                     -- the name bound; `callee#slot` for kind = 'arg'
    value VARCHAR,                    -- the value expression as written
    value_type VARCHAR,               -- its tree-sitter node type
    value_id BIGINT,                  -- the symbol the value defines (a lambda), if any
    line INTEGER
);
CREATE TABLE IF NOT EXISTS resolve_deps (  -- what resolving each file read (workbench/resolve/deps.py)
    path VARCHAR NOT NULL,
    files VARCHAR[],                  -- files whose rows its evaluation read
    names VARCHAR[],                  -- name tokens it looked up (`a:NAME`, `b:FAMILY:NAME`, ...)
    provides VARCHAR[]                -- name tokens its own rows put into those indexes
);
CREATE TABLE IF NOT EXISTS call_candidates (  -- edges.candidates unnested, kept by workbench/resolve/
    edge_id BIGINT NOT NULL,
    qualname VARCHAR NOT NULL,
    symbol_id BIGINT                  -- the candidate's symbol when it is in the repository
);
"""

FILE_COLS = ("file_id", "path", "language", "size_bytes", "line_count", "sha256", "mtime",
             "status", "error_count", "skip_reason", "encoding", "message", "module")
SYMBOL_COLS = ("symbol_id", "file_id", "path", "language", "kind", "name", "qualname", "parent_id",
               "start_line", "end_line", "start_byte", "end_byte", "signature", "doc", "decorators",
               "visibility", "is_truncated", "is_declaration", "body_start_line")
EDGE_COLS = ("edge_id", "src_id", "kind", "dst_name", "dst_id", "dst_qualname", "path", "line",
             "resolution", "candidates")
IMPORT_COLS = ("file_id", "path", "src_id", "module", "name", "alias", "line", "resolved_path")
BINDING_COLS = ("file_id", "path", "src_id", "kind", "name", "value", "value_type", "value_id", "line")

_TYPES = {
    "files": pa.schema([("file_id", pa.int64()), ("path", pa.string()), ("language", pa.string()),
                        ("size_bytes", pa.int64()), ("line_count", pa.int64()), ("sha256", pa.string()),
                        ("mtime", pa.float64()), ("status", pa.string()), ("error_count", pa.int32()),
                        ("skip_reason", pa.string()), ("encoding", pa.string()), ("message", pa.string()),
                        ("module", pa.string())]),
    "symbols": pa.schema([("symbol_id", pa.int64()), ("file_id", pa.int64()), ("path", pa.string()),
                          ("language", pa.string()), ("kind", pa.string()), ("name", pa.string()),
                          ("qualname", pa.string()), ("parent_id", pa.int64()), ("start_line", pa.int32()),
                          ("end_line", pa.int32()), ("start_byte", pa.int64()), ("end_byte", pa.int64()),
                          ("signature", pa.string()), ("doc", pa.string()),
                          ("decorators", pa.list_(pa.string())), ("visibility", pa.string()),
                          ("is_truncated", pa.bool_()), ("is_declaration", pa.bool_()),
                          ("body_start_line", pa.int32())]),
    "edges": pa.schema([("edge_id", pa.int64()), ("src_id", pa.int64()), ("kind", pa.string()),
                        ("dst_name", pa.string()), ("dst_id", pa.int64()), ("dst_qualname", pa.string()),
                        ("path", pa.string()), ("line", pa.int32()), ("resolution", pa.string()),
                        ("candidates", pa.list_(pa.string()))]),
    "imports": pa.schema([("file_id", pa.int64()), ("path", pa.string()), ("src_id", pa.int64()),
                          ("module", pa.string()), ("name", pa.string()), ("alias", pa.string()),
                          ("line", pa.int32()), ("resolved_path", pa.string())]),
    "bindings": pa.schema([("file_id", pa.int64()), ("path", pa.string()), ("src_id", pa.int64()),
                           ("kind", pa.string()), ("name", pa.string()), ("value", pa.string()),
                           ("value_type", pa.string()), ("value_id", pa.int64()), ("line", pa.int32())]),
    "resolve_deps": pa.schema([("path", pa.string()), ("files", pa.list_(pa.string())),
                               ("names", pa.list_(pa.string())), ("provides", pa.list_(pa.string()))]),
}


def run(con, sql: str, params=None) -> list:
    """Execute a statement and fetch its result completely (DuckDB 2 refuses new work on a
    connection with an unfinished result)."""
    return con.execute(sql, params).fetchall() if params is not None else con.execute(sql).fetchall()


def one(con, sql: str, params=None):
    """The first row of a query (the rest fetched too, so the connection stays usable)."""
    rows = run(con, sql, params)
    return rows[0] if rows else None


def connect(db: str, read_only: bool = False) -> duckdb.DuckDBPyConnection:
    con = duckdb.connect(db, read_only=read_only)
    if not read_only:
        run(con, DDL)
    try:                                # call-graph view and macros (workbench/graph.py)
        from .graph import install_sql
        install_sql(con, persistent=not read_only)
    except duckdb.Error:
        pass                            # a database without the tables yet
    return con


def set_meta(con, **values) -> None:
    for k, v in values.items():
        run(con, "INSERT OR REPLACE INTO meta VALUES (?, ?)",
            [k, v if isinstance(v, str) else json.dumps(v)])


def get_meta(con, key: str, default=None):
    row = one(con, "SELECT value FROM meta WHERE key = ?", [key])
    return row[0] if row else default


def next_id(con, table: str, col: str) -> int:
    return one(con, f"SELECT coalesce(max({col}), 0) + 1 FROM {table}")[0]


def insert_columns(con, table: str, columns: dict[str, list]) -> int:
    """Bulk insert columnar data (one Arrow table, one INSERT ... SELECT)."""
    schema = _TYPES[table]
    n = len(next(iter(columns.values()))) if columns else 0
    if n == 0:
        return 0
    arrays = [c if isinstance(c := columns[f.name], (pa.Array, pa.ChunkedArray)) and c.type == f.type
              else pa.array(c, type=f.type) for f in schema]
    tbl = pa.Table.from_arrays(arrays, schema=schema)
    name = f"_incoming_{table}_{time.monotonic_ns()}"
    con.register(name, tbl)
    try:
        cols = ", ".join(schema.names)
        run(con, f"INSERT INTO {table} ({cols}) SELECT {cols} FROM {name}")
    finally:
        con.unregister(name)
    return n
