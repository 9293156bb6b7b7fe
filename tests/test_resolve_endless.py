"""A container whose elements are its own elements (`x = tuple(x)`, `args = list(args)`: the
elements of `x` are those of `x`'s values, itself among them) is a cycle, cut by
`Flows.elements_of` as the memo cuts any other (`Memo.passing`): asked again inside their
own evaluation the elements are empty, so `x = tuple(x)` gives the elements of `x`'s other
values. No deep recursion, no `RecursionError` left to the guess by name."""
from __future__ import annotations

import shutil
import sysconfig
from pathlib import Path

import workbench
from workbench.resolve import evaluate, flows

CALLS = """SELECT s.qualname, e.dst_name, e.resolution, e.dst_qualname, e.candidates
           FROM edges e JOIN symbols s ON s.symbol_id = e.src_id
           WHERE e.kind = 'calls' ORDER BY ALL"""

CASE = '''
class Job:
    def run(self):
        return 1


class Task:
    def run(self):
        return 2


def jobs(value):
    value = [Job(), Job()]
    value = tuple(value)
    for v in value:
        v.run()
    return value


def rows(parts):
    parts = [Task()]
    parts = sorted(parts)
    parts = list(parts)
    for p in parts:
        p.run()


def plain():
    items = [Job(), Job()]
    for j in items:
        j.run()
'''

# what each call evaluates to, read off the code: the elements of a rebound name are those
# of its earlier values (`value = [Job(), Job()]` for `value = tuple(value)`)
EXPECTED = [
    ("mod.jobs", "Job", "local", "mod.Job", None),
    ("mod.jobs", "Job", "local", "mod.Job", None),
    ("mod.jobs", "tuple", "builtin", "tuple", None),
    ("mod.jobs", "v.run", "inferred", "mod.Job.run", None),
    ("mod.plain", "Job", "local", "mod.Job", None),
    ("mod.plain", "Job", "local", "mod.Job", None),
    ("mod.plain", "j.run", "inferred", "mod.Job.run", None),
    ("mod.rows", "Task", "local", "mod.Task", None),
    ("mod.rows", "list", "builtin", "list", None),
    ("mod.rows", "p.run", "inferred", "mod.Task.run", None),
    ("mod.rows", "sorted", "builtin", "sorted", None),
]


def _index(root: Path, db: Path, monkeypatch, depths: list, errors: list) -> list:
    elements_of = flows.Flows.elements_of
    resolve_call = evaluate.Resolver.resolve_call

    def counted(self, v, depth):
        depths.append(depth)
        return elements_of(self, v, depth)

    def noted(self, *a, **k):
        try:
            return resolve_call(self, *a, **k)
        except RecursionError:
            errors.append(a)
            raise
    with monkeypatch.context() as mp:
        mp.setattr(flows.Flows, "elements_of", counted)
        mp.setattr(evaluate.Resolver, "resolve_call", noted)
        wb = workbench.index(str(root), db=str(db), progress=False, jobs=1)
        try:
            return wb.sql(CALLS).fetchall()
        finally:
            wb.close()


def test_a_container_rebound_to_its_own_elements_gives_its_earlier_values(tmp_path, monkeypatch):
    root = tmp_path / "case"
    root.mkdir()
    (root / "mod.py").write_text(CASE)
    depths: list = []
    errors: list = []
    got = _index(root, tmp_path / "a.duckdb", monkeypatch, depths, errors)
    assert got == EXPECTED
    # the cycle was met and cut where it closed, not at a depth or recursion limit
    assert errors == []
    assert depths and max(depths) <= 4
    assert len(depths) < 60


def test_no_recursion_error_on_real_code(tmp_path, monkeypatch):
    lib = Path(sysconfig.get_paths()["stdlib"])
    root = tmp_path / "stdlib_part"
    for name in ("ensurepip", "concurrent", "logging", "tokenize.py", "linecache.py"):
        src = lib / name
        if src.is_dir():
            shutil.copytree(src, root / name, ignore=shutil.ignore_patterns("__pycache__"))
        else:
            root.mkdir(exist_ok=True)
            shutil.copy(src, root / name)
    depths: list = []
    errors: list = []
    got = _index(root, tmp_path / "a.duckdb", monkeypatch, depths, errors)
    assert got
    assert errors == []          # before the cut, calls in these files met such recursion errors
    assert max(depths) < 3 * evaluate.Resolver.MAX_DEPTH
