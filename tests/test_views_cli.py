"""CLI twins: `workbench outline` and `workbench tool` print exactly what the agent gets."""
from __future__ import annotations

import json


from workbench.cli import main
from workbench.views import outline
from workbench.views import call


def test_outline_cli_prints_the_outline_text(sample_dbs, wbs, capsys):
    assert main(["outline", sample_dbs["pyshop"], "shop/orders.py", "--format", "tags",
                 "--no-docs", "--max-children", "3"]) == 0
    out = capsys.readouterr().out
    expected = outline(wbs["pyshop"], "shop/orders.py", format="tags", docs=False, max_children=3)
    assert out == expected.text + "\n"
    assert "[MORE:" in out and "[DOC:" not in out


def test_outline_cli_flags_map_to_rules(sample_dbs, wbs, capsys):
    main(["outline", sample_dbs["pyshop"], "shop/models.py", "--no-private", "--no-fields",
          "--no-lines", "--max-depth", "1", "--rule", "decorators=false"])
    out = capsys.readouterr().out
    ref = outline(wbs["pyshop"], "shop/models.py", private=False, fields=False, line_numbers=False,
                  max_depth=1, decorators=False)
    assert out == ref.text + "\n"


def test_outline_cli_json_has_token_count(sample_dbs, capsys):
    assert main(["outline", sample_dbs["pyshop"], "shop", "-f", "prose", "--json"]) == 0
    d = json.loads(capsys.readouterr().out)
    assert d["tool"] == "outline" and d["tokens"] > 0 and d["text"].startswith("shop/__init__.py is")


def test_tool_cli_prints_exact_text_and_json(sample_dbs, wbs, capsys):
    args = ["path=shop/orders.py", "start_line=17", "end_line=30"]
    assert main(["tool", sample_dbs["pyshop"], "read_region", *args]) == 0
    out = capsys.readouterr().out
    ref = call(wbs["pyshop"], "read_region", {"path": "shop/orders.py", "start_line": 17, "end_line": 30})
    assert out == ref.text + "\n"
    assert main(["tool", sample_dbs["pyshop"], "read_region", *args, "--json"]) == 0
    d = json.loads(capsys.readouterr().out)
    assert d["text"] == ref.text and d["tokens"] == ref.tokens and d["data"]["end_line"] == 30


def test_tool_cli_arrays_rules_list_and_schema(sample_dbs, capsys):
    assert main(["tool", sample_dbs["pyshop"], "repo_map", "budget_tokens=120",
                 "focus=shop/util/text.py,slugify"]) == 0
    assert "towards shop/util/text.py, slugify" in capsys.readouterr().out
    assert main(["tool", sample_dbs["pyshop"], "read_region", "path=shop/orders.py", "start_line=1",
                 "end_line=129", "--max-chars", "400"]) == 0
    out = capsys.readouterr().out
    assert len(out) <= 401 and "request" in out
    assert main(["tool", sample_dbs["pyshop"], "--list"]) == 0
    assert "read_region(path, start_line, end_line, version?)" in capsys.readouterr().out
    assert main(["tool", sample_dbs["pyshop"], "resolve_symbol", "--schema"]) == 0
    assert json.loads(capsys.readouterr().out)["function"]["name"] == "resolve_symbol"


def test_tool_cli_error_response_exit_code(sample_dbs, capsys):
    assert main(["tool", sample_dbs["pyshop"], "read_region", "path=../../etc/passwd",
                 "start_line=1", "end_line=2"]) == 1
    assert capsys.readouterr().out.startswith("error: path '../../etc/passwd' leads outside")
    assert main(["tool", sample_dbs["pyshop"], "read_region", "oops"]) == 2
    assert "expected name=value" in capsys.readouterr().err
