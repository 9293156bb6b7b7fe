"""The database schema, declared once: each table's columns with their types, from which
the DDL, the Arrow schemas of bulk inserts and the column lists are derived; plus the
call-graph SQL (a view and table macros) every connection gets. See docs/schema.md.

This module sits at the bottom of the package: it imports nothing from workbench.
"""
from __future__ import annotations

import hashlib
import re
from dataclasses import dataclass

import pyarrow as pa

SCHEMA_VERSION = 1


@dataclass(frozen=True)
class Column:
    name: str
    type: str                 # DuckDB type
    not_null: bool = False
    note: str = ""            # a short comment in the DDL (docs/schema.md has the meaning)


def _cols(*specs) -> tuple[Column, ...]:
    return tuple(Column(*s) if isinstance(s, tuple) else Column(s, "VARCHAR") for s in specs)


TABLES: dict[str, tuple[Column, ...]] = {
    "meta": _cols(("key", "VARCHAR", True), "value"),
    "files": _cols(
        ("file_id", "BIGINT", True), ("path", "VARCHAR", True), "language",
        ("size_bytes", "BIGINT"), ("line_count", "BIGINT"), "sha256", ("mtime", "DOUBLE"),
        ("status", "VARCHAR", True, "ok | partial | failed | skipped"),
        ("error_count", "INTEGER"), "skip_reason", "encoding", "message", "module"),
    "symbols": _cols(
        ("symbol_id", "BIGINT", True), ("file_id", "BIGINT", True), ("path", "VARCHAR", True),
        "language", ("kind", "VARCHAR", True), ("name", "VARCHAR", True),
        ("qualname", "VARCHAR", True), ("parent_id", "BIGINT"), ("start_line", "INTEGER", True),
        ("end_line", "INTEGER", True), ("start_byte", "BIGINT"), ("end_byte", "BIGINT"),
        "signature", "doc", ("decorators", "VARCHAR[]"), "visibility", ("is_truncated", "BOOLEAN"),
        ("is_declaration", "BOOLEAN"), ("body_start_line", "INTEGER")),
    "edges": _cols(
        ("edge_id", "BIGINT", True), ("src_id", "BIGINT", True),
        ("kind", "VARCHAR", True, "contains | calls | imports | inherits | implements"),
        "dst_name", ("dst_id", "BIGINT"), "dst_qualname",
        ("path", "VARCHAR", True, "the source file of the edge"), ("line", "INTEGER"),
        "resolution", ("candidates", "VARCHAR[]")),
    "imports": _cols(
        ("file_id", "BIGINT", True), ("path", "VARCHAR", True), ("src_id", "BIGINT"), "module",
        "name", "alias", ("line", "INTEGER"), "resolved_path"),
    "bindings": _cols(       # call-graph facts for the resolver
        ("file_id", "BIGINT", True), ("path", "VARCHAR", True),
        ("src_id", "BIGINT", False, "enclosing symbol"),
        ("kind", "VARCHAR", True, "assign | element | iter | with | return | yield | arg | export ..."),
        ("name", "VARCHAR", False, "the name bound; callee#slot for kind = 'arg'"),
        ("value", "VARCHAR", False, "the value expression as written"),
        ("value_type", "VARCHAR", False, "its tree-sitter node type"),
        ("value_id", "BIGINT", False, "the symbol the value defines (a lambda), if any"),
        ("line", "INTEGER")),
    "resolve_deps": _cols(   # what resolving each file read, for incremental runs
        ("path", "VARCHAR", True),
        ("files", "VARCHAR[]", False, "files whose rows its evaluation read"),
        ("names", "VARCHAR[]", False, "name tokens it looked up (a:NAME, b:FAMILY:NAME, ...)"),
        ("provides", "VARCHAR[]", False, "name tokens its own rows put into those indexes")),
    "call_candidates": _cols(  # edges.candidates unnested, kept by the resolver
        ("edge_id", "BIGINT", True), ("qualname", "VARCHAR", True),
        ("symbol_id", "BIGINT", False, "the candidate's symbol when it is in the repository")),
    # ---- task sets and their evaluation (`workbench tasks`, `workbench eval`; docs/eval.md)
    "tasks": _cols(
        ("task_id", "BIGINT", True), ("task_set", "VARCHAR", True),
        ("source", "VARCHAR", True, "git | symbols | log"), "origin",
        ("change", "VARCHAR", True, "modified | added | deleted | named | read"),
        ("path", "VARCHAR", True), "language", "kind", "name", "qualname", "parent_qualname",
        ("start_line", "INTEGER", False, "the range to reach, in the indexed revision"),
        ("end_line", "INTEGER"), "anchor", "new_path", ("new_start_line", "INTEGER"),
        ("new_end_line", "INTEGER"), "from_rev", "to_rev", "note"),
    "eval_runs": _cols(
        ("run_id", "BIGINT", True), ("rules", "VARCHAR", True), "settings", "strategies",
        ("tasks", "BIGINT"), "created", ("seconds", "DOUBLE")),
    "eval_results": _cols(
        ("run_id", "BIGINT", True), ("task_id", "BIGINT", True), "task_set",
        ("strategy", "VARCHAR", True), ("rules", "VARCHAR", True), "path", "qualname", "change",
        ("outcome", "VARCHAR", True, "hit | cut | miss | n/a"), ("tokens", "BIGINT"),
        ("calls", "INTEGER"), ("covered_lines", "INTEGER"), ("target_lines", "INTEGER"),
        ("file_tokens", "BIGINT"), ("share", "DOUBLE"), ("cost", "DOUBLE"), "model", "note"),
    "eval_calls": _cols(
        ("run_id", "BIGINT", True), ("task_id", "BIGINT", True), ("strategy", "VARCHAR", True),
        ("rules", "VARCHAR", True), ("step", "INTEGER", True), ("tool", "VARCHAR", True), "args",
        ("tokens", "BIGINT"), ("chars", "BIGINT"), ("error", "BOOLEAN"),
        ("start_line", "INTEGER"), ("end_line", "INTEGER")),
}
PRIMARY_KEYS = {"meta": "key"}

# The call log of `workbench serve --log FILE`: a database file of its own, never the index.
LOG_TABLES: dict[str, tuple[Column, ...]] = {
    "calls": _cols(
        ("time", "TIMESTAMP", True, "UTC, when the answer was sent"),
        ("session", "VARCHAR", True, "the client session the call belongs to"),
        ("client", "VARCHAR", False, "client name/version as it introduced itself"),
        ("transport", "VARCHAR", False, "stdio | http"),
        ("turn", "INTEGER", True, "1, 2, ... within the session"),
        ("tool", "VARCHAR", True), ("arguments", "VARCHAR", False, "JSON object, as received"),
        ("chars", "INTEGER", True), ("tokens", "INTEGER", True),
        ("cumulative_tokens", "INTEGER", False, "the session's total after this answer"),
        ("files", "VARCHAR[]", False, "indexed files the answer used"),
        ("source_versions", "VARCHAR", False, "JSON object: path -> sha256 the answer is based on"),
        ("elapsed_ms", "DOUBLE", True), ("cut", "BOOLEAN", True, "the answer holds part of the result"),
        ("stale", "BOOLEAN", True, "it used files changed on disk since indexing"),
        ("stale_files", "VARCHAR[]"), ("refreshed", "BOOLEAN", False, "the index was refreshed first"),
        ("error", "BOOLEAN", True), ("repeat_of", "INTEGER", False, "turn whose content was not resent"),
        ("compact", "BOOLEAN", False, "answered under the session's compact rules"),
        ("rules", "VARCHAR", False, "the rule profile file, or 'defaults'"),
        ("db", "VARCHAR", False, "the index answered from"),
        ("answer", "VARCHAR", False, "the exact text sent")),
}

_ARROW = {"BIGINT": pa.int64(), "INTEGER": pa.int32(), "VARCHAR": pa.string(),
          "DOUBLE": pa.float64(), "BOOLEAN": pa.bool_(), "VARCHAR[]": pa.list_(pa.string()),
          "TIMESTAMP": pa.timestamp("us")}


def _table(table: str) -> tuple[Column, ...]:
    return TABLES[table] if table in TABLES else LOG_TABLES[table]


def columns(table: str) -> tuple[str, ...]:
    """Column names of a table, in order."""
    return tuple(c.name for c in _table(table))


def arrow_schema(table: str) -> pa.Schema:
    """The Arrow schema bulk inserts into `table` use."""
    return pa.schema([(c.name, _ARROW[c.type]) for c in _table(table)])


def create_sql(table: str, name: str | None = None) -> str:
    """The CREATE TABLE statement of `table`, or of a table `name` with its columns."""
    cols = _table(table)
    lines = []
    for i, c in enumerate(cols):
        pk = " PRIMARY KEY" if PRIMARY_KEYS.get(table) == c.name else ""
        nn = " NOT NULL" if c.not_null and not pk else ""
        comma = "," if i < len(cols) - 1 else ""
        note = f"  -- {c.note}" if c.note else ""
        lines.append(f"    {c.name} {c.type}{pk}{nn}{comma}{note}")
    return f"CREATE TABLE IF NOT EXISTS {name or table} (\n" + "\n".join(lines) + "\n);"


DDL = "\n".join(create_sql(t) for t in TABLES)
LOG_DDL = "\n".join(create_sql(t) for t in LOG_TABLES)


# ---------------------------------------------------------------- call-graph SQL
# The SQL twins of `workbench.graph` (same names as the Python functions, the agent tools
# and the CLI commands). Stored in a writable database, temporary on a read-only one.
#
# One text serves a database and a corpus (many repositories in one set of views, each
# row with its `repo`; ids are unique only within a repository). The comments
# `/*repo*/`, `/*repo X*/` and `/*same X Y*/` become `repo, `, `X.repo, ` and
# ` AND X.repo = Y.repo` over a corpus, and nothing over a database.

_SQL_MACROS = """
CREATE OR REPLACE TEMP VIEW call_edges AS
    SELECT /*repo e*/e.edge_id, e.src_id, s.qualname AS caller, e.dst_id,
           coalesce(d.qualname, e.dst_qualname) AS callee, e.dst_name AS as_written,
           e.path, e.line, e.resolution, e.candidates
    FROM edges e JOIN symbols s ON s.symbol_id = e.src_id/*same s e*/
    LEFT JOIN symbols d ON d.symbol_id = e.dst_id/*same d e*/
    WHERE e.kind = 'calls';
CREATE OR REPLACE TEMP MACRO find_definition(q) AS TABLE
    SELECT /*repo*/symbol_id, qualname, kind, path, start_line, end_line, signature
    FROM symbols
    WHERE kind <> 'module' AND (qualname = q OR ends_with(qualname, '.' || q) OR name = q)
    ORDER BY /*repo*/CASE WHEN qualname = q THEN 0 WHEN ends_with(qualname, '.' || q) THEN 1 ELSE 2 END, qualname;
CREATE OR REPLACE TEMP MACRO find_callers(q) AS TABLE
    SELECT /*repo e*/s.qualname AS caller, e.path, e.line, e.dst_name AS as_written, e.resolution,
           t.qualname AS callee
    FROM edges e
    JOIN symbols s ON s.symbol_id = e.src_id/*same s e*/
    JOIN symbols t ON t.qualname = q/*same t e*/ AND (e.dst_id = t.symbol_id OR list_contains(e.candidates, t.qualname))
    WHERE e.kind = 'calls'
    ORDER BY /*repo e*/e.path, e.line;
CREATE OR REPLACE TEMP MACRO find_callees(q) AS TABLE
    SELECT /*repo e*/e.line, e.dst_name AS as_written, coalesce(d.qualname, e.dst_qualname) AS callee,
           e.resolution, e.candidates, e.path
    FROM edges e
    JOIN symbols s ON s.symbol_id = e.src_id/*same s e*/ AND s.qualname = q
    LEFT JOIN symbols d ON d.symbol_id = e.dst_id/*same d e*/
    WHERE e.kind = 'calls'
    ORDER BY /*repo e*/e.path, e.line;
CREATE OR REPLACE TEMP MACRO trace_call_chain(q, depth := 3, direction := 'down') AS TABLE
    WITH RECURSIVE down(/*repo*/level, src_id, dst_id, path, line, resolution, trail, cycle) AS (
        SELECT /*repo e*/1, e.src_id, e.dst_id, e.path, e.line, e.resolution, [e.src_id, e.dst_id], e.src_id = e.dst_id
        FROM edges e JOIN symbols s ON s.symbol_id = e.src_id/*same s e*/ AND s.qualname = q
        WHERE e.kind = 'calls' AND e.dst_id IS NOT NULL AND direction IN ('down', 'both')
        UNION ALL
        SELECT /*repo e*/w.level + 1, e.src_id, e.dst_id, e.path, e.line, e.resolution,
               list_append(w.trail, e.dst_id), list_contains(w.trail, e.dst_id)
        FROM down w JOIN edges e ON e.src_id = w.dst_id/*same e w*/
        WHERE e.kind = 'calls' AND e.dst_id IS NOT NULL AND NOT w.cycle AND w.level < depth
    ), up(/*repo*/level, src_id, dst_id, path, line, resolution, trail, cycle) AS (
        SELECT /*repo e*/1, e.src_id, e.dst_id, e.path, e.line, e.resolution, [e.dst_id, e.src_id], e.src_id = e.dst_id
        FROM edges e JOIN symbols s ON s.symbol_id = e.dst_id/*same s e*/ AND s.qualname = q
        WHERE e.kind = 'calls' AND direction IN ('up', 'both')
        UNION ALL
        SELECT /*repo e*/w.level + 1, e.src_id, e.dst_id, e.path, e.line, e.resolution,
               list_append(w.trail, e.src_id), list_contains(w.trail, e.src_id)
        FROM up w JOIN edges e ON e.dst_id = w.src_id/*same e w*/
        WHERE e.kind = 'calls' AND NOT w.cycle AND w.level < depth
    ), walk AS (
        SELECT 'down' AS way, * FROM down UNION ALL SELECT 'up' AS way, * FROM up
    )
    SELECT /*repo w*/w.way AS direction, w.level AS depth, a.qualname AS caller, b.qualname AS callee,
           w.path, w.line, w.resolution, w.cycle
    FROM walk w JOIN symbols a ON a.symbol_id = w.src_id/*same a w*/ JOIN symbols b ON b.symbol_id = w.dst_id/*same b w*/
    ORDER BY /*repo w*/w.way, w.level, w.path, w.line;
"""

_MARK = re.compile(r"/\*(repo|same)((?: \w+)*)\*/")


def sql_macros(corpus: bool = False) -> str:
    """The call-graph view and macros for a database, or (`corpus`) for a corpus, where
    every answer starts with `repo` and every join stays within one repository."""
    def sub(m: re.Match) -> str:
        if not corpus:
            return ""
        args = m.group(2).split()
        if m.group(1) == "same":
            return f" AND {args[0]}.repo = {args[1]}.repo"
        return f"{args[0]}.repo, " if args else "repo, "
    return _MARK.sub(sub, _SQL_MACROS)


SQL_MACROS = sql_macros()

# macros of older versions of this schema, dropped when a writable connection meets them
_RETIRED = ("callers", "callees", "definitions", "call_chain", "call_chain_up")

# the comment a database's stored `call_edges` view carries: which version of this SQL is
# stored (a writable connection that finds it, and every table, has nothing to install)
SQL_MARK = "workbench call-graph SQL " + hashlib.sha256(
    (SQL_MACROS + "\0" + " ".join(_RETIRED)).encode()).hexdigest()[:16]


def install_sql(con, persistent: bool = False, corpus: bool = False) -> None:
    """Create the call-graph view and table macros. In a writable database they are stored
    in the file (`persistent`), so cursors, other connections and jupysql see them too; a
    read-only connection gets temporary ones. `corpus`: the versions for the views of a
    corpus (`workbench.corpus`), whose tables have a `repo` column."""
    for stmt in sql_macros(corpus).split(";\n"):
        if stmt.strip():
            con.execute(stmt if not persistent else stmt.replace(" TEMP ", " ", 1)).fetchall()
    if persistent:
        for name in _RETIRED:
            con.execute(f"DROP MACRO TABLE IF EXISTS {name}").fetchall()
        if not corpus:
            con.execute(f"COMMENT ON VIEW call_edges IS '{SQL_MARK}'").fetchall()


def is_current(con) -> bool:
    """Whether the database of writable connection `con` holds every table and the
    call-graph SQL of this version (`SQL_MARK`): then neither the DDL nor `install_sql`
    would change it. One catalog query, cheaper than running them."""
    row = con.execute("""
        SELECT (SELECT count(*) FROM duckdb_tables()
                WHERE database_name = current_database() AND schema_name = 'main'
                  AND NOT temporary AND list_contains($tables, table_name)),
               (SELECT any_value(comment) FROM duckdb_views()
                WHERE database_name = current_database() AND schema_name = 'main'
                  AND NOT temporary AND view_name = 'call_edges')""",
                      {"tables": list(TABLES)}).fetchall()[0]
    return row == (len(TABLES), SQL_MARK)
