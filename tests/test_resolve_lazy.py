"""A model built for an incremental run loads bindings per file and argument rows per callee
(`Model.prefetch`, `ensure_bindings`, `arg_rows`, from `model._BindingRows`). Whatever it
loads must equal what a model loading every row at once holds: the same rows, in the same
order, on the sample repositories, on copied standard-library packages after edits, and
on a bindings table whose files are not one block of row ids each."""
from __future__ import annotations

import random
from pathlib import Path

import duckdb
import pytest

from drift import copy_stdlib, mutate
from workbench.indexer import index
from workbench.resolve.model import Model

REPO = Path(__file__).resolve().parent.parent
SAMPLES = REPO / "sample_repos"
_BINDINGS = ("binds", "returns", "yields", "elements", "attr_binds", "exports")


def _plain(table) -> dict:
    return {k: v for k, v in table.items() if v}


def _callee_keys(con) -> list[str]:
    return sorted(k for (k,) in con.execute(
        f"SELECT DISTINCT {Model._CALLEE_KEY} FROM bindings WHERE kind = 'arg'").fetchall() if k)


def _check_lazy_equals_bulk(con, rng: random.Random, resolving: int | None = None) -> None:
    """A lazy model, prefetching a random part and loading the rest as evaluation would,
    holds exactly the bulk model's bindings and argument rows. `resolving`: as many files
    to resolve (a few: the prefetch asks two queries instead of copying the table)."""
    bulk = Model(con, bulk_bindings=True)
    lazy = Model(con, bulk_bindings=False)
    assert lazy.lazy and not lazy._bind_loaded
    paths = sorted(lazy.paths)
    keys = _callee_keys(con)
    assert keys, "no argument rows to compare"
    lazy.prefetch(rng.sample(paths, k=len(paths) // 3), rng.sample(keys, k=len(keys) // 3),
                  resolving=resolving)
    few = resolving is not None and resolving <= Model.PREFETCH_QUERY_MAX
    assert (lazy._lazy_tbl is None) == few, "the prefetch took the wrong way"
    rest_paths, rest_keys = paths[:], keys + ["no_such_callee"]
    rng.shuffle(rest_paths)
    rng.shuffle(rest_keys)
    for path in rest_paths:
        lazy.ensure_bindings(path)
    for key in rest_keys:
        assert list(lazy.arg_rows(key)) == list(bulk.args_by_callee.get(key, ())), key
    assert not lazy._bind_loaded, "the lazy model fell back to the bulk load"
    for name in _BINDINGS:
        assert _plain(getattr(lazy, name)) == _plain(getattr(bulk, name)), name
    assert lazy.receivers == bulk.receivers
    assert {k: v for k, v in lazy.args_by_callee.items() if v} == \
        {k: v for k, v in bulk.args_by_callee.items() if v}


@pytest.mark.parametrize("sample", ["pyshop", "tsapp", "javaservice", "goservice", "rustlib", "cnative"])
def test_lazy_bindings_equal_the_bulk_load_on_samples(tmp_path, sample):
    db = str(tmp_path / "s.duckdb")
    index(SAMPLES / sample, db, jobs=1, progress=False)
    with duckdb.connect(db) as con:
        _check_lazy_equals_bulk(con, random.Random(sample))
        _check_lazy_equals_bulk(con, random.Random(sample + "1"), resolving=1)


def test_lazy_bindings_equal_the_bulk_load_after_stdlib_edits(tmp_path):
    root = copy_stdlib(tmp_path / "corpus", ("json", "email", "http", "argparse.py", "enum.py"))
    db = str(tmp_path / "c.duckdb")
    index(root, db, jobs=2, progress=False)
    rng = random.Random(5)
    for trial in range(3):
        if trial:               # files re-indexed: their rows deleted and appended again
            mutate(root, rng, n_files=3, add_delete=(trial == 2))
            index(root, db, jobs=1, progress=False)
        with duckdb.connect(db) as con:
            _check_lazy_equals_bulk(con, rng, resolving=1 if trial == 1 else None)


def test_lazy_bindings_when_a_file_is_not_one_block_of_rows(tmp_path):
    """A file whose rows are split (a row appended after other files' rows): the rows are
    read sorted instead, and still equal the bulk load."""
    from workbench.resolve.model import _BindingRows
    db = str(tmp_path / "p.duckdb")
    index(SAMPLES / "pyshop", db, jobs=1, progress=False)
    with duckdb.connect(db) as con:
        assert not _BindingRows(con, Model._CALLEE_KEY).sorted     # one block per file
        first = con.execute("SELECT min(path) FROM bindings").fetchall()[0][0]
        con.execute("""INSERT INTO bindings SELECT * REPLACE (line + 1000 AS line) FROM bindings
                       WHERE path = ? AND kind IN ('assign', 'arg')""", [first])
        assert _BindingRows(con, Model._CALLEE_KEY).sorted
        _check_lazy_equals_bulk(con, random.Random(3))


def test_lazy_bindings_when_a_files_rows_are_not_in_line_order(tmp_path):
    """One block of row ids per file, but a file's rows stored last line first: each file's
    rows are put in line order when loaded, as the bulk load orders them."""
    from workbench.resolve.model import _BindingRows
    db = str(tmp_path / "r.duckdb")
    index(SAMPLES / "pyshop", db, jobs=1, progress=False)
    with duckdb.connect(db) as con:
        paths = [p for (p,) in con.execute("SELECT DISTINCT path FROM bindings ORDER BY path").fetchall()]
        for path in paths[::2]:
            con.execute("CREATE OR REPLACE TEMP TABLE _mine AS SELECT * FROM bindings WHERE path = ?", [path])
            con.execute("DELETE FROM bindings WHERE path = ?", [path])
            con.execute("INSERT INTO bindings SELECT * FROM _mine ORDER BY line DESC")
        assert not _BindingRows(con, Model._CALLEE_KEY).sorted
        _check_lazy_equals_bulk(con, random.Random(4))
