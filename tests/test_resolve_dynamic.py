"""Python's dispatch through names and subclasses (`getattr(self, "do_" + cmd)`, an abstract
template-method step and its overrides, a chained `table = d = {}`, an inherited
alternate constructor): what the edges say, and that an incremental re-index after an
edit another file sees gives the edges of a fresh index."""
from __future__ import annotations

import duckdb

from test_resolve_quiet import _append, _indexed, _replace, edits_give_a_fresh_index
from workbench.indexer import index

FILES = {
    "shell.py": "class Cmd:\n"
                "    def onecmd(self, line):\n"
                "        func = getattr(self, 'do_' + line)\n"
                "        return func()\n\n"
                "    def do_help(self):\n        return 'help'\n\n"
                "    def __init__(self):\n        self.done = False\n\n\n"
                "class Handler:\n"
                "    def handle(self, record):\n        return self.emit(record)\n\n"
                "    def emit(self, record):\n"
                "        raise NotImplementedError('emit must be implemented')\n\n\n"
                "def _copy_list(x):\n    return list(x)\n\n\n"
                "def _copy_atomic(x):\n    return x\n\n\n"
                "_copy_dispatch = d = {}\nd[list] = _copy_list\n"
                "_deepcopy_dispatch = d = {}\nd[int] = _copy_atomic\n",
    "app.py": "from shell import Cmd, Handler, _copy_dispatch\n\n\n"
              "class Shell(Cmd):\n    def do_greet(self):\n        return 'hi'\n\n\n"
              "class Printer(Handler):\n    def emit(self, record):\n        return record\n\n\n"
              "def copy(x):\n    return _copy_dispatch[type(x)](x)\n",
}


def _callees(db: str, caller: str) -> dict[str, tuple]:
    con = duckdb.connect(db, read_only=True)
    try:
        rows = con.execute("""SELECT e.dst_name, e.resolution, e.dst_qualname, e.candidates
                              FROM edges e JOIN symbols s ON s.symbol_id = e.src_id
                              WHERE e.kind = 'calls' AND s.qualname = ?""", [caller]).fetchall()
    finally:
        con.close()
    return {r[0]: (r[1], r[2] or sorted(r[3] or ())) for r in rows}


def test_dispatch_through_names_and_subclasses(tmp_path):
    root, db = _indexed(tmp_path, FILES)
    # every `do_*` method of the class and its subclasses: one of them, not a sure target
    assert _callees(db, "shell.Cmd.onecmd")["func"] == ("ambiguous", ["app.Shell.do_greet", "shell.Cmd.do_help"])
    # the step that raises stays a candidate next to its override
    assert _callees(db, "shell.Handler.handle")["self.emit"] == (
        "ambiguous", ["app.Printer.emit", "shell.Handler.emit"])
    # `d` filled `_copy_dispatch` up to its next assignment only
    assert _callees(db, "app.copy")["_copy_dispatch[type(x)]"] == ("inferred", "shell._copy_list")


EDITS = {
    # a new module-level subclass: its `do_*` method joins `onecmd`'s candidates
    "new subclass": ("app.py", _append("\n\nclass Other(Cmd):\n    def do_quit(self):\n        return 1\n")),
    # a new override inside an old subclass of a step that raises
    "new override": ("app.py", _replace("class Shell(Cmd):\n", "class Shell(Cmd):\n    def emit(self, r):\n"
                                        "        return r\n\n")),
    # the step made concrete: no longer abstract, its override is no candidate any more
    "step made concrete": ("shell.py", _replace("        raise NotImplementedError('emit must be implemented')\n",
                                                "        return None\n")),
    # a new entry in the first table
    "table entry": ("shell.py", _replace("d[list] = _copy_list\n", "d[list] = _copy_list\nd[str] = _copy_atomic\n")),
}


test_edits_give_the_edges_of_a_fresh_index = edits_give_a_fresh_index(FILES, EDITS)


def test_an_incremental_run_sees_a_new_subclass_and_a_concrete_step(tmp_path):
    root, db = _indexed(tmp_path, FILES)
    for rel, fn in (EDITS["new subclass"], EDITS["step made concrete"]):
        (root / rel).write_text(fn((root / rel).read_text()))
        index(root, db, jobs=1, progress=False)
    assert _callees(db, "shell.Cmd.onecmd")["func"] == (
        "ambiguous", ["app.Other.do_quit", "app.Shell.do_greet", "shell.Cmd.do_help"])
    assert _callees(db, "shell.Handler.handle")["self.emit"] == ("self", "shell.Handler.emit")
