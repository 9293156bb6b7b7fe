"""`getattr(obj, name)` with `name` a variable holding texts the code writes (a `for` over
a literal of texts, a module constant, a prefix joined to such a variable): the members
of those names, and nothing new when a value is not known or there are too many names;
an incremental re-index after an edit gives the edges of a fresh index."""
from __future__ import annotations

from test_resolve_dynamic import _callees
from test_resolve_quiet import _indexed, _replace, edits_give_a_fresh_index

NINE = ", ".join(f'"m{i}"' for i in range(9))
FILES = {
    "hooks.py": "HOOK = 'finish'\n"
                f"MANY = ({NINE})\n\n\n"
                "class Task:\n"
                "    def start(self):\n        return 1\n\n"
                "    def stop(self):\n        return 2\n\n"
                "    def fallback(self):\n        return 3\n\n"
                "    def run(self):\n"
                "        for name in ('start', 'stop'):\n"
                "            getattr(self, name)()\n"
                "        return getattr(self, HOOK, self.fallback)()\n\n"
                "    def run_many(self):\n"
                "        for name in MANY:\n"
                "            getattr(self, name, self.fallback)()\n\n"
                "    def run_named(self, name):\n"
                "        return getattr(self, name, self.fallback)()\n\n"
                "    def run_listed(self):\n"
                "        names = ['start']\n"
                "        names.append('stop')\n"
                "        for name in names:\n"
                "            getattr(self, name)()\n\n"
                "    def run_joined(self):\n"
                "        for what in ('start', 'stop'):\n"
                "            getattr(self, 'on_' + what)()\n",
    "app.py": "from hooks import Task\n\n\n"
              "class Job(Task):\n"
              "    def finish(self):\n        return 4\n\n"
              "    def on_start(self):\n        return 5\n\n"
              "    def on_stop(self):\n        return 6\n\n"
              "    def on_error(self):\n        return 7\n",
}


def test_names_from_loops_and_constants(tmp_path):
    root, db = _indexed(tmp_path, FILES)
    got = _callees(db, "hooks.Task.run")
    assert got["getattr(self, name)"] == ("ambiguous", ["hooks.Task.start", "hooks.Task.stop"])
    # the constant's name is a subclass's method (a mixin's hook), next to the default
    assert got["getattr(self, HOOK, self.fallback)"] == ("ambiguous", ["app.Job.finish", "hooks.Task.fallback"])
    # the joined names, not every `on_*` method of the subclasses
    assert _callees(db, "hooks.Task.run_joined")["getattr(self, 'on_' + what)"] == (
        "ambiguous", ["app.Job.on_start", "app.Job.on_stop"])


def test_unknown_or_too_many_names_keep_the_default_alone(tmp_path):
    root, db = _indexed(tmp_path, FILES)
    # nine names: more than `MAX_NAMES`; a parameter: not known
    for caller in ("hooks.Task.run_many", "hooks.Task.run_named"):
        assert _callees(db, caller)["getattr(self, name, self.fallback)"][1] == "hooks.Task.fallback", caller
    # a list that had a name appended: not known, no edge
    assert _callees(db, "hooks.Task.run_listed")["getattr(self, name)"][1] in ([], None)


EDITS = {
    "constant changed": ("hooks.py", _replace("HOOK = 'finish'\n", "HOOK = 'stop'\n")),
    "loop names changed": ("hooks.py", _replace("for name in ('start', 'stop'):", "for name in ('stop',):")),
    "hook method removed": ("app.py", _replace("    def finish(self):\n        return 4\n\n", "")),
}


test_edits_give_the_edges_of_a_fresh_index = edits_give_a_fresh_index(FILES, EDITS)
