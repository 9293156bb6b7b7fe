"""Module-level names bound inside functions (`global x`) and PEP 562 module `__getattr__`:
a function's bindings of a name it declares `global` are the module's, read from other
functions and other files, when the repository makes them (not an outside call's
result); an attribute a module does not define is what its
`__getattr__` returns under `if name == "X":`, and nothing for a name no comparison
names; an incremental re-index after an edit gives the edges of a fresh index."""
from __future__ import annotations

import duckdb
import pytest
from test_resolve_dynamic import _callees
from test_resolve_quiet import _indexed, _replace, edits_give_a_fresh_index

from workbench import store
from workbench.indexer import index
from workbench.resolve import kept
from workbench.resolve.lang import python_globals
from workbench.resolve.model import Model

FILES = {
    "pool/__init__.py": "def __getattr__(name):\n"
                        "    global ThreadPool\n"
                        "    if name == 'ThreadPool':\n"
                        "        from .threads import ThreadPool as tp\n"
                        "        ThreadPool = tp\n"
                        "        return tp\n"
                        "    elif name == 'Legacy':\n"
                        "        return _Legacy\n"
                        "    raise AttributeError(name)\n\n\n"
                        "class _Legacy:\n"
                        "    def run(self):\n        return 0\n",
    "pool/threads.py": "class ThreadPool:\n"
                       "    def __init__(self, n):\n        self.n = n\n\n"
                       "    def submit(self, fn):\n        return fn()\n",
    "registry.py": "_db = None\n\n\n"
                   "class Registry:\n"
                   "    def guess(self, name):\n        return name\n\n\n"
                   "def init():\n"
                   "    global _db\n"
                   "    _db = Registry()\n\n\n"
                   "def guess(name):\n"
                   "    if _db is None:\n        init()\n"
                   "    return _db.guess(name)\n\n\n"
                   "def shadow(name):\n"
                   "    _db = name\n"
                   "    return _db\n",
    "tree.py": "def tostring(e):\n    return str(e)\n",
    "fresh.py": "import loader\n\nET = None\n_cache = None\n\n\n"
                "def setUpModule():\n"
                "    global ET, _cache\n"
                "    ET = loader.load_fresh('tree')\n"
                "    _cache = {}\n\n\n"
                "def check(e):\n"
                "    _cache.clear()\n"
                "    return ET.tostring(e)\n",
    "app.py": "import pool\nimport registry\n\n\n"
              "def work():\n    return 1\n\n\n"
              "def main():\n"
              "    p = pool.ThreadPool(2)\n"
              "    p.submit(work)\n"
              "    pool.Legacy().run()\n"
              "    pool.Unknown()\n"
              "    return registry._db.guess('a')\n",
}


def test_global_bindings_are_the_modules(tmp_path):
    root, db = _indexed(tmp_path, FILES)
    assert _callees(db, "registry.guess")["_db.guess"] == ("inferred", "registry.Registry.guess")
    got = _callees(db, "app.main")
    assert got["registry._db.guess"][1] == "registry.Registry.guess"
    assert got["pool.ThreadPool"][1] == "pool.threads.ThreadPool.__init__"
    assert got["p.submit"][1] == "pool.threads.ThreadPool.submit"


def test_only_values_the_repository_makes_bind_through_global(tmp_path):
    root, db = _indexed(tmp_path, FILES)
    got = _callees(db, "fresh.check")
    # the result of an outside call does not bind the module's `ET`: the call keeps its
    # own resolution, not the outside name `loader.load_fresh().tostring`
    assert got["ET.tostring"] == ("name-unique", "tree.tostring")
    # a container the function builds does
    assert got["_cache.clear"] == ("builtin", "dict.clear")


def test_module_getattr_names_compared(tmp_path):
    root, db = _indexed(tmp_path, FILES)
    got = _callees(db, "app.main")
    assert got["pool.Legacy().run"][1] == "pool._Legacy.run"
    # no `if name == "Unknown"`: nothing, not every value `__getattr__` returns
    assert got["pool.Unknown"][1] in ([], None)


EDITS = {
    "global declaration removed": ("registry.py", _replace("    global _db\n", "")),
    "case renamed": ("pool/__init__.py", _replace("name == 'Legacy'", "name == 'Older'")),
    "global added in a new function": ("registry.py", _replace(
        "def shadow(name):", "def reset():\n    global _db\n    _db = None\n\n\ndef shadow(name):")),
}


test_edits_give_the_edges_of_a_fresh_index = edits_give_a_fresh_index(FILES, EDITS)


@pytest.mark.parametrize("case", sorted(EDITS))
def test_a_kept_model_carries_its_declarations_over(tmp_path, case, monkeypatch):
    """A kept model carries the last run's `global` / `getattr_case` rows over but those of
    the edited file (whose rows it reads again, by the new symbols' ids) and holds what a
    model built afresh holds."""
    root, db = _indexed(tmp_path, FILES)
    rel, fn = EDITS[case]
    path = root / rel
    path.write_text(fn(path.read_text()))
    carried = []
    real = python_globals.refresh

    def note(m, old_ext, gone_ids, new):
        real(m, old_ext, gone_ids, new)
        carried.append(m.ext.get(python_globals._KEPT))
    monkeypatch.setattr(python_globals, "refresh", note)
    index(root, db, jobs=1, progress=False)
    assert len(carried) == 1 and carried[0] is not None
    rows, first = carried[0]
    con = duckdb.connect(db)
    try:
        fresh = Model(con, bulk_bindings=True)
        want = python_globals.declared(fresh)
        assert want[0] and want[1]
        every = fresh.ext[python_globals._ROWS]
        # the rows carried over: every row but the edited file's
        assert rows == [r for r in every if r[0] != rel]
        assert all(r[1] >= first for r in every if r[0] == rel)
        model = kept.peek(store.get_meta(con, "resolve_token"))
        assert model is not None
        model.con = con
        assert python_globals.declared(model) == want
        assert model.ext[python_globals._ROWS] == every
    finally:
        con.close()
