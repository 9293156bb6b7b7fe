"""Python values the resolver reads with their own semantics: iterating a dict gives its
keys (`d.keys()`, `d.values()` and `d.items()` are views of it), a stored `*args` tuple
keeps its positions apart when unpacked or indexed, a slice assignment puts the elements
of its value in, and a name rebound from its own value (`x = [x]`, `fs = set(fs)`) reads
what the name held before, a parameter's arguments among it. What the edges say, across
files, and that an incremental re-index after an edit another file sees gives the edges
of a fresh index."""
from __future__ import annotations

from test_resolve_dynamic import _callees
from test_resolve_quiet import _indexed, _replace, edits_give_a_fresh_index

FILES = {
    "lib.py": "class Entry:\n"
              "    def startswith(self, prefix):\n        return False\n\n"
              "    def describe(self):\n        return ''\n\n\n"
              "def directory(names):\n"
              "    files = {}\n"
              "    for name in names:\n        files[name] = Entry()\n"
              "    return files\n\n\n"
              "def under(files, prefix):\n"
              "    for fn in sorted(files):\n        fn.startswith(prefix)\n"
              "    for fn, entry in files.items():\n        entry.describe()\n"
              "    for entry in files.values():\n        entry.describe()\n\n\n"
              "filters = []\n\n\n"
              "def add_filter(*item):\n    filters.insert(0, item)\n\n\n"
              "def first_message():\n"
              "    for action, message, module in filters:\n        return message.match('x')\n\n\n"
              "def gather(lines):\n"
              "    out = []\n"
              "    out[:0] = [lines[0]]\n"
              "    return out[0].strip()\n\n\n"
              "def run_all(hooks):\n"
              "    if callable(hooks):\n        hooks = [hooks]\n"
              "    else:\n        hooks = list(hooks)\n"
              "    for hook in hooks:\n        hook()\n",
    "app.py": "from lib import add_filter, directory, gather, run_all, under\n\n\n"
              "class Message:\n    def match(self, text):\n        return True\n\n\n"
              "class Module:\n    def match(self, text):\n        return False\n\n\n"
              "class Line:\n    def strip(self):\n        return ''\n\n\n"
              "def one():\n    return 1\n\n\n"
              "def two():\n    return 2\n\n\n"
              "def main():\n"
              "    under(directory(['a', 'b']), 'a')\n"
              "    add_filter('ignore', Message(), Module())\n"
              "    gather([Line()])\n"
              "    run_all(one)\n"
              "    run_all([two])\n",
}


def test_dict_keys_args_slots_slices_and_rebinding(tmp_path):
    root, db = _indexed(tmp_path, FILES)
    under = _callees(db, "lib.under")
    # `for fn in sorted(files)`: keys (unknown here), not the entries stored as values;
    # the call is left to the guess by name, whose label says so
    assert under["fn.startswith"][0] not in ("inferred", "builtin")
    # `.items()` pairs: the value slot; `.values()`: the values
    assert under["entry.describe"] == ("inferred", "lib.Entry.describe")
    # slot 1 of the stored `*item` is the message, not the module
    assert _callees(db, "lib.first_message")["message.match"] == ("inferred", "app.Message.match")
    # `out[:0] = [lines[0]]` stores a line, not a list
    assert _callees(db, "lib.gather")["out[0].strip"] == ("inferred", "app.Line.strip")
    # `hooks = [hooks]` / `hooks = list(hooks)`: the functions passed, either way
    assert _callees(db, "lib.run_all")["hook"] == ("ambiguous", ["app.one", "app.two"])


def test_a_dict_literal_iterates_its_keys(tmp_path):
    _, db = _indexed(tmp_path, {"m.py": "class K:\n    def go(self):\n        return 1\n\n\n"
                                  "class V:\n    def go(self):\n        return 2\n\n\n"
                                  "def main():\n"
                                  "    table = {K(): V()}\n"
                                  "    for k in table:\n        k.go()\n"
                                  "    for k in table.keys():\n        k.go()\n"
                                  "    for k, v in table.items():\n        v.go()\n"
                                  "    return table[K()].go()\n"})
    got = _callees(db, "m.main")
    assert got["k.go"] == ("inferred", "m.K.go")
    assert got["v.go"] == ("inferred", "m.V.go")
    assert got["table[K()].go"] == ("inferred", "m.V.go")


EDITS = {
    # the dict is no dict any more: a list filled by index, iterated by value
    "dict made a list": ("lib.py", _replace("    files = {}\n", "    files = []\n")),
    # the stored tuple's slots swapped at the call site
    "slots swapped": ("app.py", _replace("Message(), Module()", "Module(), Message()")),
    # another function passed to the rebound parameter
    "argument changes": ("app.py", _replace("run_all(one)", "run_all(main)")),
}


test_edits_give_the_edges_of_a_fresh_index = edits_give_a_fresh_index(FILES, EDITS)
