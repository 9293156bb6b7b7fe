"""An endless recursion through a container's elements (`x = tuple(x)`: the elements of
`x` are its own elements) is cut by `Flows.elements_of` as soon as it repeats beyond the
memo's depth limit with nothing memoised in between: the `RecursionError` Python's
recursion limit would raise much deeper, at once. Edges come out the same as without the
cut, on a small case and on real code."""
from __future__ import annotations

import shutil
import sysconfig
from pathlib import Path

import workbench
from workbench.resolve import evaluate, flows

EDGES = """SELECT e.path, s.qualname, e.kind, e.dst_name, e.line, e.resolution, e.dst_qualname,
                  e.candidates
           FROM edges e LEFT JOIN symbols s ON s.symbol_id = e.src_id
           WHERE e.kind <> 'contains' ORDER BY ALL"""

CASE = '''
class Job:
    def run(self):
        return 1


def jobs(value):
    value = tuple(value)
    for v in value:
        v.run()
    return value


def rows(parts):
    parts = sorted(parts)
    parts = list(parts)
    for p in parts:
        p.run()


def plain():
    items = [Job(), Job()]
    for j in items:
        j.run()
'''


class _Never(dict):
    """An `_deep_elements` that never sees a repetition: no cut."""

    def get(self, key, default=None):
        return None

    def __setitem__(self, key, value):
        pass

    def __delitem__(self, key):
        pass


def _edges(root: Path, db: Path, cut: bool, monkeypatch, calls: list) -> list:
    init = evaluate.Resolver.__init__
    elements_of = flows.Flows.elements_of

    def patched_init(self, *a, **k):
        init(self, *a, **k)
        if not cut:
            self._deep_elements = _Never()

    def counted(self, v, depth):
        calls.append(depth)
        return elements_of(self, v, depth)
    with monkeypatch.context() as mp:
        mp.setattr(evaluate.Resolver, "__init__", patched_init)
        mp.setattr(flows.Flows, "elements_of", counted)
        wb = workbench.index(str(root), db=str(db), progress=False, jobs=1)
        try:
            return wb.sql(EDGES).fetchall()
        finally:
            wb.close()


def test_the_cut_gives_the_edges_of_the_full_recursion(tmp_path, monkeypatch):
    root = tmp_path / "case"
    root.mkdir()
    (root / "mod.py").write_text(CASE)
    cut_calls: list = []
    full_calls: list = []
    with_cut = _edges(root, tmp_path / "a.duckdb", True, monkeypatch, cut_calls)
    without = _edges(root, tmp_path / "b.duckdb", False, monkeypatch, full_calls)
    assert with_cut == without
    # the loop was there, and went on to the recursion limit only without the cut
    assert max(full_calls) > 5 * evaluate.Resolver.MAX_DEPTH
    assert max(cut_calls) <= 2 * evaluate.Resolver.MAX_DEPTH
    assert len(cut_calls) < len(full_calls) / 3
    # the call through `value` gets no evaluated target (the recursion error leaves it to
    # the guess by name); a plain list's elements resolve
    by_line = {(r[1], r[3]): r for r in with_cut if r[2] == "calls"}
    assert by_line[("mod.plain", "j.run")][5:7] == ("inferred", "mod.Job.run")
    assert by_line[("mod.jobs", "v.run")][5] == "name-unique"


def test_the_cut_gives_the_edges_of_the_full_recursion_on_real_code(tmp_path, monkeypatch):
    lib = Path(sysconfig.get_paths()["stdlib"])
    root = tmp_path / "stdlib_part"
    for name in ("email", "logging", "asyncio"):
        shutil.copytree(lib / name, root / name, ignore=shutil.ignore_patterns("__pycache__"))
    cut_calls: list = []
    full_calls: list = []
    with_cut = _edges(root, tmp_path / "a.duckdb", True, monkeypatch, cut_calls)
    without = _edges(root, tmp_path / "b.duckdb", False, monkeypatch, full_calls)
    assert max(full_calls) > 5 * evaluate.Resolver.MAX_DEPTH      # recursion errors were met
    assert len(cut_calls) < len(full_calls)
    assert with_cut == without
