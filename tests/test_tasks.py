"""Task sets from a git history: a small repository built here, two commits apart."""
from __future__ import annotations

import shutil
import subprocess

import pytest

import workbench
from workbench import tasks
from workbench.cli import main

pytestmark = pytest.mark.skipif(shutil.which("git") is None, reason="needs the git command")

OLD = {
    "pkg/__init__.py": "",
    "pkg/shapes.py": '''"""Shapes."""
import math


class Circle:
    """A circle."""

    def __init__(self, r):
        self.r = r

    def area(self):
        return math.pi * self.r ** 2

    def scale(self, k):
        # grow or shrink
        return Circle(self.r * k)


def helper(x, y):
    return x + y


def outer(items):
    def keep(item):
        return item > 0
    return [i for i in items if keep(i)]


def gone():
    return 1


def documented():
    """Old words."""
    return 2
''',
    "pkg/same.py": '''def untouched(a, b):
    return a * b
''',
    "pkg/removed.py": '''def old_api():
    return "old"
''',
    "notes.md": "# notes\n",
}

NEW = {
    "pkg/__init__.py": "",
    "pkg/shapes.py": '''"""Shapes."""
import math


class Circle:
    """A circle."""

    def __init__(self, r):
        self.r = r

    def area(self):
        return math.pi * self.r * self.r

    def scale(
        self,
        k,
    ):
        # grow or shrink (any factor)
        return Circle(self.r * k)  # a new circle

    def perimeter(self):
        return 2 * math.pi * self.r


def helper(x, y):
    return x + y


def outer(items):
    def keep(item):
        return item >= 0
    return [i for i in items if keep(i)]


def documented():
    """New words."""
    return 2
''',
    "pkg/same.py": '''def untouched(a, b):
    return a * b
''',
    "pkg/fresh.py": '''def brand_new():
    return "new"
''',
    "notes.md": "# notes, changed\n",
}


def _git(root, *args):
    subprocess.run(["git", "-C", str(root), *args], check=True, capture_output=True,
                   env={"GIT_AUTHOR_NAME": "t", "GIT_AUTHOR_EMAIL": "t@example.org",
                        "GIT_COMMITTER_NAME": "t", "GIT_COMMITTER_EMAIL": "t@example.org",
                        "HOME": str(root), "PATH": "/usr/bin:/bin:/usr/local/bin"})


def _write(root, files):
    for p in list(root.rglob("*")):
        if p.is_file() and ".git" not in p.parts:
            p.unlink()
    for rel, text in files.items():
        f = root / rel
        f.parent.mkdir(parents=True, exist_ok=True)
        f.write_text(text)


@pytest.fixture(scope="module")
def history(tmp_path_factory):
    root = tmp_path_factory.mktemp("history") / "proj"
    root.mkdir()
    _git(root, "init", "-q", "-b", "main")
    _write(root, OLD)
    _git(root, "add", "-A")
    _git(root, "commit", "-q", "-m", "old")
    _git(root, "tag", "v1")
    _write(root, NEW)
    _git(root, "add", "-A")
    _git(root, "commit", "-q", "-m", "new")
    _git(root, "tag", "v2")
    return root


@pytest.fixture(scope="module")
def rows(history):
    return {r["qualname"]: r for r in tasks.from_git(history, "v1", "v2")}


def test_modified_definitions_with_their_old_range(rows):
    area = rows["pkg.shapes.Circle.area"]
    assert (area["change"], area["start_line"], area["end_line"]) == ("modified", 11, 12)
    assert (area["new_start_line"], area["new_end_line"]) == (11, 12)
    assert area["parent_qualname"] == "pkg.shapes.Circle" and area["kind"] == "method"


def test_nested_definition_is_a_task_of_its_own_and_its_parent_is_not(rows):
    keep = rows["pkg.shapes.outer.keep"]
    assert keep["change"] == "modified" and (keep["start_line"], keep["end_line"]) == (24, 25)
    assert "pkg.shapes.outer" not in rows          # only the nested function's code changed


def test_reformatting_and_comments_are_not_changes(rows):
    assert "pkg.shapes.Circle.scale" not in rows   # line breaks, trailing comma, comments
    assert "pkg.shapes.helper" not in rows and "pkg.same.untouched" not in rows
    assert "pkg.shapes.Circle" not in rows         # a method added: the class's own code is the same


def test_docstring_changes_count_only_when_asked(history, rows):
    assert "pkg.shapes.documented" not in rows
    with_docs = {r["qualname"] for r in tasks.from_git(history, "v1", "v2", docstrings=True)}
    assert "pkg.shapes.documented" in with_docs


def test_deleted_definitions_and_files(rows):
    assert rows["pkg.shapes.gone"]["change"] == "deleted"
    assert (rows["pkg.shapes.gone"]["start_line"], rows["pkg.shapes.gone"]["end_line"]) == (29, 30)
    assert rows["pkg.removed.old_api"]["change"] == "deleted"
    assert rows["pkg.removed.old_api"]["new_path"] is None


def test_added_definitions_point_at_where_they_go(rows):
    per = rows["pkg.shapes.Circle.perimeter"]
    assert per["change"] == "added"
    assert per["anchor"] == "pkg.shapes.Circle.scale"           # the sibling before it
    assert (per["start_line"], per["end_line"]) == (14, 16)
    assert (per["new_start_line"], per["new_end_line"]) == (21, 22)
    fresh = rows["pkg.fresh.brand_new"]
    assert fresh["change"] == "added" and fresh["start_line"] is None   # nothing to reach before


def test_only_parsed_languages_and_exactly_these_tasks(rows):
    assert set(rows) == {"pkg.shapes.Circle.area", "pkg.shapes.outer.keep", "pkg.shapes.gone",
                         "pkg.removed.old_api", "pkg.shapes.Circle.perimeter", "pkg.fresh.brand_new"}


def test_renamed_file_keeps_its_definitions(tmp_path):
    root = tmp_path / "r"
    root.mkdir()
    _git(root, "init", "-q", "-b", "main")
    _write(root, {"a/mod.py": "def f(x):\n    return x\n\n\ndef g(x):\n    return 2 * x\n"})
    _git(root, "add", "-A")
    _git(root, "commit", "-q", "-m", "one")
    _write(root, {"b/mod.py": "def f(x):\n    return x\n\n\ndef g(x):\n    return 3 * x\n"})
    _git(root, "add", "-A")
    _git(root, "commit", "-q", "-m", "two")
    got = tasks.from_git(root, "HEAD~1", "HEAD")
    assert [(r["change"], r["qualname"], r["path"], r["new_path"]) for r in got] == \
        [("modified", "a.mod.g", "a/mod.py", "b/mod.py")]


def test_unknown_revision_is_a_clear_error(history):
    with pytest.raises(tasks.GitError, match="unknown revision 'v9'"):
        tasks.from_git(history, "v9", "v2")
    with pytest.raises(tasks.GitError, match="not a git repository"):
        tasks.GitRepo(history.parent)


def test_prepare_indexes_the_old_revision_and_ranges_agree(history, rows, tmp_path):
    db = str(tmp_path / "old.duckdb")
    tasks.prepare(history, "v1", db)
    with workbench.open(db, read_only=False) as wb:
        got = wb.sql("SELECT start_line, end_line FROM symbols WHERE qualname = 'pkg.shapes.gone'").fetchall()
        assert got == [(29, 30)]
        assert wb.sql("SELECT count(*) FROM files WHERE path = 'pkg/fresh.py'").fetchall() == [(0,)]
        stored = tasks.save(wb.con, list(rows.values()), "t")
        assert stored.num_rows == 6
        back = tasks.load(wb.con)
        assert sorted(back.column("qualname").to_pylist()) == sorted(rows)
        tasks.save(wb.con, list(rows.values()), "t")                 # replaces the set
        assert tasks.load(wb.con).num_rows == 6
        out = tmp_path / "t.parquet"
        assert tasks.export(wb.con, str(out)) == 6
        assert tasks.load(wb.con, str(out)).num_rows == 6


def test_cli_from_git_list_and_export(history, tmp_path, capsys):
    db = str(tmp_path / "cli.duckdb")
    assert main(["tasks", "from-git", str(history), "--from", "v1", "--to", "v2", "--db", db, "-q",
                 "--name", "proj"]) == 0
    text = capsys.readouterr().out
    assert "6 tasks (2 added, 2 deleted, 2 modified)" in text
    assert main(["tasks", "list", db]) == 0
    assert "proj" in capsys.readouterr().out
    csv = tmp_path / "t.csv"
    assert main(["tasks", "export", db, str(csv)]) == 0
    assert csv.read_text().count("\n") == 7


@pytest.fixture(scope="module")
def pyshop(wbs):
    return wbs["pyshop"]


def test_from_symbols_on_an_index(pyshop):
    wb = pyshop
    rows, missing = tasks.from_symbols(wb.con, ["shop.orders.Order.add_item", "shop/cli.py:main", "nope"])
    assert [r["qualname"] for r in rows] == ["shop.cli.main", "shop.orders.Order.add_item"]
    assert missing == ["nope"]
    every, _ = tasks.from_symbols(wb.con, kinds=["function", "method"], paths=["shop/util/"])
    assert every and all(r["path"].startswith("shop/util/") and r["kind"] in ("function", "method")
                         for r in every)
