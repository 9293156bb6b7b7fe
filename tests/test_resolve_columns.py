"""`columns.objects`: an Arrow column as a list with one object per distinct value, and the
bulk load of bindings built on it (the same indexes as grouping the rows as Python lists)."""
from __future__ import annotations

import duckdb
import pyarrow as pa
import pytest

from drift import copy_stdlib
from workbench.indexer import index
from workbench.resolve.columns import objects
from workbench.resolve.model import Model


@pytest.mark.parametrize("values", [
    ["a", "b", "a", None, "c", "b", None],
    [3, 1, 3, None, 7, 1],
    ["ä€", "", "x" * 100, ""],
    [None, None],
    [],
])
@pytest.mark.parametrize("typed", [False, True])
def test_objects_are_the_values_one_object_each(values, typed):
    kind = pa.int64() if any(isinstance(v, int) for v in values) else pa.string()
    arr = pa.array(values, type=kind if typed else None)
    table: dict = {}
    got = objects(arr, table)
    assert got == values
    distinct = {v for v in values if v is not None}
    assert set(table) == distinct
    for v in got:                   # the object `table` holds, whichever row
        if v is not None:
            assert v is table[v]


def test_objects_of_a_slice_and_a_shared_table():
    arr = pa.array(["x", "y", None, "x", "z", "y"]).slice(2, 3)
    held = "".join(["x"])           # an object the table has already
    table = {held: held}
    got = objects(arr, table)
    assert got == [None, "x", "z"]
    assert got[1] is held


def test_bulk_load_groups_as_python_lists_would(tmp_path):
    """The bulk load's indexes (texts and lines from `objects`) equal those `_add_rows`
    groups from the rows as plain Python lists."""
    root = copy_stdlib(tmp_path / "corpus", ("json", "argparse.py"))
    db = str(tmp_path / "x.duckdb")
    index(str(root), db, progress=False, resolve=False, jobs=1)
    con = duckdb.connect(db, read_only=True)
    try:
        bulk = Model(con, bulk_bindings=True)
        plain = Model(con, bulk_bindings=False)
        tbl = con.sql(f"""SELECT src_id, kind, name, value, value_type, value_id, line,
                                 {plain._CALLEE_KEY} AS callee_key
                          FROM bindings ORDER BY path, line, rowid""").to_arrow_table()
    finally:
        con.close()
    plain._add_rows(*(tbl.column(i).to_pylist() for i in range(tbl.num_columns)))
    assert sum(len(v) for v in bulk.args_by_callee.values()) > 100
    for name in ("binds", "returns", "yields", "elements", "attr_binds", "exports", "receivers",
                 "args_by_callee"):
        assert dict(getattr(bulk, name)) == dict(getattr(plain, name)), name
