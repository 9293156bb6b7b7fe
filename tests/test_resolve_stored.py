"""The model stored next to the database (`resolve.stored`): a run in a new process (one
that keeps no model, as the `workbench index` command) refreshes the stored model instead
of building it from the tables, only when the database's token leads back to it; the
edges then equal those of a fresh index. A stale, truncated or corrupt stored model is
ignored without an error."""
from __future__ import annotations

import os
import random
import shutil
from pathlib import Path

import duckdb
import pytest

from drift import differences
from test_resolve_kept import _ADD, _edit, checked  # noqa: F401  (a fixture)
from workbench.indexer import index
from workbench.resolve import changedrows, deps, kept, quiet, stored
from workbench.resolve.model import Model
from workbench.resolve.passes import RESOLVER_VERSION

REPO = Path(__file__).resolve().parent.parent
SAMPLES = REPO / "sample_repos"


@pytest.fixture
def new_processes(monkeypatch):
    """Each run as in a new process: no model kept between runs."""
    monkeypatch.setattr(kept, "KEEP", 0)
    kept.forget()


def _copy(tmp_path: Path, sample: str = "pyshop") -> Path:
    root = tmp_path / sample
    shutil.copytree(SAMPLES / sample, root)
    return root


def _edit_one(root: Path, rng: random.Random) -> None:
    files = sorted(p for p in root.rglob("*") if p.is_file() and p.suffix in _ADD)
    _edit(rng.choice(files), rng)


def _same_as_fresh(root: Path, db: str, tmp_path: Path) -> None:
    fresh = str(tmp_path / "fresh.duckdb")
    Path(fresh).unlink(missing_ok=True)
    for suffix in ("", ".model", ".model.log"):
        Path(fresh + suffix).unlink(missing_ok=True)
    index(root, fresh, jobs=1, progress=False)
    assert differences(db, fresh) == []


def _token(db: str) -> str:
    con = duckdb.connect(db, read_only=True)
    try:
        return con.execute("SELECT value FROM meta WHERE key = 'resolve_token'").fetchall()[0][0]
    finally:
        con.close()


@pytest.mark.parametrize("sample", ["pyshop", "tsapp", "goservice", "rustlib", "cnative"])
def test_runs_of_new_processes_refresh_the_stored_model(tmp_path, sample, new_processes, checked):
    """Each run after the first loads the stored model, refreshes it for the files changed
    by it and by the runs logged since, and equals a model built afresh (`checked`) and a
    fresh index; the log grows by one line a run, the stored model stays."""
    root = _copy(tmp_path, sample)
    db = str(tmp_path / "inc.duckdb")
    index(root, db, jobs=1, progress=False)
    path = stored.path_for(db)
    assert os.path.exists(path) and os.path.getsize(path + ".log") == 0
    base = open(path, "rb").read()
    rng = random.Random(sample)
    for k in range(1, 4):
        _edit_one(root, rng)
        r = index(root, db, jobs=1, progress=False)
        assert r.resolve_stats.model_stored and not r.resolve_stats.model_kept
        _same_as_fresh(root, db, tmp_path)
        assert open(path, "rb").read() == base
        with open(path + ".log", encoding="utf-8") as fh:
            assert len(fh.readlines()) == k
    assert len(checked) == 3


def test_a_stored_model_is_used_only_for_its_own_database_state(tmp_path, new_processes):
    """Another writer (a run without resolution) leaves a token the log does not lead to:
    the model is built from the tables, and stored anew; a token set by hand as well."""
    root = _copy(tmp_path)
    db = str(tmp_path / "inc.duckdb")
    index(root, db, jobs=1, progress=False)
    rng = random.Random(3)
    _edit_one(root, rng)
    index(root, db, jobs=1, progress=False, resolve=False)
    _edit_one(root, rng)
    r = index(root, db, jobs=1, progress=False)
    assert not r.resolve_stats.model_stored and r.resolve_stats.full    # no token: resolved in full
    _same_as_fresh(root, db, tmp_path)
    path = stored.path_for(db)
    assert stored.load(path, _token(db), RESOLVER_VERSION) is not None
    # another token in the database: nothing leads there
    con = duckdb.connect(db)
    con.execute("UPDATE meta SET value = 'not-this-one' WHERE key = 'resolve_token'")
    con.close()
    assert stored.load(path, "not-this-one", RESOLVER_VERSION) is None
    _edit_one(root, rng)
    r = index(root, db, jobs=1, progress=False)
    assert not r.resolve_stats.model_stored and not r.resolve_stats.full
    _same_as_fresh(root, db, tmp_path)
    assert stored.load(path, _token(db), RESOLVER_VERSION) is not None     # stored anew
    # a model stored by other resolver code is not used
    assert stored.load(path, _token(db), "other-version") is None


@pytest.mark.parametrize("damage", ["truncated", "flipped", "empty", "garbage", "log"])
def test_a_damaged_stored_model_is_ignored(tmp_path, new_processes, damage):
    root = _copy(tmp_path)
    db = str(tmp_path / "inc.duckdb")
    index(root, db, jobs=1, progress=False)
    path = stored.path_for(db)
    rng = random.Random(5)
    _edit_one(root, rng)
    assert index(root, db, jobs=1, progress=False).resolve_stats.model_stored
    data = open(path, "rb").read()
    if damage == "truncated":
        data = data[: len(data) * 2 // 3]
    elif damage == "flipped":
        data = bytearray(data)
        data[-100] ^= 0xFF
        data = bytes(data)
    elif damage == "empty":
        data = b""
    elif damage == "garbage":
        data = os.urandom(5000)
    if damage == "log":                 # the last run's line torn: the chain breaks there
        log = open(path + ".log", "rb").read()
        open(path + ".log", "wb").write(log[: len(log) // 2])
    else:
        open(path, "wb").write(data)
    assert stored.load(path, _token(db), RESOLVER_VERSION) is None
    _edit_one(root, rng)
    r = index(root, db, jobs=1, progress=False)
    assert not r.resolve_stats.model_stored
    _same_as_fresh(root, db, tmp_path)
    _edit_one(root, rng)                # stored anew by that run
    assert index(root, db, jobs=1, progress=False).resolve_stats.model_stored
    _same_as_fresh(root, db, tmp_path)


def test_many_files_changed_since_store_the_model_anew(tmp_path, new_processes, monkeypatch):
    root = _copy(tmp_path)
    db = str(tmp_path / "inc.duckdb")
    index(root, db, jobs=1, progress=False)
    path = stored.path_for(db)
    monkeypatch.setattr(stored, "REBASE_FILES", 1)
    rng = random.Random(9)
    files = sorted(p for p in root.rglob("*.py"))
    changed_twice = files[:2]
    for p in changed_twice:
        _edit(p, rng)
    r = index(root, db, jobs=1, progress=False)
    assert r.resolve_stats.model_stored
    assert os.path.getsize(path + ".log") == 0         # more than REBASE_FILES: stored anew
    assert stored.load(path, _token(db), RESOLVER_VERSION)[1] == set()
    _same_as_fresh(root, db, tmp_path)


def test_a_process_keeping_models_logs_its_runs_for_the_others(tmp_path, monkeypatch):
    """Runs that refresh a model kept in the process log themselves, so a new process
    after them refreshes the stored model for every file they changed."""
    kept.forget()
    root = _copy(tmp_path)
    db = str(tmp_path / "inc.duckdb")
    index(root, db, jobs=1, progress=False)
    rng = random.Random(2)
    for _ in range(2):
        _edit_one(root, rng)
        assert index(root, db, jobs=1, progress=False).resolve_stats.model_kept
    kept.forget()
    got = stored.load(stored.path_for(db), _token(db), RESOLVER_VERSION)
    assert got is not None and got[1]
    _edit_one(root, rng)
    r = index(root, db, jobs=1, progress=False)
    assert r.resolve_stats.model_stored
    _same_as_fresh(root, db, tmp_path)
    kept.forget()


def test_no_model_is_stored_for_an_in_memory_database():
    assert stored.path_for(":memory:") is None and stored.path_for(None) is None
    assert stored.load(None, "token", RESOLVER_VERSION) is None


def test_a_stored_model_holds_no_connection_bindings_or_caches(tmp_path, new_processes, monkeypatch):
    root = _copy(tmp_path)
    db = str(tmp_path / "inc.duckdb")
    index(root, db, jobs=1, progress=False)
    model, since = stored.load(stored.path_for(db), _token(db), RESOLVER_VERSION)
    assert since == set() and isinstance(model, Model)
    assert model.con is None and model.lazy and not model._bind_loaded
    assert not model.binds and not model.args_by_callee and not model._lazy_loaded
    assert model._texts is None and not hasattr(model, "names_stored")
    # the argument rows' names by callee key are stored (though the process keeps no model):
    # those a process keeping its model has
    monkeypatch.setattr(kept, "KEEP", 2)
    other = str(tmp_path / "kept.duckdb")
    index(root, other, jobs=1, progress=False)
    kept_names = kept.peek(_token(other))._arg_names
    kept.forget()
    assert kept_names and model._arg_names is not None
    assert {k: sorted(v) for k, v in model._arg_names.items()} == {k: sorted(v) for k, v in kept_names.items()}
    assert model._by_qual is None and model.fallback_cache == {}
    # the texts `quiet.quiet` searches are stored with it: those of the rows (`RowTexts`) and
    # the blob of the symbols' texts, as made from the tables
    con = duckdb.connect(db, read_only=True)
    try:
        texts = set(quiet.RowTexts.load(con).joined().split(b"\n"))
        symbol_texts = Model(con, bulk_bindings=False).symbol_texts()
    finally:
        con.close()
    assert texts and set(model.row_texts.joined().split(b"\n")) == texts
    blob, since = model.symbol_texts_blob()
    assert since == set() and model._texts is None
    assert sorted(blob.split(b"\n")) == sorted("\n".join(symbol_texts.values()).encode("utf-8").split(b"\n"))
    assert model.bit_of == {i: model._bits[p] for i, p in zip(model._sids, model._spaths)}


def test_one_runs_rows_in_the_models_ext_are_not_stored(tmp_path, new_processes):
    """The rows a refresh leaves in `ext` for its own run (the changed files' rows for
    `deps.affected`, the argument rows of `deps.provides`) are not stored: a model stored
    with them, as a run that failed between the refresh and `deps.affected` would leave it,
    is loaded without them and the rest of `ext` as it was."""
    root = _copy(tmp_path)
    db = str(tmp_path / "inc.duckdb")
    index(root, db, jobs=1, progress=False)
    path, token = stored.path_for(db), _token(db)
    model, _ = stored.load(path, token, RESOLVER_VERSION)
    kept_ext = dict(model.ext)
    model.ext[changedrows.KEY] = object()       # (would not even pickle)
    model.ext["deps.arg_rows"] = {"pkg/x.py": []}
    assert stored.save(path, token, model, RESOLVER_VERSION)
    loaded = stored.load(path, token, RESOLVER_VERSION)[0]
    assert changedrows.KEY not in loaded.ext and "deps.arg_rows" not in loaded.ext
    assert loaded.ext.keys() == kept_ext.keys()


def test_a_stored_model_without_the_argument_names_is_used_as_well(tmp_path, new_processes):
    """A model stored without the argument rows' names (by an incremental run that built its
    model from the tables, or by earlier code) is loaded and refreshed as well: evaluation
    asks the table for the argument rows instead, and the edges equal a fresh index's."""
    root = _copy(tmp_path)
    db = str(tmp_path / "inc.duckdb")
    index(root, db, jobs=1, progress=False)
    path, token = stored.path_for(db), _token(db)
    model, _ = stored.load(path, token, RESOLVER_VERSION)
    assert model._arg_names
    model._arg_names = None
    assert stored.save(path, token, model, RESOLVER_VERSION)
    assert stored.load(path, token, RESOLVER_VERSION)[0]._arg_names is None
    rng = random.Random(5)
    for _ in range(2):
        _edit_one(root, rng)
        r = index(root, db, jobs=1, progress=False)
        assert r.resolve_stats.model_stored and not r.resolve_stats.full
        _same_as_fresh(root, db, tmp_path)


def test_the_model_is_stored_once_the_run_is_over_and_never_by_a_failed_run(tmp_path, new_processes,
                                                                            monkeypatch):
    """Resolution only asks for the model to be stored (`stored.defer`); `index` writes it
    once the run's connection is closed. A run failing after that request stores nothing,
    and its request is gone."""
    root = _copy(tmp_path)
    db = str(tmp_path / "inc.duckdb")
    path = stored.path_for(db)
    asked = []
    real_defer = stored.defer

    def defer_then_fail(*args):
        real_defer(*args)
        asked.append(args)
        assert not os.path.exists(path)         # not written during the run
        raise RuntimeError("the run fails after resolution")

    monkeypatch.setattr(stored, "defer", defer_then_fail)
    with pytest.raises(RuntimeError):
        index(root, db, jobs=1, progress=False)
    assert asked and asked[0][1] == "save"
    assert not os.path.exists(path) and path not in stored._pending
    monkeypatch.setattr(stored, "defer", real_defer)
    index(root, db, jobs=1, progress=False)
    assert stored.load(path, _token(db), RESOLVER_VERSION) is not None and not stored._pending


def test_a_connection_given_stores_a_model_only_for_the_database_it_names(tmp_path, new_processes):
    from workbench import store
    from workbench.locations import default_db
    root = _copy(tmp_path)
    path = str(tmp_path / "given.duckdb")
    con = store.connect(path)
    try:
        index(root, jobs=1, progress=False, con=con)      # the database is not named
    finally:
        con.close()
    assert not os.path.exists(stored.path_for(default_db(root)))
    assert not os.path.exists(stored.path_for(path))
    con = store.connect(path)
    try:
        _edit_one(root, random.Random(3))
        index(root, path, jobs=1, progress=False, con=con)   # named: stored next to it
    finally:
        con.close()
    assert os.path.exists(stored.path_for(path))
    assert not os.path.exists(stored.path_for(default_db(root)))


def _count_loads(monkeypatch) -> list:
    """The tokens a stored model is looked for with (`stored.open_stored`, which
    `stored.load` calls too), in order, each with whether resolution had started then (the
    loads still happen)."""
    import workbench.resolve as resolve_pkg
    calls, resolving = [], []
    real_load, real_resolve = stored.open_stored, resolve_pkg.resolve_edges

    def counting(path, token, version):
        calls.append((token, bool(resolving)))
        return real_load(path, token, version)

    def resolve_edges(*a, **kw):
        resolving.append(1)
        try:
            return real_resolve(*a, **kw)
        finally:
            resolving.clear()
    monkeypatch.setattr(stored, "open_stored", counting)
    monkeypatch.setattr(resolve_pkg, "resolve_edges", resolve_edges)
    return calls


@pytest.mark.parametrize("jobs", [1, 2])
def test_the_stored_model_is_loaded_once_while_the_files_are_extracted(tmp_path, new_processes,
                                                                      monkeypatch, jobs):
    """A run of a new process loads the stored model while its changed files are parsed
    (by a parser process when `jobs` allows one), once, and resolution uses that model:
    the same edges as a fresh index. A run whose files were only touched loads nothing."""
    root = _copy(tmp_path)
    db = str(tmp_path / "inc.duckdb")
    index(root, db, jobs=jobs, progress=False)
    calls = _count_loads(monkeypatch)
    rng = random.Random(11)
    for _ in range(3):
        _edit_one(root, rng)
        token = _token(db)
        r = index(root, db, jobs=jobs, progress=False)
        assert r.resolve_stats.model_stored and r.changed == 1
        assert calls == [(token, False)]        # before resolution, once
        calls.clear()
        _same_as_fresh(root, db, tmp_path)
    some = sorted(root.rglob("*.py"))[0]
    st = some.stat()
    os.utime(some, (st.st_atime, st.st_mtime + 5))      # same bytes, a new time
    r = index(root, db, jobs=jobs, progress=False)
    assert r.changed == 0 and r.unchanged > 0 and r.resolve_stats.edges == 0
    assert calls == []


def test_a_preloaded_model_of_another_token_is_not_used(tmp_path, new_processes):
    """`resolve_edges(preloaded=...)` takes the model only for the database's own token."""
    from workbench import store
    from workbench.resolve import resolve_edges
    root = _copy(tmp_path)
    db = str(tmp_path / "inc.duckdb")
    index(root, db, jobs=1, progress=False)
    path = stored.path_for(db)
    got = stored.load(path, _token(db), RESOLVER_VERSION)
    assert got is not None
    _edit_one(root, random.Random(3))
    con = store.connect(db)
    try:
        stats = resolve_edges(con, ["shop/orders.py"], stored_at=path,
                              preloaded=("another-token", (None, set())))
    finally:
        con.close()
    assert stats.model_stored       # loaded from the file: the preloaded one was ignored


def _most_read(root: Path, db: str) -> tuple[Path, list[str]]:
    """The Python file of `db` whose last resolution read the most other files, and those."""
    with duckdb.connect(db, read_only=True) as con:
        path, files = con.execute("""SELECT path, files FROM resolve_deps WHERE path LIKE '%.py'
                                     ORDER BY len(files) DESC, path LIMIT 1""").fetchall()[0]
    return root / path, sorted(set(files) - {path})


def _most_called(root: Path, db: str) -> tuple[Path, list[str]]:
    """The Python file of `db` whose symbols the most edges of other files point at, and the
    other files its last resolution read."""
    with duckdb.connect(db, read_only=True) as con:
        path = con.execute("""SELECT s.path FROM edges e JOIN symbols s ON s.symbol_id = e.dst_id
                              WHERE e.path <> s.path AND s.path LIKE '%.py'
                              GROUP BY s.path ORDER BY count(*) DESC, s.path LIMIT 1""").fetchall()[0][0]
        files = con.execute("SELECT files FROM resolve_deps WHERE path = ?", [path]).fetchall()[0][0]
    return root / path, sorted(set(files) - {path})


def test_a_loaded_model_prefetches_in_a_thread_while_the_rows_are_stored(tmp_path, new_processes,
                                                                       monkeypatch, checked):
    """A run of a new process that loads the stored model takes what the changed file's last
    resolution read (`Model.prefetch_before`) in a thread, its scan sent before the model is
    unpickled, the rows held once it is loaded, while the run waits for the parser process
    and stores the rows (`readahead.Preload`), before it refreshes the model: its own
    prefetch then finds those files' rows loaded. The rows of the files the logged runs
    changed (the second and third runs) are read again by the refresh. The refreshed model,
    with every row held back grouped, equals a model built afresh (`checked`), the edges a
    fresh index's. The thread then reads the edges into the edited file's old symbols for
    `deps.rebind`: the rows its query reads in the run."""
    import threading
    root = _copy(tmp_path)
    db = str(tmp_path / "inc.duckdb")
    index(root, db, jobs=2, progress=False)
    path, read = _most_called(root, db)
    assert read
    early, held = [], []
    real_before, real_prefetch, real_refresh = Model.prefetch_before, Model.prefetch, Model.refresh

    def prefetch_before(self, con, paths, keys, scanned=None):
        early.append((threading.current_thread().name, sorted(paths), scanned is not None))
        return real_before(self, con, paths, keys, scanned)

    def prefetch(self, paths, keys, resolving=None):
        held.append(set(self._lazy_loaded))
        return real_prefetch(self, paths, keys, resolving)

    def refresh(self, con, changed):
        real_refresh(self, con, changed)        # (`checked`: compared with a fresh model)
        self.fill_pending()                     # every row held back grouped, and compared
        from test_resolve_kept import _check_same
        _check_same(self, con)

    real_rebind, read_before = deps.rebind, []

    def rebind(con, gone_ids=None, m=None, rows=None):
        # the edges into the gone symbols the prefetch's thread read: those the query reads now
        read_before.append(rows is not None)
        if rows is not None:
            now = con.execute("""SELECT edge_id, path, dst_qualname FROM edges
                                 WHERE dst_id IN (SELECT unnest($ids::BIGINT[]))""", {"ids": gone_ids}).fetchall()
            assert sorted(rows) == sorted(now)
            read_before.append(bool(now))
        return real_rebind(con, gone_ids, m, rows)

    monkeypatch.setattr(Model, "prefetch_before", prefetch_before)
    monkeypatch.setattr(Model, "prefetch", prefetch)
    monkeypatch.setattr(Model, "refresh", refresh)
    monkeypatch.setattr(deps, "rebind", rebind)
    for k in range(3):
        path.write_text(path.read_text(encoding="utf-8") + _ADD[".py"].replace("_kept", f"_kept{k}"),
                        encoding="utf-8")
        early.clear()
        held.clear()
        r = index(root, db, jobs=2, progress=False)
        assert r.resolve_stats.model_stored and not r.resolve_stats.full
        # (its scan made while the model was unpickled)
        assert [(e[0], e[2]) for e in early] == [("workbench-prefetch", True)] and set(read) <= set(early[0][1])
        assert held and set(read) <= held[0]    # loaded before the run's own prefetch
        assert read_before == [True, True]      # (edges of other files into the edited one)
        read_before.clear()
        _same_as_fresh(root, db, tmp_path)
    assert len(checked) == 3


def test_a_failed_prefetch_of_the_loaded_model_builds_it_from_the_tables(tmp_path, new_processes,
                                                                        monkeypatch):
    """A loaded model's prefetch that fails part-way leaves it half loaded: the run builds its
    model from the tables instead, and its edges equal a fresh index's."""
    root = _copy(tmp_path)
    db = str(tmp_path / "inc.duckdb")
    index(root, db, jobs=1, progress=False)
    path, _ = _most_read(root, db)

    def broken(self, con, paths, keys, scanned=None):
        self._lazy_loaded.add(sorted(paths)[0])
        raise RuntimeError("prefetch failed")

    monkeypatch.setattr(Model, "prefetch_before", broken)
    path.write_text(path.read_text(encoding="utf-8") + _ADD[".py"], encoding="utf-8")
    r = index(root, db, jobs=1, progress=False)
    assert not r.resolve_stats.model_stored and not r.resolve_stats.full
    _same_as_fresh(root, db, tmp_path)
