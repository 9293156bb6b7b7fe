"""Connections and bulk writes (the tables are declared in schema.py). The database is the
API: see docs/schema.md."""
from __future__ import annotations

import json
import sys

import duckdb
import pyarrow as pa

from . import schema
from .schema import DDL, SCHEMA_VERSION  # noqa: F401  (the names the indexer uses)

# derived from the one declaration in schema.py (the indexer's bulk writes use these)
FILE_COLS = schema.columns("files")
_TYPES = {t: schema.arrow_schema(t) for t in [*schema.TABLES, "calls"] if t not in ("meta", "call_candidates")}


def run(con, sql: str, params=None) -> list:
    """Execute a statement and fetch its result completely (DuckDB 2 refuses new work on a
    connection with an unfinished result)."""
    return con.execute(sql, params).fetchall() if params is not None else con.execute(sql).fetchall()


def run_over(con, rows, sql: str, params=None) -> list:
    """`run` with the Arrow table `rows` readable as `_wb_rows` in `sql`, through DuckDB's
    replacement scan of this frame's local variable rather than `con.register`: a view
    registered and dropped inside a transaction keeps its Arrow table alive until the
    transaction ends (an index run's store and resolve phases)."""
    _wb_rows = rows  # noqa: F841 (read by name)
    return con.execute(sql, params).fetchall() if params is not None else con.execute(sql).fetchall()


def require_writable(con, what: str) -> None:
    """Raise a clear error when `con`'s current database is attached read-only (a read-only
    Workbench) before `what` would write to it."""
    rows = run(con, "SELECT readonly FROM duckdb_databases() WHERE database_name = current_database()")
    if rows and rows[0][0]:
        raise PermissionError(f"cannot {what}: this database is open read-only "
                              "(open it with workbench.open(db, read_only=False))")

def one(con, sql: str, params=None):
    """The first row of a query (the rest fetched too, so the connection stays usable)."""
    rows = run(con, sql, params)
    return rows[0] if rows else None


def quiet(con) -> None:
    """No DuckDB progress bar on this connection: in a notebook it is an unlabelled bar
    (long steps show labelled tqdm bars of their own)."""
    try:
        run(con, "SET enable_progress_bar = false")
    except duckdb.Error:
        pass


def connect(db: str, read_only: bool = False) -> duckdb.DuckDBPyConnection:
    con = duckdb.connect(db, read_only=read_only)
    prepare(con, read_only)
    return con


def prepare(con, read_only: bool = False) -> None:
    """A new connection made ready: no progress bar; a writable one's database holding
    this version's tables and call-graph SQL."""
    quiet(con)
    if not read_only:
        if schema.is_current(con):      # tables and call-graph SQL already there
            return
        run(con, DDL)
    try:                                # call-graph view and macros (schema.py)
        schema.install_sql(con, persistent=not read_only)
    except duckdb.Error:
        pass                            # a database without the tables yet


def set_meta(con, **values) -> None:
    """Store the values (a string as is, anything else as JSON) under their keys: one
    statement, whatever their number."""
    if not values:
        return
    run(con, "INSERT OR REPLACE INTO meta SELECT unnest($k), unnest($v)",
        {"k": list(values), "v": [v if isinstance(v, str) else json.dumps(v) for v in values.values()]})


def get_meta(con, key: str, default=None):
    row = one(con, "SELECT value FROM meta WHERE key = ?", [key])
    return row[0] if row else default


def get_metas(con, *keys: str) -> dict:
    """The values stored under `keys` (those it has), in one query."""
    return dict(run(con, "SELECT key, value FROM meta WHERE list_contains($k, key)", {"k": list(keys)}))


def next_id(con, table: str, col: str) -> int:
    return one(con, f"SELECT coalesce(max({col}), 0) + 1 FROM {table}")[0]


def next_ids(con, tables) -> tuple[int, ...]:
    """The index tables: the first id for new rows of each (table, id column): above every id it holds, and
    above every id handed out before (`used_ids`): a re-index deletes a file's rows, and
    ids given again to other rows would make an edge still naming a deleted symbol point
    at a stranger. One query."""
    parts = ", ".join(
        f"""greatest((SELECT coalesce(max({col}), 0) FROM {table}),
                     (SELECT coalesce(max(TRY_CAST(value AS BIGINT)), 0) FROM meta
                      WHERE key = '{table}_ids_used')) + 1""" for table, col in tables)
    return tuple(one(con, f"SELECT {parts}"))


def used_ids(con, **last: int) -> None:
    """Ids up to `last[table]` have been handed out (`next_ids` never gives them again)."""
    set_meta(con, **used_ids_meta(**last))


def used_ids_meta(**last: int) -> dict[str, str]:
    """The `meta` values `used_ids` writes, for a caller that writes them with others (one
    statement)."""
    return {f"{table}_ids_used": str(n) for table, n in last.items()}


def insert_columns(con, table: str, columns: dict[str, list]) -> int:
    """Bulk insert columnar data (one Arrow table, one INSERT ... SELECT)."""
    schema = _TYPES[table]
    n = len(next(iter(columns.values()))) if columns else 0
    if n == 0:
        return 0
    arrays = [c if isinstance(c := columns[f.name], (pa.Array, pa.ChunkedArray)) and c.type == f.type
              else arrow_array(c, f.type) for f in schema]
    cols = ", ".join(schema.names)
    run_over(con, pa.Table.from_arrays(arrays, schema=schema),
             f"INSERT INTO {table} ({cols}) SELECT {cols} FROM _wb_rows")
    return n


# Below this many values, `arrow_array` builds arrays of every type it knows itself (strings
# and integers at any size): `pa.array` imports pandas the first time it runs (about half a
# second, more than indexing a small repository takes, and some 45 MB in each process).
PANDAS_FREE_MAX = 50_000
_NUMPY_TYPES = {"int64": "int64", "int32": "int32", "double": "float64"}


def _plain_array(values, type: pa.DataType, n: int) -> pa.Array | None:
    """The array of the common cases, built from buffers whatever their size: ASCII strings
    without nulls (one join; offsets from their lengths) and integers without nulls; None
    for anything else."""
    import numpy as np
    if pa.types.is_string(type):
        try:
            joined = "".join(values)
        except TypeError:               # a null, or not a string
            return None
        if not joined.isascii() or len(joined) >= 2 ** 31:
            return None                 # characters are bytes in ASCII only
        offsets = np.zeros(n + 1, dtype=np.int32)
        np.cumsum(np.fromiter(map(len, values), dtype=np.int32, count=n), out=offsets[1:])
        return pa.Array.from_buffers(type, n, [None, pa.py_buffer(offsets),
                                               pa.py_buffer(joined.encode("ascii"))])
    if pa.types.is_integer(type) and str(type) in _NUMPY_TYPES:
        try:
            data = np.fromiter(values, dtype=_NUMPY_TYPES[str(type)], count=n)
        except (TypeError, ValueError, OverflowError):      # a null among them
            return None
        return pa.Array.from_buffers(type, n, [None, pa.py_buffer(data)])
    return None


def arrow_array(values, type: pa.DataType) -> pa.Array:
    """`pa.array(values, type=type)` for a Python sequence, without importing pandas:
    strings and integers at any size (ASCII strings and integers without nulls straight
    from buffers, `_plain_array`), lists of strings, floats and booleans up to
    `PANDAS_FREE_MAX` values; other types, and larger inputs of those, go to `pa.array`
    (so does everything once pandas is imported anyway)."""
    import numpy as np
    if isinstance(values, np.ndarray) and str(type) in _NUMPY_TYPES:   # no nulls: the buffer as is
        data = np.ascontiguousarray(values, dtype=_NUMPY_TYPES[str(type)])
        return pa.Array.from_buffers(type, len(data), [None, pa.py_buffer(data)])
    n = len(values)
    if "pandas" in sys.modules or isinstance(values, (pa.Array, pa.ChunkedArray)):
        return pa.array(values, type=type)
    got = _plain_array(values, type, n)
    if got is not None:
        return got
    if n > PANDAS_FREE_MAX and not (pa.types.is_string(type) or str(type) in ("int64", "int32")):
        return pa.array(values, type=type)
    if pa.types.is_string(type):
        b = pa.lib.StringBuilder()
        b.append_values(values)
        return b.finish()
    nulls = [v is None for v in values]
    validity = None
    if any(nulls):
        validity = pa.py_buffer(np.packbits(~np.array(nulls, dtype=bool), bitorder="little"))
    if pa.types.is_list(type) and pa.types.is_string(type.value_type):
        b = pa.lib.StringBuilder()
        offsets = [0]
        for v in values:
            if v:
                b.append_values(v)
            offsets.append(len(b))
        child = b.finish()
        return pa.Array.from_buffers(type, n, [validity, pa.py_buffer(np.array(offsets, dtype=np.int32))],
                                     children=[child])
    dtype = _NUMPY_TYPES.get(str(type))
    if dtype is None and not pa.types.is_boolean(type):
        return pa.array(values, type=type)
    data = np.array([False if v is None else v for v in values] if validity is not None else values,
                    dtype=dtype or bool)
    if dtype is None:                   # booleans: one bit each
        data = np.packbits(data, bitorder="little")
    return pa.Array.from_buffers(type, n, [validity, pa.py_buffer(data)])
