"""`symbols.doc`: first sentences (not first lines), module docstrings after a licence
header, comment docs; `.py` + `.pyi` twins (the implementation wins, the stub stays
findable)."""
from __future__ import annotations

import ast
import warnings
from pathlib import Path

import duckdb
import pytest
from extract_expect import snippet

import workbench
from workbench.languages.doctext import MAX_DOC, comment_summary, docstring_summary
from workbench.views import call


def test_a_sentence_wrapped_over_lines_is_read_whole():
    ex = snippet("views.py", '''\
def render(request):
    """Sometimes it is necessary to build the response by hand instead of
    returning a template from a view.  Because the middleware runs later, headers
    set here may still change.
    """
''', "python")
    assert ex.find("views.render")["doc"] == (
        "Sometimes it is necessary to build the response by hand instead of returning a "
        "template from a view.")


def test_a_paragraph_without_a_full_stop_ends_at_the_blank_line():
    assert docstring_summary('"""Return the user id\n    for a session token\n\n    More."""') == (
        "Return the user id for a session token")


def test_abbreviations_and_dotted_names_do_not_end_the_sentence():
    assert docstring_summary('"""Parse options, e.g. from os.environ or a file.  More."""') == (
        "Parse options, e.g. from os.environ or a file.")
    assert docstring_summary("'''Call obj.method() first. Then this.'''") == "Call obj.method() first."


def test_field_lists_and_doctests_end_the_paragraph():
    assert docstring_summary('"""Add two numbers\n:param a: first\n:returns: the sum\n"""') == (
        "Add two numbers")
    assert docstring_summary('"""\n    Square x\n    >>> square(2)\n    4\n    """') == "Square x"


def test_a_long_paragraph_is_capped():
    doc = docstring_summary('"""' + "word " * 100 + '"""')
    assert len(doc) == MAX_DOC and doc.endswith("\u2026")


def test_comment_docs_take_the_first_sentence_of_the_block():
    assert comment_summary(["/**", " * Opens the device and maps its", " * registers. Returns 0.",
                            " * @param dev the device", " */"]) == (
        "Opens the device and maps its registers.")
    assert comment_summary(["// ---------", "// Frees the pool", "// and its pages"]) == (
        "Frees the pool and its pages")
    ex = snippet("dev.c", """\
/* Opens the device and maps its registers
 * into the address space. Returns 0 on success. */
int dev_open(int fd);
""", "c")
    assert ex.find("dev.dev_open")["doc"] == (
        "Opens the device and maps its registers into the address space.")


def test_module_docstring_after_a_licence_comment_block():
    ex = snippet("pkg/mod.py", '''\
#!/usr/bin/env python3
# Copyright (c) 2024 Example Authors.
# Licensed under the MIT licence; see LICENSE.

"""Tools to read configuration files.

Longer text.
"""
import os
''', "python")
    assert ex.symbols[0]["kind"] == "module"
    assert ex.symbols[0]["doc"] == "Tools to read configuration files."


def test_a_string_after_code_is_no_module_docstring():
    ex = snippet("pkg/mod.py", '# header\nimport os\n"""not a docstring"""\n', "python")
    assert ex.symbols[0]["doc"] is None


@pytest.mark.slow
def test_stdlib_module_docs_match_python_ast(stdlib_db):
    """Every stdlib module with a docstring (by `ast`) has a module doc, and it is the
    summary of that docstring."""
    from stdlib_ast import stdlib_root
    root = Path(stdlib_root())
    con = duckdb.connect(stdlib_db, read_only=True)
    docs = dict(con.execute("""SELECT path, doc FROM symbols WHERE kind = 'module'
                               AND language = 'python' AND path LIKE '%.py'""").fetchall())
    con.close()
    checked, wrong = 0, []
    for path, doc in docs.items():
        try:
            with warnings.catch_warnings():     # stdlib test data with invalid escapes
                warnings.simplefilter("ignore")
                tree = ast.parse((root / path).read_bytes())
        except (SyntaxError, ValueError):
            continue
        expected = ast.get_docstring(tree, clean=True)
        if not expected or not expected.strip():
            continue
        checked += 1
        want = docstring_summary('"""' + expected + '"""')
        if doc != want:
            wrong.append((path, doc, want))
    assert checked > 500
    assert not wrong, wrong[:10]


# ---------------------------------------------------------------- stub twins

def _twins(tmp_path: Path):
    pkg = tmp_path / "pkg"
    pkg.mkdir()
    (pkg / "__init__.py").write_text("")
    (pkg / "conf.py").write_text('''\
def load(path):
    """Read a configuration file."""
    with open(path) as f:
        return parse(f.read())


def parse(text):
    return dict(line.split("=", 1) for line in text.splitlines())


class Config:
    def get(self, key):
        return key
''')
    (pkg / "conf.pyi").write_text('''\
def load(path: str) -> dict[str, str]: ...
def parse(text: str) -> dict[str, str]: ...

class Config:
    def get(self, key: str) -> str: ...
''')
    (pkg / "only_stub.pyi").write_text("def native(x: int) -> int: ...\n")
    return workbench.index(tmp_path, db=str(tmp_path / "wb.duckdb"), progress=False)


def test_stub_symbols_are_declarations(tmp_path):
    wb = _twins(tmp_path)
    rows = wb.sql("""SELECT path, qualname, is_declaration FROM symbols
                     WHERE qualname = 'pkg.conf.Config.get' ORDER BY path""").fetchall()
    assert rows == [("pkg/conf.py", "pkg.conf.Config.get", False),
                    ("pkg/conf.pyi", "pkg.conf.Config.get", True)]


def test_resolve_symbol_reads_the_implementation_not_the_stub(tmp_path):
    wb = _twins(tmp_path)
    for name in ("load", "pkg.conf.load", "Config.get"):
        r = call(wb, "resolve_symbol", {"name": name})
        assert "ambiguous" not in r.text
        assert r.text.splitlines()[0].split(" lines ")[0].endswith("pkg/conf.py"), r.text
    load = call(wb, "resolve_symbol", {"name": "load"}).text
    assert "with open(path) as f:" in load


def test_the_stub_stays_findable(tmp_path):
    wb = _twins(tmp_path)
    stub = call(wb, "resolve_symbol", {"name": "load", "path": "pkg/conf.pyi"}).text
    assert "def load(path: str) -> dict[str, str]: ..." in stub
    # a stub without an implementation is the definition
    assert "def native(x: int) -> int" in call(wb, "resolve_symbol", {"name": "native"}).text
    # find_definition ranks the implementation first and lists the stub after it
    found = call(wb, "find_definition", {"symbol": "pkg.conf.parse"}).text
    assert found.index("pkg/conf.py:") < found.index("pkg/conf.pyi:"), found


def test_a_backslash_newline_after_the_quotes_is_no_text():
    assert docstring_summary('"""\\\nRead the socket.  More."""') == "Read the socket."
    assert docstring_summary('r"""\\d+ digits."""') == "\\d+ digits."
