"""The CLI twins: index, sql, stats, demo."""
from __future__ import annotations

import re
import subprocess
import sys

import duckdb
import pytest

from workbench.cli import main


def test_cli_index_sql_stats(sample_copy, tmp_path, capsys):
    repo = sample_copy("goservice")
    db = str(tmp_path / "go.duckdb")
    assert main(["index", str(repo), "--db", db, "--jobs", "1", "-q"]) == 0
    out = capsys.readouterr().out
    assert "added" in out and "0 removed" in out
    assert main(["sql", db, "SELECT count(*) AS n FROM files WHERE language = 'go'", "--csv"]) == 0
    assert capsys.readouterr().out.splitlines() == ["n", "5"]
    assert main(["stats", db]) == 0
    out = capsys.readouterr().out
    assert "files: " in out and "symbols by kind:" in out


def test_cli_errors_are_clear(tmp_path, capsys):
    assert main(["index", str(tmp_path / "missing")]) == 2
    assert "not a directory" in capsys.readouterr().err
    assert main(["stats", str(tmp_path / "none.duckdb")]) == 2
    assert "no workbench database" in capsys.readouterr().err


def test_cli_exclude_glob(sample_copy, tmp_path, capsys):
    repo = sample_copy("pyshop")
    db = str(tmp_path / "p.duckdb")
    assert main(["index", str(repo), "--db", db, "--exclude", "tests/", "--jobs", "1", "-q"]) == 0
    capsys.readouterr()
    main(["sql", db, "SELECT count(*) AS n FROM files WHERE path LIKE 'tests/%'", "--csv"])
    assert capsys.readouterr().out.splitlines() == ["n", "0"]


@pytest.mark.parametrize("module", ["workbench.cli", "workbench"])
def test_console_script_runs(tmp_path, module):
    out = subprocess.run([sys.executable, "-m", module, "--help"], capture_output=True, text=True)
    assert out.returncode == 0 and "index" in out.stdout


def test_python_m_workbench_exits_with_the_command_status(tmp_path):
    out = subprocess.run([sys.executable, "-m", "workbench", "outline", str(tmp_path / "none.duckdb"), "x.py"],
                         capture_output=True, text=True)
    assert out.returncode != 0 and out.stderr.strip()


def test_api_sql_with_parameters_sees_the_graph_macros(sample_copy, tmp_path):
    import workbench
    wb = workbench.index(sample_copy("pyshop"), db=str(tmp_path / "p.duckdb"), jobs=1, progress=False)
    try:
        assert wb.sql("SELECT count(*) FROM symbols WHERE kind = ?", ["class"]).fetchall() == [(12,)]
        rows = wb.sql("SELECT caller FROM find_callers(?) ORDER BY 1", ["shop.pricing.compute_total"]).fetchall()
        assert ("shop.orders.Order.recalculate",) in rows
    finally:
        wb.close()


def test_graph_macros_are_stored_in_the_database(sample_copy, tmp_path, capsys):
    db = str(tmp_path / "p.duckdb")
    assert main(["index", str(sample_copy("pyshop")), "--db", db, "--jobs", "1", "-q"]) == 0
    capsys.readouterr()
    con = duckdb.connect(db)        # a plain DuckDB connection, not workbench's
    try:
        rows = con.execute("SELECT caller FROM find_callers('shop.pricing.compute_total')").fetchall()
    finally:
        con.close()
    assert ("shop.orders.Order.recalculate",) in rows


def test_every_command_help_describes_arguments_defaults_and_an_example():
    """`workbench COMMAND --help`: a description, a help text for every argument, the
    default of every option that has one, and at least one example."""
    import argparse

    from workbench.cli import build_parser
    p = build_parser()
    sub = next(a for a in p._actions if isinstance(a, argparse._SubParsersAction))
    problems = []
    for name, cmd in sub.choices.items():
        text = cmd.format_help()
        if not cmd.description:
            problems.append(f"{name}: no description")
        if not re.search(rf"examples:\n  workbench {name}(\s|$)", text):
            problems.append(f"{name}: no example")
        for a in cmd._actions:
            if isinstance(a, argparse._HelpAction):
                continue
            label = a.option_strings[0] if a.option_strings else a.dest
            if not a.help:
                problems.append(f"{name} {label}: no help")
            elif a.option_strings and not a.required and "default" not in a.help \
                    and "repeatable" not in a.help and a.nargs != 0 and "optional" not in a.help:
                problems.append(f"{name} {label}: no default stated")
    assert problems == []


def test_callgraph_says_why_an_entry_file_gives_no_graph(tmp_path, capsys):
    (tmp_path / "ok.py").write_text("def f():\n    pass\n\nf()\n")
    (tmp_path / "blob.py").write_bytes(b"x = 1\x00\x01\x02binary")
    assert main(["callgraph", str(tmp_path / "missing.py"), "--package", str(tmp_path)]) == 2
    assert "missing.py: no such file under the package root" in capsys.readouterr().err
    assert main(["callgraph", str(tmp_path / "blob.py"), "--package", str(tmp_path)]) == 2
    assert "blob.py was not indexed (skipped: binary)" in capsys.readouterr().err
    assert main(["callgraph", str(tmp_path / "ok.py"), "--package", str(tmp_path)]) == 0
    assert '"ok": ["ok.f"]' in capsys.readouterr().out


def test_a_command_that_ends_the_process_runs_without_the_cyclic_collector(sample_copy, tmp_path,
                                                                             monkeypatch):
    """`workbench index` as the program: the collector stays off through the command (the
    process ends with it), and the process ends through `_end_process`; called with an
    argument list (a library caller) the collector is left as it was."""
    import gc

    import workbench.cli as cli
    from workbench.cli import index as cli_index
    repo = sample_copy("pyshop")
    db = str(tmp_path / "p.duckdb")
    seen, ended = [], []
    real = cli_index.cmd_index

    def watched(a):
        seen.append(gc.isenabled())
        return real(a)

    monkeypatch.setattr(cli_index, "cmd_index", watched)
    monkeypatch.setattr(cli, "_end_process", lambda code: ended.append(code))
    from workbench.resolve import kept
    monkeypatch.setattr(kept, "KEEP", kept.KEEP)    # the program keeps no model: as it was after
    monkeypatch.setattr(sys, "argv", ["workbench", "index", str(repo), "--db", db, "--jobs", "1", "-q"])
    gc.enable()
    try:
        assert main() == 0
        assert seen == [False] and ended == [0]
        gc.enable()
        assert main(["index", str(repo), "--db", db, "--jobs", "1", "-q"]) == 0
        assert seen == [False, True]
    finally:
        gc.enable()


def test_a_command_that_ends_the_process_keeps_no_resolution_model(sample_copy, tmp_path, monkeypatch):
    """`workbench index` as the program keeps no resolution model for a next run in the
    process (none comes): nothing kept, no symbol texts kept (`Model.symbol_texts`); the
    texts their `quiet.quiet` searches (`RowTexts.load`, the blob of the symbols' texts) and
    the argument rows' names their `prefetch` reads (`_arg_names`) are made once, for the
    model stored next to the database, which the next process loads. Called with an
    argument list (a library caller, a notebook) the model of the run is kept, with those."""
    import workbench.cli as cli
    from workbench.resolve import kept, quiet
    from workbench.resolve.model import Model
    repo = sample_copy("pyshop")
    loads, texts = [], []
    real_load, real_texts = quiet.RowTexts.load.__func__, Model.symbol_texts
    monkeypatch.setattr(quiet.RowTexts, "load", classmethod(lambda c, con: loads.append(1) or real_load(c, con)))
    monkeypatch.setattr(Model, "symbol_texts", lambda m: texts.append(1) or real_texts(m))
    names, real_release = [], Model.release_bindings

    def release(m, **kw):
        real_release(m, **kw)
        names.append(m._arg_names is not None)
    monkeypatch.setattr(Model, "release_bindings", release)
    monkeypatch.setattr(cli, "_end_process", lambda code: None)
    monkeypatch.setattr(kept, "KEEP", 2)
    kept.forget()
    try:
        db = str(tmp_path / "program.duckdb")
        monkeypatch.setattr(sys, "argv", ["workbench", "index", str(repo), "--db", db, "--jobs", "1", "-q"])
        assert main() == 0
        assert (kept.kept(), loads, texts) == (0, [1], []) and names and all(names)
        names.clear()
        loads.clear()
        texts.clear()
        monkeypatch.setattr(kept, "KEEP", 2)
        assert main(["index", str(repo), "--db", str(tmp_path / "caller.duckdb"), "--jobs", "1", "-q"]) == 0
        assert kept.kept() == 1 and loads == [1] and texts and all(names)
    finally:
        kept.forget()
