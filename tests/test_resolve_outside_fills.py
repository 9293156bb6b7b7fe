"""Containers held in an attribute of an object and filled from outside its class or module
(`Members.filled_outside`): `env.filters[k] = f`, `hook.impls.append(f)`,
`app.funcs.setdefault(k, []).append(f)`, `mod.handlers.append(f)` count as that attribute's
elements where the class's (or module's) own code reads it; what the edges say, and that an
incremental re-index after an edit that adds, moves or removes such a fill, in the file
that reads the container or in another, gives the edges of a fresh index."""
from __future__ import annotations

from test_resolve_dynamic import _callees
from test_resolve_quiet import _append, _indexed, _replace, edits_give_a_fresh_index

FILES = {
    "hooks.py": "handlers = []\n\n\n"
                "def fire(x):\n    for h in handlers:\n        h(x)\n\n\n"
                "class Caller:\n    def __init__(self):\n        self.impls = []\n"
                "        self.table = {}\n        self._queue = []\n\n"
                "    def __call__(self, x):\n        for impl in self.impls:\n            impl(x)\n\n"
                "    def lookup(self, key, x):\n        return self.table[key](x)\n\n"
                "    def drain(self):\n        for job in self._queue:\n            job()\n\n\n"
                "class Later(Caller):\n    pass\n",
    "app.py": "import hooks\nfrom hooks import Caller, Later\n\n\n"
              "def on_a(x):\n    return x\n\n\n"
              "def on_b(x):\n    return x\n\n\n"
              "def job():\n    return 0\n\n\n"
              "hook = Caller()\nhook.impls.append(on_a)\nhook.table['b'] = on_b\n"
              "hook._queue.append(job)\n"
              "later = Later()\nlater.impls.extend([on_b])\n"
              "hooks.handlers.append(on_b)\n",
    "plugin.py": "import app\n\n\ndef on_c(x):\n    return x\n",
    "other.py": "class Unrelated:\n    def __init__(self):\n        self.impls = []\n\n\n"
                "def noise(x):\n    return x\n\n\nu = Unrelated()\nu.impls.append(noise)\n",
}


def test_outside_fills_reach_the_readers(tmp_path):
    root, db = _indexed(tmp_path, FILES)
    # an instance's list, of the class and of a subclass (whose MRO holds the class);
    # an unrelated class's list of the same name is its own
    assert _callees(db, "hooks.Caller.__call__")["impl"] == ("ambiguous", ["app.on_a", "app.on_b"])
    assert _callees(db, "hooks.Caller.lookup")["self.table[key]"] == ("inferred", "app.on_b")
    # a module's list through the module object
    assert _callees(db, "hooks.fire")["h"] == ("inferred", "app.on_b")
    # a private attribute is filled by its own package only: `app` is another one (a
    # test's `lock._waiters.append(Mock())` is not what the lock's code calls)
    assert _callees(db, "hooks.Caller.drain")["job"] == ("unresolved", [])


EDITS = {
    # another file puts a third function in, through the instance it imports
    "filled from another file": ("plugin.py", _append("\n\napp.hook.impls.append(on_c)\n")),
    # the fill goes away
    "fill removed": ("app.py", _replace("hook.impls.append(on_a)\n", "")),
    # the instance becomes one of the unrelated class
    "head rebound": ("app.py", _replace("hook = Caller()\n", "from other import Unrelated\nhook = Unrelated()\n")),
    # the module's list gets a second function from the reading file itself
    "module filled inside": ("hooks.py", _append("\n\ndef more(x):\n    return x\n\n\nhandlers.append(more)\n")),
}


test_edits_give_the_edges_of_a_fresh_index = edits_give_a_fresh_index(FILES, EDITS)
