"""Functions handed to builtins that call them (`Flows.passed_callbacks`, the table
`Language.callback_params` read from `resolve/lang/python_callbacks.txt`): only arguments
that evaluate to something of the repository count, only at the parameters the table names,
and only when the callee really is the builtin (a repository `sorted` is followed as code)."""
from __future__ import annotations

import textwrap

from workbench import store
from workbench.callgraph import callgraph
from workbench.indexer import index
from workbench.resolve import Model, Resolver
from workbench.resolve.lang import rules_of

PROGRAM = textwrap.dedent('''
    import os


    def weight(x):
        return x


    def label(x):
        return str(x)


    def keyed(xs):
        a = sorted(xs, key=weight)
        b = sorted(xs, key=str.lower)
        c = min(xs, key=os.path.basename)
        d = max(xs, default=label)
        e = list(map(len, xs))
        return a, b, c, d, e


    def local(xs):
        def sorted(items, key):
            return list(items)
        return sorted(xs, key=weight)
''')


def test_table_is_data():
    table = rules_of("python").callback_params
    assert table["sorted"] == frozenset({"key"})
    assert table["map"] == frozenset({"0"})
    assert table["functools.reduce"] == frozenset({"0"})
    assert rules_of("go").callback_params == {}


def test_passed_callbacks(tmp_path):
    (tmp_path / "main.py").write_text(PROGRAM)
    con = store.connect(":memory:")
    index(str(tmp_path), ":memory:", con=con, progress=False, jobs=1)
    m = Model(con)
    res = Resolver(m, export=True)
    got = {}
    for src, text, line in store.run(con, "SELECT src_id, dst_name, line FROM edges "
                                          "WHERE kind = 'calls' ORDER BY line, edge_id"):
        targets, _ = res.resolve_call(src, text, line)
        for t in targets:
            if t[0] in ("B", "x"):
                got[(line, text)] = [m.qual[c[1]] for c in res.passed_callbacks(src, text, line, t[1])]
    weight = "main.weight"
    assert got[(14, "sorted")] == [weight]
    assert got[(15, "sorted")] == []            # str.lower is no function of the repository
    assert got[(16, "min")] == []               # nor is os.path.basename
    assert got[(17, "max")] == []               # default= is not called
    assert got[(18, "map")] == []               # a builtin handed to a builtin
    assert (24, "sorted") not in got            # the repository's own sorted


def test_export_edges(tmp_path):
    (tmp_path / "main.py").write_text(PROGRAM + "\nkeyed(['a'])\nlocal(['a'])\n")
    graph = callgraph([str(tmp_path / "main.py")], package=str(tmp_path))
    assert "main.weight" in graph["main.keyed"]
    assert "main.label" not in graph["main.keyed"]
    assert "main.weight" not in graph["main.local"]       # the local sorted gets it, not a builtin
    assert "main.local.sorted" in graph["main.local"]
