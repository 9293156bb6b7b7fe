"""What an index run hands back between its phases: DuckDB's allocator purged, the parsed
expression caches cleared, and no pandas import for the store phase's string columns."""
from __future__ import annotations

import ctypes
import subprocess
import sys

import duckdb
import pytest

from workbench import gcpause
from workbench.resolve import exprs


def _resident(ctl) -> int:
    """Bytes of physical memory DuckDB's jemalloc holds (its statistics refreshed first)."""
    epoch = ctypes.c_uint64(1)
    assert ctl(b"epoch", None, None, ctypes.byref(epoch), ctypes.sizeof(epoch)) == 0
    value, size = ctypes.c_size_t(0), ctypes.c_size_t(ctypes.sizeof(ctypes.c_size_t))
    assert ctl(b"stats.resident", ctypes.byref(value), ctypes.byref(size), None, 0) == 0
    return value.value


def test_release_purges_what_duckdb_freed():
    con = duckdb.connect()
    ctl = gcpause._duckdb_mallctl()
    if ctl is None:
        pytest.skip("this DuckDB build does not allocate through its own jemalloc")
    try:
        gcpause.release_unused_memory()
        base = _resident(ctl)
        # a sorted result of a million rows as Arrow: DuckDB frees its buffers when it is let go
        tbl = con.sql("SELECT i, md5(i::VARCHAR) AS h FROM range(1000000) t(i) ORDER BY h").to_arrow_table()
        assert tbl.num_rows == 1_000_000
        del tbl
        held = _resident(ctl)
        assert held - base > 50 << 20              # freed, yet still resident
        gcpause.release_unused_memory()
        assert _resident(ctl) - base < (held - base) // 4
    finally:
        con.close()


def test_release_is_harmless_without_anything_to_release():
    gcpause.release_unused_memory()
    gcpause.release_unused_memory()


def test_clear_caches_forgets_parsed_texts_and_parses_the_same_again():
    text = "self.items.append(x).strip"
    first = exprs.parse_chain(text)
    alts = exprs.alternatives("a if c else b")
    assert exprs.parse_chain.cache_info().currsize > 0
    exprs.clear_caches()
    assert exprs.parse_chain.cache_info().currsize == 0
    assert exprs._alternatives.cache_info().currsize == 0
    assert not exprs._STEPS
    assert exprs.parse_chain(text) == first
    assert exprs.alternatives("a if c else b") == alts


def test_large_store_columns_do_not_import_pandas():
    """`insert._take` on more rows than `store.PANDAS_FREE_MAX`: pandas stays out of the
    process (importing it holds ~35 MB for the rest of the run)."""
    code = """
import sys
import numpy as np
from workbench import store
from workbench.insert import _take
n = store.PANDAS_FREE_MAX + 10
got = _take(["a.py", "b.py", None], np.arange(n, dtype=np.int64) % 3)
assert got.to_pylist()[:4] == ["a.py", "b.py", None, "a.py"] and len(got) == n
print("pandas" in sys.modules)
"""
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "False"
