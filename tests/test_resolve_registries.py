"""Module-level registries filled by the module's own functions (`_rules.append(f)` in a
`rule` decorator, `TABLE[key] = fn` in a `register` function) hold what those functions
put in them, and the export applies decorators with their arguments bound (identity and
optional-argument decorators, stacked decorators, `functools.update_wrapper`): what the
edges say, and that an incremental re-index after an edit that adds or removes the
pattern gives the edges of a fresh index."""
from __future__ import annotations

from test_resolve_dynamic import _callees
from test_resolve_quiet import _append, _indexed, _replace, _write, edits_give_a_fresh_index
from workbench.callgraph import callgraph

FILES = {
    "lib.py": "_rules = []\nTABLE = {}\n\n\n"
              "def rule(f):\n    _rules.append(f)\n    return f\n\n\n"
              "def register(key, fn):\n    TABLE[key] = fn\n\n\n"
              "def run_all(x):\n    for f in _rules:\n        f(x)\n\n\n"
              "def lookup(key):\n    return TABLE[key]()\n",
    "app.py": "from lib import lookup, register, rule, run_all\n\n\n"
              "@rule\ndef check_a(x):\n    return x\n\n\n"
              "@rule\ndef check_b(x):\n    return check_a(x)\n\n\n"
              "def make():\n    return 1\n\n\n"
              "register('m', make)\n\n\n"
              "def main():\n    run_all(1)\n    return lookup('m')\n",
}


def test_registries_filled_by_module_functions(tmp_path):
    root, db = _indexed(tmp_path, FILES)
    # `_rules` at module level, appended to by `rule`: what `run_all` iterates
    assert _callees(db, "lib.run_all")["f"] == ("ambiguous", ["app.check_a", "app.check_b"])
    # `TABLE[key] = fn` in `register`: what `lookup` indexes
    assert _callees(db, "lib.lookup")["TABLE[key]"] == ("inferred", "app.make")


def test_export_applies_decorators_with_their_arguments(tmp_path):
    root = tmp_path / "repo"
    _write(root, FILES)
    graph = callgraph([str(root / "app.py")], package=str(root))
    # `rule` returns the function it records: `check_a` inside `check_b` is only `check_a`
    assert graph["app.check_b"] == ["app.check_a"]
    assert graph["lib.run_all"] == ["app.check_a", "app.check_b"]
    stacked = {"app.py": "import functools\n\n\n"
                         "def opt(func=None, *, flag=False):\n"
                         "    def wrap(func):\n        return func\n"
                         "    if func is None:\n        return wrap\n    return wrap(func)\n\n\n"
                         "def outer(f):\n    def wrapper(*a):\n        return f(*a)\n"
                         "    return functools.update_wrapper(wrapper, f)\n\n\n"
                         "def inner(f):\n    @functools.wraps(f)\n    def helper(*a):\n        return f(*a)\n"
                         "    return helper\n\n\n"
                         "@opt\ndef bare():\n    return 1\n\n\n"
                         "@opt(flag=True)\ndef called():\n    return 2\n\n\n"
                         "@outer\n@inner\ndef both():\n    return 3\n\n\n"
                         "def main():\n    return bare() + called() + both()\n"}
    root2 = tmp_path / "stacked"
    _write(root2, stacked)
    g = callgraph([str(root2 / "app.py")], package=str(root2))
    # bare `@opt` gives `bare` back, `@opt(...)` returns `wrap`, which gives `called` back
    assert g["app.main"] == ["app.bare", "app.called", "app.outer.wrapper"]
    assert "app.opt.wrap" in g["app"] and g["app.opt"] == ["app.opt.wrap"]
    # the outer decorator is handed the inner one's wrapper; `wraps(f)` applies update_wrapper
    assert g["app.outer.wrapper"] == ["app.inner.helper"]
    assert g["app.inner.helper"] == ["app.both"]
    assert g["app.inner"] == ["functools.update_wrapper", "functools.wraps"]


EDITS = {
    # another function registered through a new filler of the module's dict
    "filler added": ("lib.py", _append("\n\ndef register_twice(key, fn):\n    TABLE[key + '2'] = fn\n")),
    # the decorator stops recording the function
    "filler removed": ("lib.py", _replace("    _rules.append(f)\n", "    pass\n")),
    # the filler binds the name itself: its list is its own, not the module's
    "filler binds the name": ("lib.py", _replace("def rule(f):\n", "def rule(f):\n    _rules = []\n")),
    # a third rule registered from the other file
    "rule added elsewhere": ("app.py", _append("\n\n@rule\ndef check_c(x):\n    return x\n")),
}


test_edits_give_the_edges_of_a_fresh_index = edits_give_a_fresh_index(FILES, EDITS)
