"""The resolver's memo keeps clean results in two bounded generations (`memo.Memo`): a
result dropped from them is evaluated again when asked for, and must come out the same, so
a tiny bound gives the same edges as a bound never reached."""
from __future__ import annotations

import shutil
import sysconfig
from pathlib import Path

import pytest

import workbench
from workbench.resolve.memo import Memo

ROOT = Path(__file__).resolve().parent.parent
EDGES = """SELECT e.path, s.qualname, e.kind, e.dst_name, e.line, e.resolution, e.dst_qualname,
                  e.candidates
           FROM edges e LEFT JOIN symbols s ON s.symbol_id = e.src_id
           WHERE e.kind <> 'contains' ORDER BY ALL"""


def test_dropped_results_are_evaluated_again_and_results_in_use_stay():
    memo = Memo(40, max_clean=2)
    calls = []

    def f(x):
        calls.append(x)
        return x * 10

    assert memo(("k", 1), 0, False, 0, f, 1) == 10
    assert memo(("k", 2), 0, False, 0, f, 2) == 20      # full: a new generation
    assert not memo.clean and len(memo.old) == 2
    assert memo(("k", 1), 0, False, 0, f, 1) == 10      # found in the old one: moved back
    assert calls == [1, 2]
    assert list(memo.clean) == [("k", 1)] and list(memo.old) == [("k", 2)]
    assert memo(("k", 3), 0, False, 0, f, 3) == 30      # full again: ("k", 2) dropped
    assert list(memo.old) == [("k", 1), ("k", 3)] and not memo.clean
    assert memo(("k", 2), 0, False, 0, f, 2) == 20      # evaluated again
    assert calls == [1, 2, 3, 2]
    assert memo(("k", 1), 0, False, 0, f, 1) == 10
    assert calls == [1, 2, 3, 2]


def _cycle(own: frozenset):
    """`a` reads `b`, which reads `a` back and adds `own`: (memo, a, b, calls made)."""
    memo = Memo(40)
    none = frozenset()
    calls = []

    def a():
        calls.append("a")
        return frozenset({"a"}) | memo(("b", 0), 1, False, none, b)

    def b():
        calls.append("b")
        return own | memo(("a", 0), 2, False, none, a)

    memo.begin_unit()
    return memo, a, b, calls


def test_a_value_cut_empty_inside_a_cycle_is_evaluated_again_from_outside():
    # inside the cycle entered at `a`, `b` counts `a` as empty: asked later from outside
    # that cycle, `b` sees `a`'s value, not the cut, and is kept for the unit from then on
    none = frozenset()
    memo, a, b, calls = _cycle(none)
    assert memo(("a", 0), 0, False, none, a) == {"a"}
    assert memo(("b", 0), 0, False, none, b) == {"a"}
    assert calls == ["a", "b", "b"]
    assert memo(("b", 0), 0, False, none, b) == {"a"}
    assert calls == ["a", "b", "b"]
    # a value of its own found inside the cycle: kept for the unit as it came out
    memo, a, b, calls = _cycle(frozenset({"b"}))
    assert memo(("a", 0), 0, False, none, a) == {"a", "b"}
    assert memo(("b", 0), 0, False, none, b) == {"b"}
    assert calls == ["a", "b"]


def test_a_value_cut_by_the_depth_limit_is_used_only_as_deep_or_deeper():
    # a chain `k0 -> k1 -> ...` evaluated from depth 2 is cut after depth 3
    memo = Memo(3)
    none = frozenset()

    def step(n, depth):
        return frozenset({n}) | memo(("k", n + 1), depth + 1, True, none, step, n + 1, depth + 1)

    memo.begin_unit()
    assert memo(("k", 0), 2, True, none, step, 0, 2) == {0, 1}
    assert memo(("k", 1), 3, True, none, step, 1, 3) == {1}        # as deep: the same
    assert memo(("k", 1), 0, True, none, step, 1, 0) == {1, 2, 3, 4}    # nearer the top: further
    memo.begin_unit()
    assert memo(("k", 1), 0, True, none, step, 1, 0) == {1, 2, 3, 4}


def _edges(root: Path, db: Path, implicit: bool = False) -> list:
    wb = workbench.index(str(root), db=str(db), progress=False, jobs=1, implicit=implicit)
    try:
        return wb.sql(EDGES).fetchall()
    finally:
        wb.close()


def _corpora(tmp_path: Path) -> list[Path]:
    out = [p for p in sorted((ROOT / "sample_repos").iterdir()) if p.is_dir()]
    out += [p for p in sorted((ROOT / "tests" / "callgraph_cases").iterdir()) if p.is_dir()]
    # real code that calls across modules a lot
    lib = Path(sysconfig.get_paths()["stdlib"])
    std = tmp_path / "stdlib_part"
    for name in ("json", "email", "http", "urllib"):
        shutil.copytree(lib / name, std / name, ignore=shutil.ignore_patterns("__pycache__"))
    return out + [std]


@pytest.mark.parametrize("implicit", [False, True])
def test_tiny_bound_gives_the_edges_of_an_unbounded_memo(tmp_path, monkeypatch, implicit):
    """By default, and with implicit rows (`resolve.setting`: the Python programs and the
    standard library's part only, where they are)."""
    kept = []
    keep = Memo._keep

    def counting_keep(self, key, entry):
        keep(self, key, entry)
        kept.append(len(self.clean) + len(self.old))
    monkeypatch.setattr(Memo, "_keep", counting_keep)
    corpora = _corpora(tmp_path)
    if implicit:
        corpora = [ROOT / "tests" / "callgraph_cases" / "python", corpora[-1]]
    for i, root in enumerate(corpora):
        monkeypatch.setattr(Memo, "MAX_CLEAN", 10**9)
        unbounded = _edges(root, tmp_path / f"u{i}.duckdb", implicit)
        most = max(kept, default=0)
        kept.clear()
        monkeypatch.setattr(Memo, "MAX_CLEAN", 5)
        bounded = _edges(root, tmp_path / f"b{i}.duckdb", implicit)
        assert kept and max(kept) <= 10 and most > 10, root.name   # the bound was hit, and held
        kept.clear()
        assert bounded == unbounded, root.name
        assert any(r[5] != "unresolved" for r in unbounded), root.name
        # with the setting off, the only implicit rows are of classes raised without a call
        # (`raise E` runs `E.__init__`, case `raise_class_without_call`)
        assert any(r[5] == "implicit" and not r[3].endswith(".__init__") for r in unbounded) == implicit, root.name


def test_provides_in_small_groups_gives_the_same_tokens(tmp_path, monkeypatch):
    """`deps` gathers what files provide a group of files at a time (memory): the groups
    must not change the tokens or their digests."""
    import duckdb

    from workbench.resolve import deps
    from workbench.resolve.model import Model
    db = tmp_path / "p.duckdb"
    _edges(ROOT / "tests" / "callgraph_cases", db)
    con = duckdb.connect(str(db), read_only=True)
    try:
        m = Model(con, bulk_bindings=True)
        paths = set(m.paths)
        whole = deps._provides(con, m, paths)
        monkeypatch.setattr(deps, "_PROVIDES_GROUP", 3)
        assert deps._provides(con, m, paths) == whole
        assert len(paths) > 3 * 3 and any(t.startswith("a:") for v in whole.values() for t in v)
        assert {t[:2] for v in whole.values() for t in v} >= {"a:", "b:"}
    finally:
        con.close()
