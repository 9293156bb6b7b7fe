"""Task sets as tables: build rows, save them into a database, load them back from a
database, a table name or a file, export them.

A task is one definition an agent has to reach: its file and line range in the indexed
revision (`path`, `start_line`, `end_line`), plus where it came from. The columns are
declared once in `workbench/schema.py` (table `tasks`, documented in docs/eval.md).

    >>> save(con, rows, "requests v2.31.0..v2.32.0")       # replaces a set of that name
    >>> load(con)                                           # every task of the database
    >>> load(con, "tasks.parquet"); load(con, task_set="requests v2.31.0..v2.32.0")
    >>> export(con, "tasks.csv")
"""
from __future__ import annotations

import os

import pyarrow as pa

from .. import schema, store

COLUMNS = schema.columns("tasks")
FILE_FORMATS = (".parquet", ".csv", ".json", ".duckdb", ".db")


def to_table(rows: list[dict]) -> pa.Table:
    """Task rows (dicts; missing columns are NULL) as an Arrow table of the `tasks` schema;
    `task_id` is numbered from 1 where a row has none."""
    cols = {c: [] for c in COLUMNS}
    for i, r in enumerate(rows, 1):
        unknown = set(r) - set(COLUMNS)
        if unknown:
            raise ValueError(f"unknown task column(s): {', '.join(sorted(unknown))}")
        for c in COLUMNS:
            cols[c].append(r.get(c))
        if cols["task_id"][-1] is None:
            cols["task_id"][-1] = i
    return pa.Table.from_pydict(cols, schema=schema.arrow_schema("tasks"))


def save(con, tasks, task_set: str | None = None, *, replace: bool = True) -> pa.Table:
    """Store tasks in the database's `tasks` table (created when missing). With `task_set`,
    every row gets that set name; `replace` first drops the rows of the sets being saved.
    Task ids are renumbered after the largest id already stored. Returns what was stored."""
    tbl = tasks if isinstance(tasks, pa.Table) else to_table(list(tasks))
    if task_set is not None:
        tbl = tbl.set_column(COLUMNS.index("task_set"), "task_set",
                             pa.array([task_set] * tbl.num_rows, pa.string()))
    store.require_writable(con, "store tasks")
    store.run(con, _ddl())
    sets = sorted(set(tbl.column("task_set").to_pylist()))
    if replace and sets:
        store.run(con, "DELETE FROM tasks WHERE list_contains(?, task_set)", [sets])
    first = store.next_id(con, "tasks", "task_id")
    tbl = tbl.set_column(0, "task_id", pa.array(range(first, first + tbl.num_rows), pa.int64()))
    store.insert_columns(con, "tasks", {c: tbl.column(c).combine_chunks() for c in COLUMNS})
    return tbl


def _ddl() -> str:
    ddl = schema.DDL
    start = ddl.index("CREATE TABLE IF NOT EXISTS tasks ")
    return ddl[start:ddl.index(";", start) + 1]


def load(con, source=None, *, task_set: str | None = None) -> pa.Table:
    """Tasks as an Arrow table, from: None (the database's `tasks` table), a table or view
    name in the database, a file (.parquet, .csv, .json), another database file (its
    `tasks` table), an Arrow table, a DuckDB relation, a pandas DataFrame or a list of
    dicts. `task_set` keeps one set."""
    if source is None:
        source = "tasks"
    if isinstance(source, pa.Table):
        tbl = source
    elif isinstance(source, list):
        tbl = to_table(source)
    elif hasattr(source, "to_arrow_table"):                 # a DuckDB relation
        tbl = source.to_arrow_table()
    elif hasattr(source, "to_dict") and hasattr(source, "columns"):   # a DataFrame
        tbl = pa.Table.from_pandas(source, preserve_index=False)
    elif isinstance(source, (str, os.PathLike)) and os.path.splitext(os.fspath(source))[1].lower() in FILE_FORMATS:
        tbl = _read_file(os.fspath(source))
    elif isinstance(source, str):
        if not source.replace("_", "").isalnum():
            raise ValueError(f"not a task file (.parquet, .csv, .json, .duckdb) or a table name: {source!r}")
        have = {r[0] for r in store.run(con, "SELECT table_name FROM information_schema.tables")}
        if source not in have:
            raise LookupError(f"no table {source!r} in the database; build one with "
                              "`workbench tasks from-git` or `workbench tasks from-symbols`")
        tbl = con.sql(f"SELECT * FROM {source} ORDER BY task_id").to_arrow_table()
    else:
        raise TypeError(f"cannot read tasks from {type(source).__name__}")
    tbl = _conform(tbl)
    if task_set is not None:
        import pyarrow.compute as pc
        tbl = tbl.filter(pc.equal(tbl.column("task_set"), task_set))
    return tbl


def _read_file(path: str) -> pa.Table:
    if not os.path.exists(path):
        raise FileNotFoundError(f"no task file {path!r}")
    import duckdb
    ext = os.path.splitext(path)[1].lower()
    if ext in (".duckdb", ".db"):
        with duckdb.connect(path, read_only=True) as c:
            return c.sql("SELECT * FROM tasks ORDER BY task_id").to_arrow_table()
    reader = {".parquet": "read_parquet", ".csv": "read_csv_auto", ".json": "read_json_auto"}[ext]
    with duckdb.connect() as c:
        return c.sql(f"SELECT * FROM {reader}($p)", params={"p": path}).to_arrow_table()


def _conform(tbl: pa.Table) -> pa.Table:
    """The table with exactly the task columns and types (missing optional columns NULL)."""
    sch = schema.arrow_schema("tasks")
    missing = [c for c in ("path", "start_line", "end_line") if c not in tbl.column_names]
    if missing:
        raise ValueError(f"a task table needs the columns path, start_line and end_line "
                         f"(missing: {', '.join(missing)})")
    arrays = []
    n = tbl.num_rows
    for f in sch:
        if f.name in tbl.column_names:
            arrays.append(tbl.column(f.name).cast(f.type))
        elif f.name == "task_id":
            arrays.append(pa.array(range(1, n + 1), pa.int64()))
        elif f.name in ("task_set", "source", "change"):
            arrays.append(pa.array([{"task_set": "tasks", "source": "symbols",
                                     "change": "named"}[f.name]] * n, f.type))
        else:
            arrays.append(pa.nulls(n, f.type))
    return pa.Table.from_arrays(arrays, schema=sch)


def export(con, path: str, source=None, *, task_set: str | None = None) -> int:
    """Write tasks (see `load`) to a .parquet, .csv or .json file; returns the row count."""
    tbl = load(con, source, task_set=task_set)
    ext = os.path.splitext(path)[1].lower()
    import duckdb
    with duckdb.connect() as c:
        c.register("t", tbl)
        if ext == ".parquet":
            c.execute("COPY t TO ? (FORMAT parquet)", [path])
        elif ext == ".csv":
            c.execute("COPY t TO ? (FORMAT csv, HEADER)", [path])
        elif ext == ".json":
            c.execute("COPY t TO ? (FORMAT json, ARRAY true)", [path])
        else:
            raise ValueError(f"export to .parquet, .csv or .json, not {path!r}")
    return tbl.num_rows


def summary(con) -> list[tuple]:
    """(task_set, source, tasks, modified, added, deleted, files) per stored set."""
    have = {r[0] for r in store.run(con, "SELECT table_name FROM information_schema.tables")}
    if "tasks" not in have:
        return []
    return store.run(con, """
        SELECT task_set, any_value(source), count(*),
               count(*) FILTER (WHERE change = 'modified'), count(*) FILTER (WHERE change = 'added'),
               count(*) FILTER (WHERE change = 'deleted'), count(DISTINCT path)
        FROM tasks GROUP BY task_set ORDER BY task_set""")
