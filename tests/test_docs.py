"""The docs against the code: every CLI command and option, every agent tool and argument,
every rule and every table column (the call log's too) is documented, every `workbench ...`
the docs name exists, and the examples in the docs run."""
from __future__ import annotations

import os
import re
import shlex
from pathlib import Path

import pytest

from workbench import schema
from workbench.cli import build_parser, main
from workbench.views import TOOLS
from workbench.views.rules import rule_fields

ROOT = Path(__file__).resolve().parent.parent
DOC_FILES = [ROOT / "README.md", ROOT / "CONTRIBUTING.md", *sorted((ROOT / "docs").glob("*.md"))]
DOCS = {p.name: p.read_text(encoding="utf-8") for p in DOC_FILES}
ALL = "\n".join(DOCS.values())
BLOCK = re.compile(r"^```(\w*)\n(.*?)^```", re.M | re.S)


def _subcommands(parser) -> dict:
    sub = next((a for a in parser._actions if a.__class__.__name__ == "_SubParsersAction"), None)
    return sub.choices if sub is not None else {}


def _commands() -> dict:
    """Every command, nested ones as 'tasks from-git'."""
    out = {}
    for name, parser in _subcommands(build_parser()).items():
        out[name] = parser
        out.update({f"{name} {n}": p for n, p in _subcommands(parser).items()})
    return out


def _mentioned(word: str, text: str = ALL) -> bool:
    return re.search(rf"(?<![\w-]){re.escape(word)}(?![\w-])", text) is not None


def test_every_cli_command_and_option_is_documented():
    missing = []
    todo = [(name, sub) for name, sub in _commands().items()]
    while todo:                             # commands with subcommands (`workbench corpus index`) too
        name, sub = todo.pop()
        if f"workbench {name}" not in ALL:
            missing.append(f"workbench {name}")
        for action in sub._actions:
            missing += [f"workbench {name} {o}" for o in action.option_strings
                        if o not in ("-h", "--help") and not _mentioned(o)]
            if action.__class__.__name__ == "_SubParsersAction":
                todo += [(f"{name} {n}", p) for n, p in action.choices.items()]
    assert missing == []


def test_every_workbench_command_the_docs_name_exists():
    commands = {c.split()[0] for c in _commands()}
    named = set(re.findall(r"(?<![\w./-])workbench ([a-z_]+)", ALL))
    assert named - commands == set()


def test_every_tool_and_argument_is_documented():
    views = DOCS["views.md"]
    for name, tool in TOOLS.items():
        assert _mentioned(name, views), name
        row = next((ln for ln in views.splitlines() if f"`{name}(" in ln), "")
        for arg in tool.parameters["properties"]:
            assert _mentioned(arg, row), f"{name}: argument {arg} not in its row of docs/views.md"


def test_every_rule_is_documented():
    views = DOCS["views.md"]
    assert [f.name for f in rule_fields() if f"`{f.name}`" not in views] == []


def test_every_table_column_is_documented():
    text = DOCS["schema.md"]
    sections = {m.group(1): m.start() for m in re.finditer(r"^## (\w+)", text, re.M)}
    missing = []
    for table, cols in {**schema.TABLES, **schema.LOG_TABLES}.items():
        assert table in sections, f"docs/schema.md has no section for table {table}"
        start = sections[table]
        end = min([s for s in sections.values() if s > start] + [len(text)])
        missing += [f"{table}.{c.name}" for c in cols if not _mentioned(c.name, text[start:end])]
    assert missing == []


# ---------------------------------------------------------------- the examples run

def _blocks(lang: str) -> list[tuple[str, str]]:
    return [(name, m.group(2)) for name, text in DOCS.items() for m in BLOCK.finditer(text)
            if m.group(1) == lang]


_PLACEHOLDER = re.compile(r"\b(DB|ROOT|REPO|FILE|PATH|DIR|SYMBOL|NAME|N|GLOB|TOOL_NAME|ENTRY_FILE)\b|[\[\]|]|\.\.\.")


def _concrete_commands() -> list[tuple[str, list[str]]]:
    """`workbench ...` lines of the bash blocks written with real values (not a synopsis)."""
    out = []
    for name, body in _blocks("bash"):
        for line in body.splitlines():
            line = line.split(" #", 1)[0].strip()
            if line.startswith("workbench ") and not _PLACEHOLDER.search(line):
                out.append((name, shlex.split(line)[1:]))
    return out


@pytest.fixture
def docs_dir(tmp_path, monkeypatch):
    (tmp_path / "sample_repos").symlink_to(ROOT / "sample_repos")
    monkeypatch.chdir(tmp_path)
    return tmp_path


def test_python_and_sql_examples_run(docs_dir, capsys):
    blocks = _blocks("python")
    assert len(blocks) >= 3
    for name, code in blocks:
        ns: dict = {}
        try:
            exec(compile(code, f"{name} example", "exec"), ns)
        finally:
            for v in ns.values():
                if hasattr(v, "close") and type(v).__name__ == "Workbench":
                    v.close()
    import workbench
    with workbench.open(str(docs_dir / "pyshop.duckdb")) as wb:
        for name, code in _blocks("sql"):
            for stmt in filter(str.strip, code.split(";")):
                assert wb.sql(stmt).fetchall() is not None, (name, stmt)


def test_command_examples_run(docs_dir, capsys):
    commands = _concrete_commands()
    assert len(commands) >= 10
    assert os.path.exists(ROOT / "sample_repos" / "pyshop")
    for name, argv in sorted(commands, key=lambda c: c[1][0] != "index"):    # index first
        assert main(argv) == 0, (name, argv, capsys.readouterr().err)
    capsys.readouterr()
