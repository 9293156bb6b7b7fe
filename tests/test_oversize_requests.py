"""Oversize and malformed requests: huge numbers, huge lists, megabyte names, undecodable
text, wrong types. Every tool answers (an error text or a bounded answer), never raises,
never runs away; the call-graph API and the CLI answer the same way."""
from __future__ import annotations

import re
import time

import pytest

import workbench
from conftest import write
from workbench.graph import NoIndexedFiles, SymbolNotFound
from workbench.indexer import index


@pytest.fixture(scope="module")
def wb(tmp_path_factory):
    root = tmp_path_factory.mktemp("oversize") / "repo"
    write(root, "app/util.py", "def helper(x):\n    return x\n\nclass Thing:\n"
                               "    def __init__(self):\n        self.x = helper(1)\n")
    calls = "".join(f"def caller_{i}():\n    return helper({i})\n\n" for i in range(3000))
    write(root, "app/many.py", "from app.util import helper\n\n" + calls)
    write(root, "app/main.py", "from app.util import helper, Thing\n\ndef main():\n"
                               "    return helper(Thing())\n")
    db = str(root.parent / "o.duckdb")
    index(root, db, jobs=1, progress=False)
    with workbench.open(db) as w:
        yield w


def _answers(resp) -> str:
    assert isinstance(resp.text, str) and resp.text
    return resp.text


@pytest.mark.parametrize("tool,args", [
    ("read_region", {"path": "app/util.py", "start_line": 1, "end_line": 10 ** 12}),
    ("read_region", {"path": "app/util.py", "start_line": 10 ** 100, "end_line": 10 ** 101}),
    ("read_region", {"path": "app/util.py", "start_line": "9" * 5000, "end_line": 2}),
    ("read_region", {"path": "app/util.py", "start_line": -(2 ** 63), "end_line": 2 ** 63}),
    ("list_files", {"max_depth": 10 ** 9}),
    ("list_files", {"max_depth": -5}),
    ("trace_call_chain", {"symbol": "helper", "depth": 10 ** 9}),
    ("trace_call_chain", {"symbol": "helper", "depth": 2 ** 70}),
    ("repo_map", {"budget_tokens": 10 ** 12}),
    ("repo_map", {"budget_tokens": -1}),
    ("repo_map", {"focus": ["app/util.py"] * 100_000}),
    ("repo_map", {"focus": [1]}),
    ("repo_map", {"focus": [["app"]]}),
    ("repo_map", {"focus": [None, {}]}),
    ("resolve_symbol", {"name": "x" * 1_000_000}),
    ("find_definition", {"symbol": "a." * 200_000}),
    ("find_callers", {"symbol": "y" * 1_000_000}),
    ("read_outline", {"path": "a/" * 100_000}),
    ("file_index", {"path": "x" * 1_000_000}),
    ("get_architecture_overview", {"directory": "d/" * 100_000}),
])
def test_an_oversize_argument_gets_an_answer(wb, tool, args):
    t = time.perf_counter()
    text = _answers(wb.tool(tool, **args))
    assert len(text) < 200_000
    # never runs away: a 100,000-entry focus list once ran for minutes; now every call
    # ends within its time limit (tool_timeout, 10 s by default; room for a loaded machine)
    assert time.perf_counter() - t < 60


@pytest.mark.parametrize("value", ["\udcff", "app/\udce9.py", "\ud800", "a\udfffb"])
@pytest.mark.parametrize("tool,arg", [("read_region", "path"), ("read_outline", "path"),
                                      ("file_index", "path"), ("list_files", "path"),
                                      ("resolve_symbol", "name"), ("find_definition", "symbol"),
                                      ("find_callers", "symbol"), ("trace_call_chain", "symbol"),
                                      ("get_architecture_overview", "directory"),
                                      ("repo_map", "focus")])
def test_undecodable_text_in_an_argument_is_an_error_text(wb, tool, arg, value):
    args = {"read_region": {"start_line": 1, "end_line": 2}}.get(tool, {})
    args[arg] = [value] if arg == "focus" else value
    resp = wb.tool(tool, **args)
    assert resp.error and "not valid text" in resp.text, resp.text


@pytest.mark.parametrize("symbol", ["0", "1", "007", "\u00b2", "\u0663", "123456789012345678901"])
@pytest.mark.parametrize("tool", ["find_definition", "find_callers", "trace_call_chain",
                                  "resolve_symbol"])
def test_a_digit_only_symbol_is_a_name_not_an_internal_id(wb, tool, symbol):
    key = "name" if tool == "resolve_symbol" else "symbol"
    resp = wb.tool(tool, **{key: symbol})
    assert resp.error and f"no definition named {symbol!r}" in resp.text, resp.text


@pytest.mark.parametrize("tool,arg", [("get_architecture_overview", "directory"),
                                      ("list_files", "path"), ("read_outline", "path")])
@pytest.mark.parametrize("path", ["/etc/passwd", "../x", "app/../../x", "app\n", "app/main.py\nx"])
def test_a_path_outside_the_root_or_with_a_line_break_is_refused(wb, tool, arg, path):
    resp = wb.tool(tool, **{arg: path})
    assert resp.error and re.match(r"error: (absolute paths are not allowed|path .* (leads "
                                   r"outside the repository root|contains a line break))",
                                   resp.text), resp.text


def test_the_graph_api_refuses_outside_paths_and_unknown_directories(wb):
    from workbench.views.pathsafe import PathError
    for bad in ("/etc/passwd", "../x", "app/\n"):
        with pytest.raises(PathError):
            wb.get_architecture_overview(bad)
        with pytest.raises(PathError):
            wb.impact([bad])
    with pytest.raises(NoIndexedFiles, match="no indexed files under 'nowhere'"):
        wb.get_architecture_overview("nowhere")


def test_a_name_with_thousands_of_callers_gets_a_capped_answer_with_a_count(wb):
    text = wb.tool("find_callers", symbol="app.util.helper").text
    assert len(text.splitlines()) < 200
    assert "3,002 call sites" in text          # 3,000 callers, main() and Thing.__init__
    last = text.rstrip().splitlines()[-1]       # says how to get the rest
    assert last.startswith("[call sites 1-") and "of 3,002 shown" in last
    assert 'next page: find_callers(symbol="app.util.helper", offset=' in last


@pytest.mark.parametrize("argv", [
    ["tool", "{db}", "read_region", "path=app/\udcff.py", "start_line=1", "end_line=2"],
    ["tool", "{db}", "find_callers", "symbol=0"],
    ["tool", "{db}", "repo_map", "focus=[1]"],
    ["tool", "{db}", "read_region", "path=app/util.py", "start_line=" + "9" * 5000, "end_line=2"],
])
def test_the_cli_answers_malformed_arguments_without_a_traceback(wb, argv, capsys):
    from workbench.cli import main
    code = main([a.replace("{db}", wb.db) for a in argv])
    out, err = capsys.readouterr()
    assert code in (0, 1, 2) and "Traceback" not in err
    assert (out + err).strip()


@pytest.mark.parametrize("value", ["\udcff", "\ud800", "a\udfffb"])
@pytest.mark.parametrize("method", ["find_callers", "find_callees", "trace_call_chain"])
def test_undecodable_text_through_the_python_api_is_not_found(wb, method, value):
    # the tools check text first; the API's graph functions must not hand it to DuckDB
    with pytest.raises(SymbolNotFound, match="no definition named"):
        getattr(wb, method)(value)
