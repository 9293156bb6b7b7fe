"""A model kept in the process between index runs and refreshed for the changed files
(`Model.refresh`) holds what a model loaded afresh from the tables holds, and the edges of
such runs equal those of a fresh index of the edited tree."""
from __future__ import annotations

import os
import random
import shutil
from pathlib import Path

import duckdb
import pytest

from drift import copy_stdlib, differences, mutate
from workbench import store
from workbench.indexer import index
from workbench.resolve import kept, refresh, values
from workbench.resolve.model import Model

REPO = Path(__file__).resolve().parent.parent
SAMPLES = REPO / "sample_repos"


def _plain(obj):
    """Nested dicts / lists / sets with empty containers left out (a defaultdict read for a
    missing key leaves one behind)."""
    if isinstance(obj, dict):
        out = {}
        for k, v in obj.items():
            v = _plain(v)
            if v not in ({}, [], set(), None) or not isinstance(obj[k], (dict, list, set)):
                out[k] = v
        return out
    if isinstance(obj, list):
        return [_plain(v) for v in obj]
    return obj


def _without(obj, key: str, row=lambda d: True):
    """`obj` with `key` left out of every dict (a row) `row` accepts, at any depth."""
    if isinstance(obj, dict):
        if key in obj and row(obj):
            return {k: v for k, v in obj.items() if k != key}
        return {k: _without(v, key, row) for k, v in obj.items()}
    if isinstance(obj, list):
        return [_without(v, key, row) for v in obj]
    return obj


def _no_rid(obj):
    """Imports rows without their row id: DuckDB renumbers rows when it compacts a table
    after the run (a refresh reads the ids again, in its own transaction)."""
    return _without(obj, "rid")


_CORE = ("kind", "name", "qual", "parent", "path", "sig", "line", "fam", "bit_of", "decos",
         "declarations", "static", "classmeth", "prop", "file_module", "type_parts", "_sids",
         "_spaths", "children", "by_name", "imports", "imports_by_scope", "star_imports",
         "bases_written", "subclasses_written", "file_index", "paths", "file_lang")
_BINDINGS = ("binds", "returns", "yields", "elements", "attr_binds", "exports")


def _check_same(kept_model: Model, con) -> None:
    """Every index of `kept_model` equals that of a model built now from `con`; bindings:
    every scope and callee the kept model holds equals the fresh model's."""
    kept_rank = dict(values._RANK)
    kept_model._path_spans = kept_model._spans()
    fresh = Model(con, bulk_bindings=True)
    assert kept_rank == dict(values._RANK)
    # imports rows: each file's in table order, the files in any order; the resolved paths
    # of those whose rows a run reads again when it evaluates them (`current_imports`) aside
    known = kept_model._imports_current

    def current(obj):
        return _without(obj, "resolved_path", lambda row: known is not None and row["path"] not in known)
    for name in _CORE:
        a, b = (current(_no_rid(_plain(getattr(m, name)))) for m in (kept_model, fresh))
        if name == "imports":
            a, b = sorted(a, key=lambda r: r["path"]), sorted(b, key=lambda r: r["path"])
        assert a == b, f"model index {name} differs after refresh"
    assert kept_model._spans() == fresh._spans()
    if "python" in fresh.ext:
        assert kept_model.ext["python"].by_name == fresh.ext["python"].by_name
        assert kept_model.ext["python"].alias == fresh.ext["python"].alias
    for name in _BINDINGS:
        mine, theirs = getattr(kept_model, name), getattr(fresh, name)
        for scope, got in mine.items():
            if got:
                assert _plain(got) == _plain(theirs.get(scope)), f"{name} of scope {scope} differs"
    for key, rows in kept_model.args_by_callee.items():
        assert list(rows) == list(fresh.args_by_callee.get(key, ())), f"argument rows of {key} differ"
    for key, texts in kept_model.receivers.items():
        assert texts == fresh.receivers.get(key)
    if kept_model._texts is not None:           # kept texts of unchanged files, made again of changed ones
        assert kept_model.symbol_texts() == fresh.symbol_texts()
    if kept_model._arg_names is not None:       # every argument row's name under its key
        for key, rows in fresh.args_by_callee.items():
            assert {r[2] for r in rows} <= set(kept_model._arg_names.get(key, ())), key
    if kept_model._by_qual is not None:         # patched by the refresh, not built again
        assert _plain(kept_model._by_qual) == _plain(fresh.by_qual)
    if "python" in fresh.ext:                   # carried over, the new symbols' rows read
        from workbench.resolve.lang.python import Python
        assert Python._not_implemented(kept_model) == Python._not_implemented(fresh)
        from workbench.resolve.lang import python_globals
        assert python_globals.declared(kept_model) == python_globals.declared(fresh)


def _check_deps_rows(kept_model: Model, con) -> None:
    """The kept model's copy of `resolve_deps` (`Model.deps_rows`) equals the table."""
    if kept_model.deps_rows is None:
        return
    rows = sorted(zip(*(kept_model.deps_rows.column(c).to_pylist() for c in ("path", "files", "names", "provides"))))
    table = sorted(tuple(r) for r in con.execute("SELECT path, files, names, provides FROM resolve_deps").fetchall())
    assert rows == table and rows


def _check_row_texts(kept_model: Model, con, changed) -> None:
    """The kept row texts (`quiet.RowTexts`), before this run adds the changed files', hold
    every text of the other files' rows that `quiet._fresh` searches."""
    rt = kept_model.row_texts
    if rt is None:
        return
    held = set(b"\n".join([*rt.chunks, *rt.recent.values()]).decode("utf-8").split("\n"))
    rows = con.execute("""
        SELECT module, name, alias FROM imports WHERE NOT list_contains($c, path)
        UNION ALL SELECT dst_name, NULL, NULL FROM edges
                  WHERE kind IN ('calls', 'imports', 'inherits', 'implements') AND NOT list_contains($c, path)
        UNION ALL SELECT name, value, value_type FROM bindings WHERE NOT list_contains($c, path)""",
                       {"c": sorted(changed)}).fetchall()
    texts = {t for row in rows for t in row if t}
    assert texts and texts <= held, sorted(texts - held)[:5]


@pytest.fixture
def checked(monkeypatch):
    """Every `Model.refresh` is followed by the comparison with a model built afresh from
    the same connection, inside the run (row ids and resolved paths are those of the
    moment); returns the list of refreshes checked."""
    done = []
    refresh = Model.refresh

    def refresh_and_check(self, con, changed):
        refresh(self, con, changed)
        _check_same(self, con)
        _check_row_texts(self, con, changed)
        _check_deps_rows(self, con)
        # what the changed files provide, from the argument rows the refresh read: as queried
        from workbench.resolve import deps
        held = self.ext.get("deps.arg_rows")
        assert held is not None and held.keys() == set(changed) & self.paths
        assert deps._provides(con, self, set(held)) == deps._provides_group(con, self, set(held))
        done.append(sorted(changed))

    monkeypatch.setattr(Model, "refresh", refresh_and_check)
    from workbench.resolve import quiet
    real_quiet = quiet.quiet

    def check_then_quiet(con, before, m, after=None):
        # what `quiet` searches, as this run's refresh left it (a stored model's texts with
        # the logged runs' files added): every other file's texts
        _check_row_texts(m, con, before)
        _check_symbol_texts(m, con)
        return real_quiet(con, before, m, after)

    monkeypatch.setattr(quiet, "quiet", check_then_quiet)
    return done


def _check_symbol_texts(m: Model, con) -> None:
    """The blob of the model's symbol texts (`Model.symbol_texts_blob`) holds every line of
    each file's texts now, but for the files changed since it was made, whose texts
    `Model.symbol_text` makes as a fresh model has them."""
    if m._texts_blob is None:
        return
    fresh = Model(con, bulk_bindings=False).symbol_texts()
    blob, since = m.symbol_texts_blob()
    lines = set(blob.decode("utf-8", "surrogatepass").split("\n"))
    for path, text in fresh.items():
        if path in since:
            assert m.symbol_text(path) == text, path
        else:
            assert set(text.split("\n")) <= lines, path


def _index_and_check(root: Path, db: str, fresh_db: str):
    report = index(root, db, jobs=1, progress=False)
    assert report.changed_paths
    Path(fresh_db).unlink(missing_ok=True)
    index(root, fresh_db, jobs=1, progress=False)
    assert differences(db, fresh_db) == []
    return report


# edits that keep every file: a definition added, text duplicated (every name defined
# twice), a file emptied of its second half; per language, appended in its own syntax
_ADD = {".py": "\n\ndef _kept_added(x):\n    return helper_kept(x).strip()\n\ndef helper_kept(y):\n    return str(y)\n",
        ".go": "\n\nfunc keptAdded(x int) int {\n\treturn keptHelper(x) + 1\n}\n\nfunc keptHelper(y int) int {\n\treturn y\n}\n",
        ".rs": "\n\npub fn kept_added(x: i32) -> i32 {\n    kept_helper(x) + 1\n}\n\nfn kept_helper(y: i32) -> i32 {\n    y\n}\n",
        ".java": "\n\nclass KeptAdded {\n    int run(int x) { return new KeptAdded().helper(x); }\n    int helper(int y) { return y; }\n}\n",
        ".ts": "\n\nexport function keptAdded(x: number): number {\n  return keptHelper(x) + 1;\n}\n\nfunction keptHelper(y: number): number {\n  return y;\n}\n",
        ".c": "\n\nstatic int kept_helper(int y) { return y; }\nint kept_added(int x) { return kept_helper(x) + 1; }\n",
        ".cpp": "\n\nnamespace kept { int helper(int y) { return y; } int added(int x) { return helper(x) + 1; } }\n",
        ".h": "\n\nint kept_declared(int x);\n",
        ".hpp": "\n\nnamespace kept { struct Added { int run(int x); }; }\n"}


def _edit(path: Path, rng: random.Random) -> None:
    text = path.read_text(encoding="utf-8")
    how = rng.choice(("add", "twice", "half"))
    if how == "add" and path.suffix in _ADD:
        text += _ADD[path.suffix]
    elif how == "twice":
        text = text + "\n" + text
    else:
        lines = text.splitlines(keepends=True)
        text = "".join(lines[: max(1, len(lines) // 2)])
    path.write_text(text, encoding="utf-8")
    st = path.stat()
    os.utime(path, (st.st_atime, st.st_mtime + 5))


@pytest.mark.parametrize("sample", ["pyshop", "tsapp", "javaservice", "goservice", "rustlib", "cnative"])
def test_kept_model_equals_a_fresh_one_after_edits(tmp_path, sample, checked):
    root = tmp_path / sample
    shutil.copytree(SAMPLES / sample, root)
    db, fresh_db = str(tmp_path / "inc.duckdb"), str(tmp_path / "fresh.duckdb")
    index(root, db, jobs=1, progress=False)
    files = sorted(p for p in root.rglob("*") if p.is_file() and p.suffix in _ADD)
    assert files
    rng = random.Random(sample)
    for _ in range(4):
        for path in rng.sample(files, k=min(2, len(files))):
            _edit(path, rng)
        report = _index_and_check(root, db, fresh_db)
        assert report.resolve_stats.model_kept
    assert len(checked) == 4


def test_kept_model_on_stdlib_edits(tmp_path, checked):
    """Real code, edited the way people edit it (files added and deleted too: those runs
    build the model afresh, the next ones refresh it)."""
    root = copy_stdlib(tmp_path / "corpus", ("json", "email", "http", "logging", "argparse.py", "shutil.py",
                                             "enum.py", "types.py"))
    db, fresh_db = str(tmp_path / "inc.duckdb"), str(tmp_path / "fresh.duckdb")
    index(root, db, jobs=1, progress=False)
    rng = random.Random(11)
    for trial in range(3):
        mutate(root, rng, n_files=3, add_delete=(trial == 1))
        _index_and_check(root, db, fresh_db)
    assert len(checked) >= 1


def test_a_model_is_kept_only_for_its_own_database_state(tmp_path):
    """Another writer (here: a run without resolution) leaves no token the kept model
    answers to: the next run builds its model afresh, and its edges equal a fresh index."""
    root = tmp_path / "pyshop"
    shutil.copytree(SAMPLES / "pyshop", root)
    db, fresh_db = str(tmp_path / "inc.duckdb"), str(tmp_path / "fresh.duckdb")
    index(root, db, jobs=1, progress=False)
    files = sorted(root.rglob("*.py"))
    _edit(files[0], random.Random(1))
    index(root, db, jobs=1, progress=False, resolve=False)
    con = duckdb.connect(db, read_only=True)
    try:
        assert store.get_meta(con, "resolve_token") is None
    finally:
        con.close()
    _edit(files[1], random.Random(2))
    report = index(root, db, jobs=1, progress=False)
    assert report.resolve_stats is not None and not report.resolve_stats.model_kept
    index(root, fresh_db, jobs=1, progress=False)
    assert differences(db, fresh_db) == []


def test_forget_lets_kept_models_go(tmp_path):
    root = tmp_path / "pyshop"
    shutil.copytree(SAMPLES / "pyshop", root)
    index(root, str(tmp_path / "a.duckdb"), jobs=1, progress=False)
    assert kept.kept() >= 1
    kept.forget()
    assert kept.kept() == 0


def test_a_run_that_fails_leaves_no_model_behind(tmp_path, monkeypatch):
    """A run that fails after refreshing the model rolls the database back: the model no
    longer matches it and must not be used by the next run."""
    from workbench.resolve import passes
    root = tmp_path / "pyshop"
    shutil.copytree(SAMPLES / "pyshop", root)
    db, fresh_db = str(tmp_path / "inc.duckdb"), str(tmp_path / "fresh.duckdb")
    index(root, db, jobs=1, progress=False)
    files = sorted(root.rglob("*.py"))
    _edit(files[2], random.Random(3))
    index(root, db, jobs=1, progress=False)          # leaves a refreshable model
    _edit(files[3], random.Random(4))

    def broken(*args, **kwargs):
        raise RuntimeError("disk full")

    with monkeypatch.context() as mp:
        mp.setattr(passes, "_write_back", broken)
        with pytest.raises(RuntimeError):
            index(root, db, jobs=1, progress=False)
    report = index(root, db, jobs=1, progress=False)
    assert not report.resolve_stats.model_kept
    index(root, fresh_db, jobs=1, progress=False)
    assert differences(db, fresh_db) == []


def test_patched_ranks_equal_ranks_set_anew_and_only_their_owner_patches(monkeypatch):
    """A refresh sets the canonical places again only from the first one a changed file
    held (`values.patch_rank`); a model whose ranks are no longer in force (another model
    set its own since) sets them all."""
    monkeypatch.setattr(values, "_RANK", {})
    monkeypatch.setattr(values, "_KEYS", {})
    monkeypatch.setattr(values, "_RANK_OWNER", None)
    a, b = object(), object()
    old = [10, 11, 12, 13, 14]
    values.set_rank(dict(zip(old, range(len(old)))), a)
    values._KEYS[("x", 13)] = "stale"
    new = [10, 11, 20, 21, 13, 14]      # 12 gone, 20 and 21 new in its place
    values.patch_rank(a, new, 2, [12])
    assert values._RANK == dict(zip(new, range(len(new))))
    assert values._KEYS == {}
    values.set_rank({1: 0, 2: 1}, b)    # another model's ranks in force
    values.patch_rank(a, new, 5, [])
    assert values._RANK == dict(zip(new, range(len(new))))
    assert values._RANK_OWNER is a
    values.patch_rank(None, old, 4, [])  # no owner: set anew
    assert values._RANK == dict(zip(old, range(len(old))))


def test_spans_are_each_files_run_of_the_load_order(tmp_path):
    root = tmp_path / "repo"
    root.mkdir()
    for name, body in (("b.py", "def f():\n    pass\n\n\nclass K:\n    def m(self):\n        pass\n"),
                       ("a.py", "x = 1\n"), ("c/d.py", "def g():\n    return 2\n")):
        (root / name).parent.mkdir(parents=True, exist_ok=True)
        (root / name).write_text(body)
    db = str(tmp_path / "db.duckdb")
    index(root, db, jobs=1, progress=False)
    con = duckdb.connect(db, read_only=True)
    try:
        m = Model(con, bulk_bindings=False)
        counts = dict(con.execute("SELECT path, count(*) FROM symbols GROUP BY path").fetchall())
    finally:
        con.close()
    spans = m._spans()
    assert list(spans) == sorted(spans) == ["a.py", "b.py", "c/d.py"]
    assert [m._spaths[a:b] for a, b in spans.values()] == [[p] * (b - a) for p, (a, b) in spans.items()]
    assert {p: b - a for p, (a, b) in spans.items()} == counts
    assert counts["b.py"] == 4                          # the module, f, K, K.m
    assert max(b for _, b in spans.values()) == len(m._sids)


def test_spliced_load_order_equals_the_order_made_file_by_file():
    """A refresh splices the changed files' new symbols into the load order where their
    old ones were (`refresh._spliced`): the columns and spans equal those made file by file
    in path order, for edits that grow, shrink or keep files, first, last or several."""
    rng = random.Random(7)
    for _ in range(200):
        paths = sorted(rng.sample([f"f{i:02d}.py" for i in range(30)], rng.randint(1, 12)))
        sids, spaths, spans, next_id = [], [], {}, 1
        for p in paths:
            n = rng.randint(1, 4)
            spans[p] = (len(sids), len(sids) + n)
            sids += range(next_id, next_id + n)
            spaths += [p] * n
            next_id += n
        changed = sorted(rng.sample(paths, rng.randint(1, len(paths))))
        mine = {}
        for p in changed:
            n = rng.randint(1, 5)
            mine[p] = list(range(next_id, next_id + n))
            next_id += n
        want_ids, want_paths, want_spans = [], [], {}
        for p in paths:
            a, b = spans[p]
            got = mine.get(p)
            start = len(want_ids)
            want_ids += got if got is not None else sids[a:b]
            want_paths += [p] * (len(got) if got is not None else b - a)
            want_spans[p] = (start, len(want_ids))
        out = refresh._spliced(list(sids), list(spaths), dict(spans), changed, mine)
        assert out[0] == want_ids and out[1] == want_paths
        assert list(out[2].items()) == list(want_spans.items())


def _pyshop_kept(tmp_path: Path) -> tuple[Path, str]:
    """(root, database): a copy of the pyshop sample indexed in this process, whose model
    is then the only one kept."""
    kept.forget()
    root = tmp_path / "pyshop"
    shutil.copytree(SAMPLES / "pyshop", root)
    db = str(tmp_path / "s.duckdb")
    index(root, db, jobs=1, progress=False)
    return root, db


def test_a_full_index_leaves_its_kept_model_with_its_symbol_texts(tmp_path):
    """The indexer has a full run's kept model make its symbol texts once the run is over
    (`kept.settle`), and they equal those of a model loaded afresh."""
    root, db = _pyshop_kept(tmp_path)
    assert kept.kept() == 1
    model = next(iter(kept._models.values()))
    assert model._texts is not None
    with duckdb.connect(db, read_only=True) as con:
        assert model._texts == Model(con, bulk_bindings=False).symbol_texts()
    kept.forget()


def test_a_full_index_leaves_its_kept_model_with_the_row_texts(tmp_path):
    """A full run's kept model holds the texts `quiet._fresh` searches (`quiet.RowTexts`);
    a run that changes more files than it takes the facts of lets them go (their new texts
    are not at hand), and the next full run makes them again."""
    from workbench.resolve import quiet
    root, db = _pyshop_kept(tmp_path)
    model = next(iter(kept._models.values()))
    assert model.row_texts is not None and model.row_texts.chunks[0]
    files = sorted(root.rglob("*.py"))
    assert len(files) > quiet.FACTS_MAX
    for k, path in enumerate(files):
        path.write_text(path.read_text(encoding="utf-8") + f"\n\ndef _many_{k}():\n    return {k}\n",
                        encoding="utf-8")
        st = path.stat()
        os.utime(path, (st.st_atime, st.st_mtime + 5))
    r = index(root, db, jobs=1, progress=False)
    assert r.resolve_stats.model_kept and not r.resolve_stats.full
    assert next(iter(kept._models.values())).row_texts is None
    kept.forget()


def test_a_full_index_leaves_its_kept_model_with_the_rows_of_the_most_read_files(tmp_path):
    """A full run whose model is kept holds, once its writes are done, the bindings rows of
    the files at least `HOLD_READ_SHARE` of the files read (as `resolve_deps` says), and
    no argument rows: those rows equal a bulk load's, scope by scope, grouped by the time
    the run returns (`kept.settle`). The first run's prefetch asks only for the other
    files (then the model holds every file it read)."""
    from workbench.resolve import passes
    root, db = _pyshop_kept(tmp_path)
    model = next(iter(kept._models.values()))
    with duckdb.connect(db, read_only=True) as con:
        rows = con.execute("SELECT path, files FROM resolve_deps").fetchall()
        need = max(2, passes.HOLD_READ_SHARE * len(rows))
        readers: dict[str, int] = {}
        for _, files in rows:
            for f in files or ():
                readers[f] = readers.get(f, 0) + 1
        most = {f for f, n in readers.items() if n >= need}
        assert most and model._lazy_loaded == most and not model.args_by_callee
        assert model.first_prefetch()
        bulk = Model(con, bulk_bindings=True)
    # grouped once the run was over (`kept.settle`): none left for evaluation to group
    assert not model._pending
    held = 0
    for name in _BINDINGS:
        for scope, got in getattr(model, name).items():
            assert model.path[scope] in most
            assert _plain(got) == _plain(getattr(bulk, name).get(scope)), f"{name} of scope {scope} differs"
            held += 1
    for name in _BINDINGS:          # and every scope of those files the bulk load groups
        for scope, got in getattr(bulk, name).items():
            if got and bulk.path[scope] in most:
                assert scope in getattr(model, name), (name, scope)
    assert held
    kept.forget()
    # the first incremental run asks only for the files it read that are not held
    root, db = _pyshop_kept(tmp_path / "again")
    model = next(iter(kept._models.values()))
    path, read = _most_read_file(root, db)
    asked = []
    real = Model._prefetch_in_one_scan

    def one_scan(self, paths, keys, con=None):
        import threading
        if threading.current_thread().name == "workbench-prefetch":
            asked.append(list(paths))
        return real(self, paths, keys, con)

    with pytest.MonkeyPatch.context() as mp:
        mp.setattr(Model, "_prefetch_in_one_scan", one_scan)
        path.write_text(path.read_text(encoding="utf-8") + _ADD[".py"], encoding="utf-8")
        st = path.stat()
        os.utime(path, (st.st_atime, st.st_mtime + 5))
        held_before = set(model._lazy_loaded)
        report = _index_and_check(root, db, str(tmp_path / "fresh.duckdb"))
    assert report.resolve_stats.model_kept
    assert asked and all(not set(paths) & held_before for paths in asked)
    assert set(read) <= model._lazy_loaded
    kept.forget()


def test_a_refresh_reads_the_imports_rows_of_the_files_a_run_evaluates(tmp_path):
    """A refresh reads only the changed files' imports rows; the others' row ids and
    resolved paths are read again for the files a run evaluates (`current_imports`), and
    then equal a fresh model's, whatever a compaction renumbered."""
    root, db = _pyshop_kept(tmp_path)
    model = next(iter(kept._models.values()))
    files = sorted(root.rglob("*.py"))
    rel = str(files[0].relative_to(root))
    with duckdb.connect(db) as con:
        con.execute("CHECKPOINT").fetchall()
        model.refresh(con, [rel])
        assert model._imports_current == {rel}
        others = sorted(model.paths - {rel})
        model.current_imports(others[:2])
        assert model._imports_current == {rel, *others[:2]}
        model.current_imports(model.paths)
        fresh = Model(con, bulk_bindings=True)

        def rows(m):
            return sorted(([r["path"], r["line"], r["rid"], r["resolved_path"], r["module"], r["name"]]
                           for r in m.imports), key=repr)
        assert rows(model) == rows(fresh) and any(r[3] for r in rows(fresh))
    kept.forget()


def test_the_edited_files_facts_come_from_the_rows_the_refresh_read(tmp_path, monkeypatch):
    """The rows a refresh reads (`changedrows.ChangedRows`) give the facts the tables give
    (`quiet.facts`), and fall back to the tables for files they do not hold; an incremental
    run with a kept model takes the edited file's facts after the edit from the rows its
    refresh read, which the model keeps no longer after the run."""
    from workbench.resolve import changedrows, quiet
    root, db = _pyshop_kept(tmp_path)
    files = sorted(str(p.relative_to(root)) for p in root.rglob("*.py"))
    with duckdb.connect(db, read_only=True) as con:
        rows = changedrows.ChangedRows(con, files[:3], Model._CALLEE_KEY)
        want = quiet.facts(con, files[:3])
        assert quiet.facts(con, files[:3], rows=rows) == want
        assert all(sum(c.values()) for c in want.values())
        assert quiet.facts(con, files[:2], rows=rows) == quiet.facts(con, files[:2])
        assert rows.covers(files[:2]) and not rows.covers(files[2:4])
        assert quiet.facts(con, files[2:4], rows=rows) == quiet.facts(con, files[2:4])
    given = []
    real = quiet.facts

    def facts(con, paths, ids=None, rows=None):
        given.append((sorted(set(paths)), rows is not None and rows.covers(paths)))
        return real(con, paths, ids, rows)
    monkeypatch.setattr(quiet, "facts", facts)
    path = root / files[0]
    path.write_text(path.read_text(encoding="utf-8") + _ADD[".py"], encoding="utf-8")
    st = path.stat()
    os.utime(path, (st.st_atime, st.st_mtime + 5))
    report = _index_and_check(root, db, str(tmp_path / "fresh.duckdb"))
    assert report.resolve_stats.model_kept
    # before the edit from the tables, after it from the refresh's rows
    assert given == [([files[0]], False), ([files[0]], True)]
    assert changedrows.KEY not in next(iter(kept._models.values())).ext
    kept.forget()


def test_kept_model_follows_a_header_turning_cpp(tmp_path, checked):
    """A `.h` header is C until it holds C++ only syntax: an incremental run re-detects its
    language, and the kept model's file languages follow (as a model loaded afresh)."""
    root = tmp_path / "cnative"
    shutil.copytree(SAMPLES / "cnative", root)
    db, fresh_db = str(tmp_path / "inc.duckdb"), str(tmp_path / "fresh.duckdb")
    index(root, db, jobs=1, progress=False)
    header = next(p for p in sorted(root.rglob("*.h")) if b"class" not in p.read_bytes())
    rel = header.relative_to(root).as_posix()

    def language():
        con = duckdb.connect(db, read_only=True)
        try:
            return con.execute("SELECT language FROM files WHERE path = ?", [rel]).fetchall()[0][0]
        finally:
            con.close()
    assert language() == "c"
    for text, lang in (("\n\nnamespace kept { class Added { public: int run(int x); }; }\n", "cpp"), ("\n", "c")):
        base = header.read_text(encoding="utf-8")
        if lang == "c":
            base = base.split("\n\nnamespace kept")[0]
        header.write_text(base + text, encoding="utf-8")
        st = header.stat()
        os.utime(header, (st.st_atime, st.st_mtime + 5))
        report = _index_and_check(root, db, fresh_db)
        assert report.resolve_stats.model_kept and language() == lang
    assert len(checked) == 2


def _most_read_file(root: Path, db: str) -> tuple[Path, list[str]]:
    """The file of `db` whose last resolution read the most other files, and those files."""
    with duckdb.connect(db, read_only=True) as con:
        path, files = con.execute("""SELECT path, files FROM resolve_deps WHERE path LIKE '%.py'
                                     ORDER BY len(files) DESC, path LIMIT 1""").fetchall()[0]
    return root / path, sorted(set(files) - {path})


def test_the_first_run_after_a_full_index_prefetches_while_it_stores(tmp_path, checked, monkeypatch):
    """The first incremental run after a full index in this process takes what the changed
    file's last resolution read (`Model.prefetch_before`) in a thread while it extracts and
    stores (`readahead.Prefetch`), before the kept model is refreshed: the run's own prefetch
    then finds those files' rows loaded. The refreshed model equals a fresh one (`checked`),
    the edges a fresh index's."""
    import threading
    root, db = _pyshop_kept(tmp_path)
    path, read = _most_read_file(root, db)
    assert read
    rel = str(path.relative_to(root))
    early, held = [], []
    real_before, real_prefetch = Model.prefetch_before, Model.prefetch

    def prefetch_before(self, con, paths, keys):
        early.append((threading.current_thread().name, sorted(paths)))
        return real_before(self, con, paths, keys)

    def prefetch(self, paths, keys, resolving=None):
        held.append(set(self._lazy_loaded))
        return real_prefetch(self, paths, keys, resolving)

    monkeypatch.setattr(Model, "prefetch_before", prefetch_before)
    monkeypatch.setattr(Model, "prefetch", prefetch)
    path.write_text(path.read_text(encoding="utf-8") + _ADD[".py"], encoding="utf-8")
    st = path.stat()
    os.utime(path, (st.st_atime, st.st_mtime + 5))
    report = _index_and_check(root, db, str(tmp_path / "fresh.duckdb"))
    assert report.resolve_stats.model_kept and report.changed_paths == [rel]
    # (the fresh index's full run holds the most read files' rows the same way, at its end)
    threaded = [e for e in early if e[0] == "workbench-prefetch"]
    assert len(threaded) == 1 and set(read) <= set(threaded[0][1])
    assert held and set(read) <= held[0]        # loaded before the run's own prefetch
    assert checked == [[rel]]
    # the next run's model holds bindings: no prefetch of its own
    path.write_text(path.read_text(encoding="utf-8") + "\n\ndef _again():\n    return 1\n", encoding="utf-8")
    os.utime(path, (st.st_atime, st.st_mtime + 10))
    assert index(root, db, jobs=1, progress=False).resolve_stats.model_kept
    assert len([e for e in early if e[0] == "workbench-prefetch"]) == 1
    kept.forget()


def test_a_prefetch_that_fails_lets_the_kept_model_go(tmp_path, monkeypatch):
    """A prefetch before the refresh that fails part-way (`readahead.Prefetch`) leaves the
    model half loaded: the run builds its model afresh, and its edges equal a fresh index's."""
    root, db = _pyshop_kept(tmp_path)
    path, _ = _most_read_file(root, db)

    def broken(self, con, paths, keys):
        self._lazy_loaded.add(sorted(paths)[0])
        raise RuntimeError("prefetch failed")

    monkeypatch.setattr(Model, "prefetch_before", broken)
    path.write_text(path.read_text(encoding="utf-8") + _ADD[".py"], encoding="utf-8")
    st = path.stat()
    os.utime(path, (st.st_atime, st.st_mtime + 5))
    report = _index_and_check(root, db, str(tmp_path / "fresh.duckdb"))
    assert not report.resolve_stats.model_kept and not report.resolve_stats.full
    kept.forget()


def test_readers_from_the_kept_copy_of_resolve_deps_equal_the_tables(tmp_path):
    """`deps.affected` finds the readers of files and names in the kept model's copy of
    `resolve_deps` (`Model.deps_rows`, rows replaced by slices over runs) as the query over
    the table finds them."""
    from workbench.resolve import deps
    root = tmp_path / "pyshop"
    shutil.copytree(SAMPLES / "pyshop", root)
    db = str(tmp_path / "x.duckdb")
    index(root, db, jobs=1, progress=False)
    files = sorted(p for p in root.rglob("*.py"))
    rng = random.Random(3)
    for _ in range(3):
        for path in rng.sample(files, k=2):
            _edit(path, rng)
        assert index(root, db, jobs=1, progress=False).resolve_stats.model_kept
    con = duckdb.connect(db)
    try:
        model = kept.peek(store.get_meta(con, "resolve_token"))
        assert model is not None and model.deps_rows is not None
        assert model.deps_rows.column(0).num_chunks > 1          # slices of several runs
        read_files = sorted({f for (fs,) in con.execute("SELECT files FROM resolve_deps").fetchall() for f in fs or ()})
        names = sorted({n for (ns,) in con.execute("SELECT names FROM resolve_deps").fetchall() for n in ns or ()})
        assert read_files and names
        for k in range(0, len(read_files), 3):
            for chosen in ([read_files[k]], read_files[k:k + 3]):
                got = deps._readers(con, model, chosen, [])
                assert got and got == deps._readers(con, None, chosen, [])
        for k in range(0, len(names), max(1, len(names) // 20)):
            chosen = names[k:k + 2]
            got = deps._readers(con, model, read_files[:1], chosen)
            assert got == deps._readers(con, None, read_files[:1], chosen)
            assert deps._readers(con, model, [], chosen) == deps._readers(con, None, [], chosen)
        assert deps._readers(con, model, [], []) == set() == deps._readers(con, None, [], [])
        assert deps._readers(con, model, ["no/such.py"], ["b:python:no_such_name"]) == set()
    finally:
        con.close()
