"""A model built for an incremental run loads bindings per file and argument rows per callee
(`Model.prefetch`, `ensure_bindings`, `arg_rows`, from `lazy._BindingRows`). Whatever it
loads must equal what a model loading every row at once holds: the same rows, in the same
order, on the sample repositories, on copied standard-library packages after edits, and
on a bindings table whose files are not one block of row ids each. A model that held
every row once (a full run's, kept) finds argument rows by their names (`_arg_names`):
the same rows again, also after an edit adds a new call text of a callee another file
reads the arguments of."""
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


def _check_lazy_equals_bulk(con, rng: random.Random, resolving: int | None = None,
                            implicit: bool = False) -> None:
    """A lazy model, prefetching a random part and loading the rest as evaluation would,
    holds exactly the bulk model's bindings and argument rows. `resolving`: as many files
    to resolve (a few: the prefetch asks two queries instead of copying the table).
    `implicit`: models keeping the implicit sites (`Model.implicit`)."""
    bulk = Model(con, bulk_bindings=True, implicit=implicit)
    lazy = Model(con, bulk_bindings=False, implicit=implicit)
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
    _check_lookups_equal(lazy, bulk, rng)
    lazy.fill_pending()
    for name in _BINDINGS:
        assert _plain(getattr(lazy, name)) == _plain(getattr(bulk, name)), name
    assert lazy.receivers == bulk.receivers
    assert {k: v for k, v in lazy.args_by_callee.items() if v} == \
        {k: v for k, v in bulk.args_by_callee.items() if v}


def _check_lookups_equal(lazy: Model, bulk: Model, rng: random.Random) -> None:
    """Every scope's rows, read as evaluation reads them (`get`, `in`) from a lazy model
    whose rows are still held back per scope, equal the bulk model's; scopes read in a
    random order, some of them twice, and scopes with no rows give none."""
    scopes = sorted(set().union(*(getattr(bulk, name).keys() for name in _BINDINGS),
                                (k[0] for k in bulk.receivers)))
    assert lazy._pending, "no rows held back: nothing to check"
    order = scopes + rng.sample(scopes, k=len(scopes) // 4) + [-5, 10 ** 12]
    rng.shuffle(order)
    for scope in order:
        for name in _BINDINGS:
            assert (getattr(lazy, name).get(scope) or None) == (getattr(bulk, name).get(scope) or None), \
                (name, scope)
            if getattr(bulk, name).get(scope):
                assert scope in getattr(lazy, name), (name, scope)
    for key, texts in bulk.receivers.items():
        assert lazy.receivers.get(key) == texts, key
    assert not lazy._pending, "every scope was read: nothing is held back any more"


@pytest.mark.parametrize("sample", ["pyshop", "tsapp", "javaservice", "goservice", "rustlib", "cnative"])
def test_lazy_bindings_equal_the_bulk_load_on_samples(tmp_path, sample):
    db = str(tmp_path / "s.duckdb")
    index(SAMPLES / sample, db, jobs=1, progress=False)
    with duckdb.connect(db) as con:
        _check_lazy_equals_bulk(con, random.Random(sample))
        _check_lazy_equals_bulk(con, random.Random(sample + "1"), resolving=1)
        if sample == "pyshop":      # with the implicit sites kept as well
            _check_lazy_equals_bulk(con, random.Random(sample + "2"), implicit=True)


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
    from workbench.resolve.lazy import _BindingRows
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
    from workbench.resolve.lazy import _BindingRows
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


def _released(con) -> Model:
    """A model as a full run keeps it: every row loaded, then let go (the argument rows'
    names by callee key stay), lazy from then on as a refresh makes it."""
    m = Model(con, bulk_bindings=True)
    m.release_bindings()
    m.lazy = True
    return m


@pytest.mark.parametrize("sample", ["pyshop", "tsapp", "javaservice", "goservice", "rustlib", "cnative"])
def test_argument_rows_found_by_name_equal_the_bulk_load(tmp_path, sample, monkeypatch):
    db = str(tmp_path / "s.duckdb")
    index(SAMPLES / sample, db, jobs=1, progress=False)
    with duckdb.connect(db) as con:
        bulk = Model(con, bulk_bindings=True)
        released = _released(con)
        keys = _callee_keys(con)
        # every argument row's name is under its callee key, and nothing else is
        assert released._arg_names is not None
        for key in keys:
            assert sorted(released._arg_names[key]) == sorted({r[2] for r in bulk.args_by_callee[key]}), key
        assert set(released._arg_names) == {k for k, rows in bulk.args_by_callee.items() if rows}
        # a prefetch of a few files asks for the keys' rows by name, not by every row's key:
        # with files, in the scan that reads the files' rows; without, on its own
        asked = []
        named, one_scan = Model._prefetch_named_args, Model._prefetch_in_one_scan
        monkeypatch.setattr(Model, "_prefetch_named_args",
                            lambda self, ks: (asked.append(("named", list(ks))), named(self, ks))[1])
        monkeypatch.setattr(Model, "_prefetch_in_one_scan",
                            lambda self, ps, ks: (asked.append(("one scan", list(ks))), one_scan(self, ps, ks))[1])
        rng = random.Random(sample)
        some = rng.sample(keys, k=max(1, len(keys) // 2)) + ["no_such_callee"]
        files = rng.sample(sorted(released.paths), k=2)
        released.prefetch(files, some, resolving=1)
        assert asked == [("one scan", sorted(some))]
        assert released._lazy_tbl is None
        for key in some:
            assert list(released.args_by_callee[key]) == list(bulk.args_by_callee.get(key, ())), key
        for path in files:
            released.ensure_bindings(path)      # held back per scope, not loaded again
        assert released._lazy_tbl is None
        _check_lookups_equal(released, _only(bulk, files), rng)
        alone = _released(con)
        alone.prefetch([], some, resolving=1)
        assert asked[1:] == [("named", sorted(some))]
        for key in some:
            assert list(alone.args_by_callee[key]) == list(bulk.args_by_callee.get(key, ())), key


def _only(bulk: Model, paths) -> Model:
    """A copy of the bulk model's bindings indexes holding the scopes of `paths` only."""
    import copy
    part = copy.copy(bulk)
    mine = {s for s in bulk.kind if bulk.path.get(s) in set(paths)}
    for name in _BINDINGS:
        setattr(part, name, {k: v for k, v in getattr(bulk, name).items() if k in mine})
    part.receivers = {k: v for k, v in bulk.receivers.items() if k[0] in mine}
    return part


_B = "def helper(cb):\n    return cb()\n"
_A = "from b import helper\n\n\ndef one():\n    return 1\n\n\ndef start():\n    return helper(one)\n"
_A_MORE = ("\nimport b as bee\n\n\ndef two():\n    return 2\n\n\n"
           "def again():\n    return bee.helper(two)\n")


def test_an_edit_adding_a_call_text_a_reader_of_its_arguments_sees(tmp_path, monkeypatch):
    """A kept model (names of the argument rows known from the full run) and an edit that
    calls `helper` under a text no row had before (`bee.helper`): the file reading
    `helper`'s arguments is resolved again, its prefetch finds the new row by its name,
    and the edges equal a fresh index's (`cb()` now reaches `two` too)."""
    from drift import differences
    from workbench.resolve import kept
    kept.forget()
    root = tmp_path / "repo"
    root.mkdir()
    (root / "b.py").write_text(_B, encoding="utf-8")
    (root / "a.py").write_text(_A, encoding="utf-8")
    db, fresh_db = str(tmp_path / "inc.duckdb"), str(tmp_path / "fresh.duckdb")
    index(root, db, jobs=1, progress=False)
    asked = []
    named, one_scan = Model._prefetch_named_args, Model._prefetch_in_one_scan
    monkeypatch.setattr(Model, "_prefetch_named_args",
                        lambda self, ks: (asked.append(list(ks)), named(self, ks))[1])
    monkeypatch.setattr(Model, "_prefetch_in_one_scan",         # files and names in one scan
                        lambda self, ps, ks, *con: (asked.append(list(ks)), one_scan(self, ps, ks, *con))[1])
    with open(root / "a.py", "a", encoding="utf-8") as fh:
        fh.write(_A_MORE)
    import os
    st = os.stat(root / "a.py")
    os.utime(root / "a.py", (st.st_atime, st.st_mtime + 5))
    report = index(root, db, jobs=1, progress=False)
    assert report.resolve_stats.model_kept
    assert any("helper" in ks for ks in asked), asked
    index(root, fresh_db, jobs=1, progress=False)
    assert differences(db, fresh_db) == []
    with duckdb.connect(db) as con:
        got = con.execute("""SELECT e.dst_qualname, e.candidates FROM edges e
                             WHERE e.path = 'b.py' AND e.kind = 'calls' AND e.dst_name = 'cb'""").fetchall()
    assert got and any("two" in repr(r) for r in got), got
    kept.forget()



def test_every_held_back_scope_grouped_at_once_as_scope_by_scope(tmp_path, monkeypatch):
    """`fill_pending` groups every held-back scope's rows (held by a prefetch's one scan,
    `_hold_slices`, and per file, `_defer_path_rows`) in one `_add_rows`: the indexes equal
    those grouping the scopes one by one gives, and the bulk load's for those files."""
    db = str(tmp_path / "p.duckdb")
    index(SAMPLES / "pyshop", db, jobs=1, progress=False)
    with duckdb.connect(db) as con:
        bulk = Model(con, bulk_bindings=True)
        rng = random.Random(11)
        keys = _callee_keys(con)
        files = rng.sample(sorted(bulk.paths), k=4)
        some = rng.sample(keys, k=max(1, len(keys) // 2))
        at_once, by_scope = _released(con), _released(con)
        for m in (at_once, by_scope):
            m._prefetch_in_one_scan(sorted(files[:3]), sorted(some))
            m.ensure_bindings(files[3])         # (a file's rows by positions)
        assert at_once._pending.keys() == by_scope._pending.keys() and at_once._pending
        calls = []
        add_rows = Model._add_rows
        monkeypatch.setattr(Model, "_add_rows", lambda self, *a: (calls.append(len(a[0])), add_rows(self, *a))[1])
        at_once.fill_pending()
        assert len(calls) == 1 and not at_once._pending
        for scope in list(by_scope._pending):
            by_scope._fill_scope(scope)
        assert len(calls) > 2 and not by_scope._pending
        part = _only(bulk, files)
        for name in _BINDINGS:
            assert _plain(getattr(at_once, name)) == _plain(getattr(by_scope, name)) == _plain(getattr(part, name)), name
        assert at_once.receivers == by_scope.receivers == part.receivers
        n = len(calls)
        at_once.fill_pending()                  # nothing held: nothing grouped
        assert len(calls) == n
