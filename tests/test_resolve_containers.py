"""Python values kept in containers and dicts the resolver follows: a list or tuple literal
passed as an argument, `heapq.heappush` / `heappop`, `d.setdefault(k, []).append(f)` and
`d[k].append(f)` registries, `f(**{"cb": g})` / `f(**opts)`, a bare `raise
NotImplementedError` as a template method's step, and a slice being the container (not an
element): what the edges say, and that an incremental re-index after an edit another file
sees gives the edges of a fresh index."""
from __future__ import annotations

from test_resolve_dynamic import _callees
from test_resolve_quiet import _append, _indexed, _replace, edits_give_a_fresh_index

FILES = {
    "lib.py": "import heapq\n\n\n"
              "class Suite:\n"
              "    def __init__(self, tests=()):\n        self._tests = []\n"
              "        for t in tests:\n            self._tests.append(t)\n\n"
              "    def run(self):\n        for t in self._tests:\n            t()\n\n\n"
              "class Queue:\n"
              "    def __init__(self):\n        self._heap = []\n\n"
              "    def push(self, prio, fn):\n        heapq.heappush(self._heap, (prio, fn))\n\n"
              "    def pop_run(self):\n        _, fn = heapq.heappop(self._heap)\n        return fn()\n\n\n"
              "class Hooks:\n"
              "    def __init__(self):\n        self.funcs = {}\n\n"
              "    def add(self, f):\n        self.funcs.setdefault(None, []).append(f)\n\n"
              "    def fire(self):\n        for f in self.funcs[None]:\n            f()\n\n\n"
              "class Decoder:\n"
              "    def __init__(self, *, hook=None):\n        self.hook = hook\n\n"
              "    def decode(self, x):\n        return self.hook(x)\n\n\n"
              "class Base:\n"
              "    def handle(self):\n        return self.step()\n\n"
              "    def step(self):\n        raise NotImplementedError\n\n\n"
              "def rev(xs: list):\n    return xs[::-1]\n",
    "app.py": "from lib import Base, Decoder, Hooks, Queue, Suite, rev\n\n\n"
              "def one():\n    return 1\n\n\n"
              "def two():\n    return 2\n\n\n"
              "class Impl(Base):\n    def step(self):\n        return 3\n\n\n"
              "def main():\n"
              "    Suite([one, two]).run()\n"
              "    q = Queue()\n    q.push(1, one)\n    q.pop_run()\n"
              "    h = Hooks()\n    h.add(two)\n    h.fire()\n"
              "    Decoder(**{'hook': one}).decode(0)\n"
              "    opts = dict(hook=two)\n    Decoder(**opts).decode(0)\n"
              "    Impl().handle()\n"
              "    a = 'x'\n    return rev([a]).pop()\n",
}


def test_containers_dicts_and_bare_raise(tmp_path):
    root, db = _indexed(tmp_path, FILES)
    # the list literal passed to Suite() is what run() iterates
    assert _callees(db, "lib.Suite.run")["t"] == ("ambiguous", ["app.one", "app.two"])
    # what heappush put on the heap is what heappop gives back (item 1 of the tuple)
    assert _callees(db, "lib.Queue.pop_run")["fn"] == ("inferred", "app.one")
    # `d.setdefault(k, []).append(f)`, then `for f in d[k]`
    assert _callees(db, "lib.Hooks.fire")["f"] == ("inferred", "app.two")
    # the keyword `hook` of `**{'hook': one}` and of `opts = dict(hook=two)`
    assert _callees(db, "lib.Decoder.decode")["self.hook"] == ("ambiguous", ["app.one", "app.two"])
    # a bare `raise NotImplementedError`: the step reaches the override, and stays a candidate
    assert _callees(db, "lib.Base.handle")["self.step"] == ("ambiguous", ["app.Impl.step", "lib.Base.step"])
    # `xs[::-1]` is the list (of str), not one of its items: its `pop` is the list's
    assert _callees(db, "app.main")["rev([a]).pop"] == ("builtin", "list.pop")


EDITS = {
    # a third function added to the literal
    "literal grows": ("app.py", _replace("Suite([one, two])", "Suite([one, two, main])")),
    # the step made concrete: no longer abstract, the override is no candidate any more
    "step made concrete": ("lib.py", _replace("        raise NotImplementedError\n", "        return None\n")),
    # a new bare raise in another step
    "new bare raise": ("lib.py", _replace("    def decode(self, x):\n",
                                          "    def other(self):\n        raise NotImplementedError\n\n"
                                          "    def decode(self, x):\n")),
    # another hook registered through `d[k].append(f)`
    "subscript append": ("lib.py", _append("\n\ndef register(h, f):\n    h.funcs[None].append(f)\n")),
    # the dict passed with `**` names another function
    "splat changes": ("app.py", _replace("dict(hook=two)", "dict(hook=one)")),
}


test_edits_give_the_edges_of_a_fresh_index = edits_give_a_fresh_index(FILES, EDITS)
