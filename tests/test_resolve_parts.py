"""How a full resolution holds its work out of Python objects: edges read from the table
in parts (`passes._EDGE_PART`), the changed rows kept as Arrow tables (`rows._Rows`),
what each file read packed into one buffer (`rows._Reads`), bindings bound once held
as 1-tuples (`bindings._put`). None of it may change a row: the tables equal those of a
run that reads every edge at once and writes one batch."""
from __future__ import annotations

import random

import duckdb
import pytest

from drift import copy_stdlib, mutate, rows
from workbench.indexer import index
from workbench.resolve import passes, rows as resolve_rows
from workbench.resolve.bindings import _put

_TABLES = {
    "edges": """SELECT e.path, s.qualname, e.kind, e.dst_name, e.line, e.resolution, e.dst_qualname,
                       e.candidates FROM edges e LEFT JOIN symbols s ON s.symbol_id = e.src_id""",
    "imports": "SELECT path, module, name, alias, line, resolved_path FROM imports",
    "resolve_deps": "SELECT path, files, names, provides FROM resolve_deps",
    "call_candidates": """SELECT e.path, e.line, e.dst_name, c.qualname, s.qualname FROM call_candidates c
                          JOIN edges e USING (edge_id) LEFT JOIN symbols s ON s.symbol_id = c.symbol_id""",
}


def _tables(db: str) -> dict[str, set]:
    return {name: rows(db, sql) for name, sql in _TABLES.items()}


def test_edges_in_small_parts_and_batches_give_the_same_tables(tmp_path, monkeypatch):
    root = copy_stdlib(tmp_path / "corpus", ("json", "email", "argparse.py", "enum.py"))
    whole = str(tmp_path / "whole.duckdb")
    monkeypatch.setattr(passes, "_EDGE_PART", 10**9)
    monkeypatch.setattr(passes, "PRIVATE_COMMIT_MIN_ROWS", 10**9)     # (the private run's commit part-way)
    monkeypatch.setattr(resolve_rows, "_WRITE_BATCH", 10**9)
    index(root, whole, jobs=1, progress=False)
    parts = str(tmp_path / "parts.duckdb")
    monkeypatch.setattr(passes, "_EDGE_PART", 37)          # many parts, files larger than a part
    monkeypatch.setattr(passes, "PRIVATE_COMMIT_MIN_ROWS", 101)
    monkeypatch.setattr(resolve_rows, "_WRITE_BATCH", 101)    # many Arrow batches to write
    index(root, parts, jobs=1, progress=False)
    want, got = _tables(whole), _tables(parts)
    assert all(want.values()), "a table to compare is empty"
    assert got == want
    with duckdb.connect(parts, read_only=True) as con:
        assert con.execute("SELECT count(*) FROM edges WHERE resolution <> 'unresolved'").fetchall()[0][0] > 1000


def test_incremental_run_in_parts_equals_a_fresh_index(tmp_path, monkeypatch):
    """Edits re-resolved with tiny parts and batches: the same rows as a fresh index."""
    monkeypatch.setattr(passes, "_EDGE_PART", 23)
    monkeypatch.setattr(passes, "PRIVATE_COMMIT_MIN_ROWS", 53)
    monkeypatch.setattr(resolve_rows, "_WRITE_BATCH", 53)
    root = copy_stdlib(tmp_path / "corpus", ("json", "http", "enum.py"))
    db = str(tmp_path / "inc.duckdb")
    index(root, db, jobs=1, progress=False)
    mutate(root, random.Random(11), n_files=3)
    index(root, db, jobs=1, progress=False)
    fresh = str(tmp_path / "fresh.duckdb")
    index(root, fresh, jobs=1, progress=False)
    for name in ("edges", "imports", "call_candidates"):
        assert rows(db, _TABLES[name]) == rows(fresh, _TABLES[name]), name


@pytest.mark.parametrize("reads", [
    [],
    [("a.py", 0, set())],
    [("a.py", 1, {"g:x"}), ("b/c.py", (1 << 1800) | 5, {"b:python:join", "a:f", "s:Ünïcode"}),
     ("d.py", 1 << 63, set()), ("e.py", 6, {"c:" + "x" * 5000})],
])
def test_reads_come_back_as_given(reads):
    packed = resolve_rows._Reads()
    for path, bits, names in reads:
        packed.add(path, bits, set(names))
    assert len(packed) == len(reads)
    assert list(packed.items()) == [(p, (b, n)) for p, b, n in reads]


def test_readers_count_the_files_that_read_each_file():
    """`_Reads.readers`: per file bit, how many files' bits have it (every file's at once),
    as counting each file's set bits does; extended buffers and files that read nothing too."""
    from workbench.resolve.deps import _bit_indexes
    rng = random.Random(7)
    nbits = 300
    parts, want = [], [0] * nbits
    for _ in range(3):
        packed = resolve_rows._Reads()
        for k in range(rng.randint(0, 40)):
            bits = 0 if k % 7 == 0 else sum(1 << i for i in rng.sample(range(nbits), rng.randint(1, 30)))
            packed.add(f"f{k}.py", bits, {"a:x"} if k % 2 else set())
            for i in _bit_indexes(bits):
                want[i] += 1
        parts.append(packed)
    whole = parts[0]
    for other in parts[1:]:
        whole.extend(other)
    assert whole.readers(nbits).tolist() == want and sum(want)
    assert resolve_rows._Reads().readers(5).tolist() == [0] * 5


def test_names_bound_once_are_tuples_then_lists_in_order():
    table: dict = {}
    rows_ = [("r", i) for i in range(4)]
    _put(table, "x", rows_[0])
    assert table["x"] == (rows_[0],)
    _put(table, "x", rows_[1])
    _put(table, "y", rows_[2])
    _put(table, "x", rows_[3])
    assert table == {"x": [rows_[0], rows_[1], rows_[3]], "y": (rows_[2],)}
