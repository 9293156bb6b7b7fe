"""Instance attributes against library bases: an attribute a class assigns on its instances
is its own, so an unknown value stays unresolved instead of borrowing a name from the base
(`Exception.value`, `object.klass`): the pattern of `pickle`'s `_Stop` and of test classes
that keep a factory in `self.klass`."""
from __future__ import annotations

import textwrap

import duckdb

from workbench.indexer import index

PROGRAM = textwrap.dedent('''
    class _Stop(Exception):
        def __init__(self, value):
            self.value = value


    class Unpickler:
        def __init__(self, read):
            self.read = read
            self.stack = []

        def load_obj(self):
            self.stack.append(self.read())

        def load_stop(self):
            raise _Stop(self.stack.pop())

        def load(self):
            try:
                self.load_obj()
                self.load_stop()
            except _Stop as stopinst:
                return stopinst.value


    class Failure(Exception):
        def explain(self):
            return "failed"


    def run(read):
        rebuilt = Unpickler(read).load()
        return rebuilt()


    def guarded(read):
        try:
            return run(read)
        except Failure as err:
            return err.explain()
''')


def _calls(tmp_path) -> dict:
    (tmp_path / "repo").mkdir()
    (tmp_path / "repo" / "main.py").write_text(PROGRAM)
    db = str(tmp_path / "a.duckdb")
    index(str(tmp_path / "repo"), db, progress=False)
    with duckdb.connect(db, read_only=True) as con:
        rows = con.execute("SELECT dst_name, resolution, dst_qualname FROM edges WHERE kind = 'calls'").fetchall()
    return {name: (res, q) for name, res, q in rows}


def test_unknown_value_of_an_own_instance_attribute_is_not_the_bases(tmp_path):
    calls = _calls(tmp_path)
    assert calls["rebuilt"] == ("unresolved", None)


def test_exception_bound_by_except_as_resolves_its_methods(tmp_path):
    calls = _calls(tmp_path)
    assert calls["err.explain"][1] == "main.Failure.explain"
