"""A call written alike in the same scope as an earlier one of the unit takes that one's
answer (`Resolver.resolve_call`, kept among the memo's unit results): the edges are those of
evaluating every call afresh."""
from __future__ import annotations

import shutil
import sysconfig
from pathlib import Path

from workbench.resolve import evaluate

from test_resolve_memo import _edges as index_edges

ROOT = Path(__file__).resolve().parent.parent

CASE = '''
class Store:
    def put(self, k):
        return k


class Other:
    def put(self, k):
        return None


def fill(store: Store, items):
    store.put(1)
    store.put(2)
    for x in items:
        store.put(x)
    return store


def either(flag):
    s = Store() if flag else Other()
    s.put(1)
    s.put(2)
    missing(1)
    missing(2)
'''


def _edges(root: Path, db: Path, monkeypatch, fresh: bool, asked: list) -> list:
    resolve_call = evaluate.Resolver.resolve_call

    def patched(self, src_id, text, line=None):
        scope = self.m.ns(src_id)
        key = None
        if scope is not None:
            key = ("call", scope, self._callee_text(scope, text, line))
            asked.append(key in self.memo.local)
        try:
            return resolve_call(self, src_id, text, line)
        finally:
            if fresh and key is not None:
                self.memo.local.pop(key, None)      # evaluated afresh next time
    with monkeypatch.context() as mp:
        mp.setattr(evaluate.Resolver, "resolve_call", patched)
        return index_edges(root, db)


def _corpora(tmp_path: Path) -> list[Path]:
    case = tmp_path / "case"
    case.mkdir()
    (case / "mod.py").write_text(CASE)
    out = [case] + [p for p in sorted((ROOT / "tests" / "callgraph_cases").iterdir()) if p.is_dir()]
    lib = Path(sysconfig.get_paths()["stdlib"])
    std = tmp_path / "stdlib_part"
    for name in ("json", "email", "unittest"):
        shutil.copytree(lib / name, std / name, ignore=shutil.ignore_patterns("__pycache__"))
    return out + [std]


def test_a_call_written_alike_gets_the_answer_of_evaluating_it_again(tmp_path, monkeypatch):
    for i, root in enumerate(_corpora(tmp_path)):
        kept: list = []
        fresh: list = []
        with_kept = _edges(root, tmp_path / f"k{i}.duckdb", monkeypatch, False, kept)
        afresh = _edges(root, tmp_path / f"f{i}.duckdb", monkeypatch, True, fresh)
        assert with_kept == afresh, root.name
        assert not any(fresh), root.name
        if i == 0 or root.name == "stdlib_part":
            assert any(kept), root.name         # answers were taken


def test_the_small_case(tmp_path, monkeypatch):
    root = tmp_path / "case"
    root.mkdir()
    (root / "mod.py").write_text(CASE)
    asked: list = []
    rows = {(r[1], r[3], r[4]): r for r in _edges(root, tmp_path / "a.duckdb", monkeypatch, False, asked)
            if r[2] == "calls"}
    # the second and third `store.put` take the first one's answer, and say the same
    assert asked.count(True) >= 4
    assert rows[("mod.fill", "store.put", 14)][5:] == rows[("mod.fill", "store.put", 13)][5:]
    assert rows[("mod.fill", "store.put", 13)][6] == "mod.Store.put"
    assert rows[("mod.either", "s.put", 23)][5:] == rows[("mod.either", "s.put", 22)][5:]
    assert rows[("mod.either", "s.put", 22)][5] == "ambiguous"
    assert rows[("mod.either", "missing", 25)][5:] == rows[("mod.either", "missing", 24)][5:]
