"""Files that read an edited file are resolved again only when the edit can change what
they read (`workbench.resolve.quiet`): an edit that only adds a definition no other
file names leaves them alone, every other edit resolves them again. Either way the edges
equal those of a fresh index of the edited tree, with or without a model kept in the
process."""
from __future__ import annotations

import os
import time
from pathlib import Path

import duckdb
import pytest

from drift import differences
from workbench.indexer import index
from workbench.resolve import kept


def _write(root: Path, files: dict[str, str]) -> None:
    for rel, text in files.items():
        p = root / rel
        p.parent.mkdir(parents=True, exist_ok=True)
        p.write_text(text, encoding="utf-8")


def _edit(root: Path, rel: str, fn) -> None:
    p = root / rel
    p.write_text(fn(p.read_text(encoding="utf-8")), encoding="utf-8")
    t = time.time() + 2                 # a new mtime whatever the file system's resolution
    os.utime(p, (t, t))


# the rows resolution writes besides edges and imports (`drift.differences`), without ids
CANDIDATES = ("SELECT e.path, e.line, e.dst_name, c.qualname, s.qualname FROM call_candidates c "
              "JOIN edges e USING (edge_id) LEFT JOIN symbols s ON s.symbol_id = c.symbol_id")
DEPS = "SELECT path, files, names, provides FROM resolve_deps"


def _rows(db: str, sql: str) -> list:
    con = duckdb.connect(db, read_only=True)
    try:
        return sorted(con.execute(sql).fetchall(), key=repr)
    finally:
        con.close()


def _run(tmp_path: Path, files: dict[str, str], rel: str, fn, keep: bool, implicit: bool | None = None):
    """Index `files`, edit `rel` with `fn`, index again; returns (report of the second run,
    rows differing from a fresh index of the edited tree: edges, imports, call candidates
    and what each file's resolution read and provides). `implicit`: the setting of the
    first index and of the fresh one (the second keeps the database's)."""
    root = tmp_path / "repo"
    _write(root, files)
    db = str(tmp_path / "inc.duckdb")
    index(root, db, jobs=1, progress=False, implicit=implicit)
    if not keep:
        kept.forget()
    _edit(root, rel, fn)
    r = index(root, db, jobs=1, progress=False)
    assert r.changed == 1 and not r.resolve_stats.full
    assert r.resolve_stats.model_kept == (keep and kept.KEEP > 0)
    fresh = str(tmp_path / "fresh.duckdb")
    kept.forget()
    index(root, fresh, jobs=1, progress=False, implicit=implicit)
    diff = differences(db, fresh)
    for sql in (CANDIDATES, DEPS):
        a, b = _rows(db, sql), _rows(fresh, sql)
        diff += [("incremental", x) for x in a if x not in b] + [("fresh", x) for x in b if x not in a]
    return r, diff


def _indexed(tmp_path: Path, files: dict[str, str]) -> tuple[Path, str]:
    """(root, database): `files` written under `tmp_path`/repo and indexed in one process."""
    root = tmp_path / "repo"
    _write(root, files)
    db = str(tmp_path / "x.duckdb")
    index(root, db, jobs=1, progress=False)
    return root, db


def edits_give_a_fresh_index(files: dict[str, str], edits: dict):
    """A test, parametrized over `edits` (name -> (file, edit)) and over a kept model or a
    fresh process, that each edit of `files` re-indexed gives the rows of a fresh index."""
    @pytest.mark.parametrize("keep", [True, False], ids=["kept", "fresh-process"])
    @pytest.mark.parametrize("case", sorted(edits))
    def test_edits_give_the_edges_of_a_fresh_index(tmp_path, case, keep):
        rel, fn = edits[case]
        _, diff = _run(tmp_path, files, rel, fn, keep)
        assert diff == []
    return test_edits_give_the_edges_of_a_fresh_index


def _append(text: str):
    return lambda old: old + text


def _replace(a: str, b: str):
    def fn(old: str) -> str:
        assert a in old
        return old.replace(a, b)
    return fn


PY = {
    "lib.py": "class Base:\n    def run(self):\n        return 1\n\n\n"
              "class Thing(Base):\n    def size(self):\n        return 2\n\n\n"
              "def make():\n    return Thing()\n\n\n"
              "def helper(x):\n    return x\n",
    "app.py": "import lib\nfrom lib import make, helper\n\n\n"
              "def main():\n    t = make()\n    t.size()\n    t.run()\n    helper(1)\n"
              "    lib.later_added()\n    return t.extra()\n\n\ndef amb(o):\n    return o.go()\n",
    "pkg/__init__.py": "from .impl import Impl\n",
    "pkg/impl.py": "class Impl:\n    def go(self):\n        return 1\n\n\nclass Other:\n    def go(self):\n"
                   "        return 2\n",
    "user.py": "import pkg\n\n\ndef use():\n    return pkg.Impl().go()\n\n\ndef use2():\n"
               "    return pkg.Other().go()\n",
}


@pytest.mark.parametrize("keep", [True, False])
def test_an_unused_new_function_leaves_the_readers_alone(tmp_path, keep):
    r, diff = _run(tmp_path, PY, "lib.py", _append("\n\ndef brand_new_unused_fn(y):\n    return y + 1\n"), keep)
    assert diff == []
    assert r.resolve_stats.files == 1          # lib.py only; app.py read it


@pytest.mark.parametrize("keep", [True, False])
def test_a_new_name_only_inside_longer_identifiers_leaves_the_readers_alone(tmp_path, keep):
    """`later` and `make_` are parts of names app.py reads (`lib.later_added`, `make`),
    not names it reads: the readers are left alone, and the edges equal a fresh index's."""
    r, diff = _run(tmp_path, PY, "lib.py", _append("\n\ndef later(y):\n    return y\n\n\nmake_ = later\n"),
                   keep)
    assert diff == []
    assert r.resolve_stats.files == 1


@pytest.mark.parametrize("keep", [True, False])
def test_candidates_into_a_quietly_edited_file_follow_its_new_ids(tmp_path, keep):
    """app.py's `o.go()` is ambiguous between two methods of pkg/impl.py (call_candidates
    rows with their symbol ids): the ids are new after the edit, the rows follow."""
    r, diff = _run(tmp_path, PY, "pkg/impl.py", _append("\n\ndef brand_new_unused_fn(y):\n    return y\n"), keep)
    assert diff == []
    assert r.resolve_stats.files == 1
    got = _rows(str(tmp_path / "inc.duckdb"), CANDIDATES)
    assert [row[3:] for row in got if row[0] == "app.py"] == [("pkg.impl.Impl.go", "pkg.impl.Impl.go"),
                                                              ("pkg.impl.Other.go", "pkg.impl.Other.go")]


@pytest.mark.parametrize("keep", [True, False])
def test_a_comment_at_the_end_leaves_the_readers_alone(tmp_path, keep):
    r, diff = _run(tmp_path, PY, "lib.py", _append("# a note\n"), keep)
    assert diff == []
    assert r.resolve_stats.files == 1


# edits that change what app.py / user.py read of the edited file: they are resolved again
PY_EDITS = {
    "name a reader calls": ("lib.py", _append("\n\ndef later_added():\n    return 3\n")),
    "method a reader calls": ("lib.py", _replace("    def size(self):", "    def extra(self):\n"
                                                 "        return 5\n\n    def size(self):")),
    "appended method a reader calls": ("lib.py", _append("\n\nclass Late:\n    pass\n\n\n"
                                                         "Thing.extra = Late\n")),
    "rename": ("lib.py", _replace("def helper(x)", "def helper2(x)")),
    "deleted symbol": ("lib.py", _replace("def make():\n    return Thing()\n", "")),
    "return change": ("lib.py", _replace("    return Thing()", "    return Base()")),
    "signature change": ("lib.py", _replace("def helper(x):", "def helper(x, y=Thing()):")),
    "base change": ("lib.py", _replace("class Thing(Base):", "class Thing:")),
    "rebinding a name": ("lib.py", _append("\n\nhelper = make\n")),
    "import added": ("lib.py", _append("\nfrom pkg import Impl as later_added\n")),
    "re-export change": ("pkg/__init__.py", _replace("from .impl import Impl", "from .impl import Other as Impl")),
    "re-export added": ("pkg/__init__.py", _append("from .impl import Other\n")),
    "lines moved": ("lib.py", lambda old: "# a note\n" + old),
}


@pytest.mark.parametrize("keep", [True, False])
@pytest.mark.parametrize("case", sorted(PY_EDITS))
def test_python_edits_readers_see_resolve_them_again(tmp_path, case, keep):
    rel, fn = PY_EDITS[case]
    r, diff = _run(tmp_path, PY, rel, fn, keep)
    assert diff == []
    assert r.resolve_stats.files > 1


def test_a_new_name_used_in_another_file_is_no_quiet_edit(tmp_path):
    """The reader's call was unresolved before: it resolves to the new function now."""
    r, diff = _run(tmp_path, PY, "lib.py", _append("\n\ndef later_added():\n    return 3\n"), True)
    assert diff == []
    con = duckdb.connect(str(tmp_path / "inc.duckdb"), read_only=True)
    try:
        got = con.execute("SELECT dst_qualname FROM edges WHERE path = 'app.py' AND dst_name = 'lib.later_added'"
                          ).fetchall()
    finally:
        con.close()
    assert got == [("lib.later_added",)]


# other languages: an unused addition is quiet (where the family allows it), an addition or
# change a reader sees resolves the reader again
LANGS = {
    "js": ({
        "src/lib.js": "export function helper(x) {\n  return x;\n}\n\nexport class Thing {\n  size() {\n"
                      "    return 2;\n  }\n}\n",
        "src/app.js": "import { helper, Thing } from './lib.js';\nimport * as lib from './lib.js';\n\n"
                      "export function main() {\n  helper(1);\n  new Thing().size();\n  lib.laterAdded();\n"
                      "  return new Thing().extra();\n}\n",
    }, "src/lib.js",
        "\nexport function brandNewUnusedFn(y) {\n  return y + 1;\n}\n",
        "\nexport function laterAdded() {\n  return 3;\n}\n",
        ("  size() {", "  extra() {\n    return 5;\n  }\n  size() {")),
    "java": ({
        "src/main/java/com/acme/Lib.java": "package com.acme;\n\npublic class Lib {\n"
                                           "    public static int helper(int x) { return x; }\n"
                                           "    public int size() { return 2; }\n}\n",
        "src/main/java/com/acme/App.java": "package com.acme;\n\npublic class App {\n"
                                           "    public int main() {\n        Lib.helper(1);\n"
                                           "        Lib l = new Lib();\n        l.size();\n"
                                           "        return l.extra();\n    }\n}\n",
    }, "src/main/java/com/acme/Lib.java",
        "\nclass BrandNewUnused {\n    int seven() { return 7; }\n}\n",
        ("    public int size() { return 2; }\n}", "    public int size() { return 2; }\n"
                                                "    public int extra() { return 7; }\n}"),
        ("    public static int helper(int x)", "    public static int helper2(int x)")),
    "rust": ({
        "Cargo.toml": "[package]\nname = \"demo\"\nversion = \"0.1.0\"\n",
        "src/lib.rs": "pub mod util;\n\npub fn main_fn() -> i32 {\n    util::helper(1) + util::later_added()\n}\n",
        "src/util.rs": "pub fn helper(x: i32) -> i32 {\n    x\n}\n",
    }, "src/util.rs",
        "\npub fn brand_new_unused_fn(y: i32) -> i32 {\n    y + 1\n}\n",
        "\npub fn later_added() -> i32 {\n    3\n}\n",
        ("pub fn helper(x: i32)", "pub fn helper2(x: i32)")),
    "go": ({
        "go.mod": "module example.com/demo\n\ngo 1.21\n",
        "util/util.go": "package util\n\nfunc Helper(x int) int {\n\treturn x\n}\n",
        "main.go": "package main\n\nimport \"example.com/demo/util\"\n\nfunc main() {\n"
                   "\tutil.Helper(1)\n\tutil.LaterAdded()\n}\n",
    }, "util/util.go",
        "\nfunc BrandNewUnusedFn(y int) int {\n\treturn y + 1\n}\n",
        "\nfunc LaterAdded() int {\n\treturn 3\n}\n",
        ("func Helper(x int)", "func Helper2(x int)")),
}


@pytest.mark.parametrize("lang", sorted(LANGS))
def test_other_languages_unused_addition_and_seen_changes(tmp_path, lang):
    files, rel, unused, used, change = LANGS[lang]
    cases = []
    def edit(how):
        return _replace(*how) if isinstance(how, tuple) else _append(how)
    cases.append(("unused", edit(unused)))
    cases.append(("used", edit(used)))
    cases.append(("change", _replace(*change)))
    for name, fn in cases:
        r, diff = _run(tmp_path / name, files, rel, fn, True)
        assert diff == [], (lang, name, diff[:5])
        if name == "unused":
            # Go: never quiet (the package clause is read from disk); Java: a new class
            # changes what its package holds (the `p:` token App.java read)
            assert r.resolve_stats.files == (2 if lang in ("go", "java") else 1), (lang, name)
        else:
            assert r.resolve_stats.files > 1, (lang, name)


# decorators: a kept model patches its decorator flows for the changed files
DECO = {
    "deco.py": "import functools\n\n\ndef register(fn):\n    return fn\n\n\ndef traced(fn):\n"
               "    @functools.wraps(fn)\n    def wrapper(*a):\n        return fn(*a)\n    return wrapper\n",
    "a.py": "from deco import register, traced\nfrom contextlib import contextmanager\n\n\n@register\n"
            "def f():\n    return 1\n\n\n@contextmanager\ndef ctx():\n    yield 1\n",
    "b.py": "from deco import register, traced\n\n\n@traced\ndef g():\n    return 2\n",
    "main.py": "from a import f, ctx\nfrom b import g\n\n\ndef run():\n    f()\n    g()\n"
               "    with ctx() as c:\n        c.bit_length()\n",
}
DECO_EDITS = {
    "decorator swapped": ("b.py", _replace("@traced", "@register")),
    "decorator removed": ("a.py", _replace("@register\n", "")),
    "decorated function added": ("b.py", _append("\n\n@traced\ndef h():\n    return 3\n")),
    "a function named like a well-known decorator": ("deco.py", _append("\n\ndef contextmanager(fn):\n"
                                                                        "    return fn\n")),
    "decorator body changed": ("deco.py", _replace("    return fn\n\n\ndef traced", "    return None\n\n\ndef traced")),
}


@pytest.mark.parametrize("case", sorted(DECO_EDITS))
def test_decorator_edits_with_a_kept_model_equal_a_fresh_index(tmp_path, case):
    rel, fn = DECO_EDITS[case]
    # two edits in a row, so the second refreshes flows the first run built
    root = tmp_path / "repo"
    _write(root, DECO)
    db = str(tmp_path / "inc.duckdb")
    index(root, db, jobs=1, progress=False)
    _edit(root, "main.py", _append("\n# a note\n"))
    index(root, db, jobs=1, progress=False)
    _edit(root, rel, fn)
    r = index(root, db, jobs=1, progress=False)
    assert r.resolve_stats.model_kept == (kept.KEEP > 0)
    fresh = str(tmp_path / "fresh.duckdb")
    kept.forget()
    index(root, fresh, jobs=1, progress=False)
    assert differences(db, fresh) == []


# names resolution looks up without any text naming them (protocols, constructors, the
# types of literals): never fresh
IMPLICIT = {
    "python __init__": ({
        "lib.py": "class C:\n    pass\n",
        "app.py": "from lib import C\n\n\ndef main():\n    return C()\n",
    }, "lib.py", _replace("class C:\n    pass\n", "class C:\n    pass\n\n    def __init__(self):\n        pass\n")),
    "python __call__": ({
        "lib.py": "class C:\n    pass\n\n\nc = C()\n",
        "app.py": "from lib import c\n\n\ndef main():\n    return c()\n",
    }, "lib.py", _replace("class C:\n    pass\n", "class C:\n    pass\n\n    def __call__(self):\n        pass\n")),
    "python __enter__": ({
        "lib.py": "class C:\n    def work(self):\n        return 1\n",
        "app.py": "from lib import C\n\n\ndef main():\n    with C() as c:\n        return c.work()\n",
    }, "lib.py", _append("\n    def __enter__(self):\n        return self\n")),
    "js constructor": ({
        "lib.js": "export class C {\n  work() {\n    return 1;\n  }\n}\n",
        "app.js": "import { C } from './lib.js';\n\nexport function main() {\n  return new C();\n}\n",
    }, "lib.js", _replace("  work() {", "  constructor() {\n    this.x = 1;\n  }\n  work() {")),
}


@pytest.mark.parametrize("case", sorted(IMPLICIT))
def test_names_resolution_looks_up_itself_are_never_quiet(tmp_path, case):
    files, rel, fn = IMPLICIT[case]
    r, diff = _run(tmp_path, files, rel, fn, True)
    assert diff == []
    assert r.resolve_stats.files > 1


# additions reached without their name: by walking an old class's methods, as a default export
UNNAMED = {
    "python method setting an attribute": ({
        "lib.py": "class Base:\n    def run(self):\n        return 1\n\n\nclass Other:\n    def run(self):\n"
                  "        return 2\n\n\nclass Thing:\n    def __init__(self):\n        self.val = Base()\n",
        "app.py": "from lib import Thing\n\n\ndef main():\n    return Thing().val.run()\n",
    }, "lib.py", _append("\n    def brand_new_setter(self):\n        self.val = Other()\n")),
    "python function declaring a module name global": ({
        "lib.py": "class Registry:\n    def guess(self):\n        return 1\n\n\n_db = None\n",
        "app.py": "import lib\n\n\ndef main():\n    return lib._db.guess()\n",
    }, "lib.py", _append("\n\ndef brand_new_init():\n    global _db\n    _db = Registry()\n")),
    "js default export": ({
        "lib.js": "export function helper() {\n  return 1;\n}\n",
        "app.js": "import thing from './lib.js';\n\nexport function main() {\n  return thing();\n}\n",
    }, "lib.js", _append("\nexport default function brandNewDefault() {\n  return 2;\n}\n")),
}


@pytest.mark.parametrize("case", sorted(UNNAMED))
def test_additions_reached_without_their_name_are_never_quiet(tmp_path, case):
    files, rel, fn = UNNAMED[case]
    r, diff = _run(tmp_path, files, rel, fn, True)
    assert diff == []
    assert r.resolve_stats.files > 1


# `quiet.facts` maps ids to qualnames in Python (a row's ids are its own file's symbols):
# the same multisets as the joins over the whole symbols table it replaced
_JOINED_FACTS = (
    ("s", """SELECT s.path, p.qualname, s.name, s.qualname, s.kind, s.language, s.signature,
                    s.start_line, s.is_declaration, s.decorators, s.visibility
             FROM symbols s LEFT JOIN symbols p ON p.symbol_id = s.parent_id
             WHERE list_contains($p, s.path)"""),
    ("b", """SELECT b.path, s.qualname, b.kind, b.name, b.value, b.value_type, v.qualname, b.line
             FROM bindings b LEFT JOIN symbols s ON s.symbol_id = b.src_id
                             LEFT JOIN symbols v ON v.symbol_id = b.value_id
             WHERE list_contains($p, b.path)"""),
    ("e", """SELECT e.path, s.qualname, e.kind, e.dst_name, e.line
             FROM edges e LEFT JOIN symbols s ON s.symbol_id = e.src_id
             WHERE list_contains($p, e.path) AND e.kind IN ('calls', 'imports', 'inherits', 'implements')"""),
    ("i", """SELECT i.path, s.qualname, i.module, i.name, i.alias, i.line
             FROM imports i LEFT JOIN symbols s ON s.symbol_id = i.src_id
             WHERE list_contains($p, i.path)"""),
    ("f", "SELECT path, NULL, language, module, status FROM files WHERE list_contains($p, path)"),
)


def test_facts_equal_the_rows_joined_to_their_symbols(tmp_path):
    from collections import Counter

    from workbench.resolve import quiet
    _, db = _indexed(tmp_path, {**PY, "deco.py": "import functools\n\n\nclass K:\n    @functools.cache\n"
                                                     "    def f(self, a=lib_default()):\n        x = [1]\n"
                                                     "        y = self.f\n        return y(x)\n"})
    paths = ["app.py", "deco.py", "lib.py", "pkg/impl.py"]
    con = duckdb.connect(db, read_only=True)
    try:
        ids: dict = {"s": [], "e": []}
        got = quiet.facts(con, paths, ids)
        want = {p: Counter() for p in paths}
        for tag, sql in _JOINED_FACTS:
            for row in con.execute(sql, {"p": paths}).fetchall():
                if tag == "s":
                    row = (*row[:9], tuple(row[9] or ()), row[10])
                want[row[0]][(tag, *row[1:])] += 1
        n_symbols = con.execute("SELECT count(*) FROM symbols WHERE list_contains($p, path)",
                                {"p": paths}).fetchall()[0][0]
        n_edges = con.execute("SELECT count(*) FROM edges WHERE list_contains($p, path)",
                              {"p": paths}).fetchall()[0][0]
    finally:
        con.close()
    assert got == want
    assert all(sum(c.values()) > 5 for c in got.values())
    assert len(ids["s"]) == n_symbols and len(ids["e"]) == n_edges


@pytest.mark.parametrize("as_list", [False, True])
def test_fresh_names_as_parameters_or_as_a_list(tmp_path, monkeypatch, as_list):
    """`_fresh` matches a few names as parameters of their own, more as a joined list: the
    same answers either way, for names in use in another file or not."""
    from collections import Counter

    from workbench.resolve import quiet
    if as_list:
        monkeypatch.setattr(quiet, "_FRESH_PARAMS", 0)
    _, db = _indexed(tmp_path, {**PY, "deco.py": "@register_thing\ndef decorated():\n    return 1\n"})
    con = duckdb.connect(db, read_only=True)
    try:
        def fresh(names):
            return quiet._fresh(con, "lib.py", set(names), Counter())
        unused = [f"brand_new_{i}" for i in range(20)]
        assert fresh(unused[:1]) and fresh(unused)
        for used in ("Impl", "go", "register_thing", "pkg", "later_added"):  # in other files' texts
            assert not fresh([used]), used
            assert not fresh(unused + [used]), used
        assert fresh(["helper"]) is False       # app.py imports it
        assert fresh(["make_thing_unused"])
        # a part of a longer identifier is not that identifier: `later` in `lib.later_added`
        for part in ("later", "added", "regist", "thing", "Imp", "mpl", "g"):
            assert fresh([part]), part
            assert not fresh([part, "go"]), part
    finally:
        con.close()


def test_fresh_searching_the_models_symbol_texts_equals_the_table_scan(tmp_path):
    """`_fresh` given the run's model searches its symbols' texts in Python
    (`Model.symbol_texts`) instead of scanning the symbols table: the same answer for every
    identifier of the repository's texts, parts of them and unused names, whichever file
    is the edited one; names only symbols hold (a module's name, a name only in a
    signature or a decorator's text) are found, in another file only."""
    import re
    from collections import Counter

    from workbench.resolve import quiet
    from workbench.resolve.model import Model
    _, db = _indexed(tmp_path, {**PY, "deco.py": "@register_thing(keyword_only_in_deco=1)\ndef decorated():\n    return 1\n",
                                    "zzsolo.py": "def typed(x: 'OnlyInSignature' = 3):\n    return x\n"})
    con = duckdb.connect(db, read_only=True)
    try:
        m = Model(con, bulk_bindings=False)
        texts = [t for row in con.execute("""SELECT name, qualname, signature, array_to_string(decorators, ' ')
                                             FROM symbols""").fetchall() for t in row if t]
        words = sorted({w for t in texts for w in re.findall(r"[^\W\d]\w*", t)})
        names = words + [w[: len(w) // 2] for w in words if len(w) > 3] + ["brand_new_unused", "zz_nowhere"]
        assert {"zzsolo", "OnlyInSignature", "keyword_only_in_deco"} <= set(names)
        for path in ("lib.py", "zzsolo.py", "deco.py"):
            for name in names:
                scan = quiet._fresh(con, path, {name}, Counter())
                assert quiet._fresh(con, path, {name}, Counter(), m) == scan, (path, name)
        for name in ("zzsolo", "OnlyInSignature", "keyword_only_in_deco"):
            assert not quiet._fresh(con, "lib.py", {name}, Counter(), m), name
        assert quiet._fresh(con, "zzsolo.py", {"OnlyInSignature"}, Counter(), m)
        assert quiet._fresh(con, "deco.py", {"keyword_only_in_deco"}, Counter(), m)
        assert m._texts is not None and "lib.py" in m._texts
    finally:
        con.close()


def test_fresh_with_the_row_texts_equals_the_table_scans(tmp_path):
    """`_fresh` given a model holding the row texts (`quiet.RowTexts`) answers without
    scanning the imports, edges and bindings tables when no text holds a name, and scans
    them when one does: the same answer as the scans alone for every identifier of the
    repository's texts, parts of them and unused names, whichever file is the edited one.
    The edited files' texts of the current run (`RowTexts.edited`) count for the other
    files only, and join the rest at the next run."""
    import re
    from collections import Counter

    from workbench.resolve import quiet
    from workbench.resolve.model import Model
    _, db = _indexed(tmp_path, {**PY, "deco.py": "@register_thing(keyword_only_in_deco=1)\ndef decorated():\n    return 1\n",
                                    "zzsolo.py": "VALUE = only_in_a_value + 1\nimport only_imported_module as only_alias\n"})
    con = duckdb.connect(db, read_only=True)
    try:
        m = Model(con, bulk_bindings=False)
        m.row_texts = quiet.RowTexts.load(con)
        texts = [t for row in con.execute("""SELECT name, value, value_type FROM bindings UNION ALL
                                             SELECT module, name, alias FROM imports UNION ALL
                                             SELECT dst_name, NULL, NULL FROM edges""").fetchall()
                 for t in row if t]
        words = sorted({w for t in texts for w in re.findall(r"[^\W\d]\w*", t)})
        names = words + [w[: len(w) // 2] for w in words if len(w) > 3] + ["brand_new_unused", "zz_nowhere"]
        assert {"only_in_a_value", "only_imported_module", "only_alias"} <= set(names)
        for path in ("lib.py", "zzsolo.py", "deco.py"):
            for name in names:
                scan = quiet._fresh(con, path, {name}, Counter(), None)
                assert quiet._fresh(con, path, {name}, Counter(), m) == scan, (path, name)
        for name in ("only_in_a_value", "only_imported_module", "only_alias"):
            assert m.row_texts.holds({name}, "zzsolo.py")
            assert not quiet._fresh(con, "lib.py", {name}, Counter(), m), name
            assert quiet._fresh(con, "zzsolo.py", {name}, Counter(), m), name
        assert not m.row_texts.holds({"brand_new_unused"}, "lib.py")
        # this run's texts of an edited file: not its own, the other files' (then all)
        rt = m.row_texts
        rt.edited({"lib.py": Counter({("b", None, "assign", "X", "edited_in_text", None, None, 3): 1}),
                   "app.py": Counter({("i", None, "edited_module", None, None, 1): 1})})
        assert not rt.holds({"edited_in_text"}, "lib.py") and rt.holds({"edited_in_text"}, "app.py")
        assert rt.holds({"edited_module"}, "lib.py") and not rt.holds({"edited_module"}, "app.py")
        rt.edited({})
        assert rt.holds({"edited_in_text"}, "lib.py") and rt.holds({"edited_module"}, "app.py")
    finally:
        con.close()
