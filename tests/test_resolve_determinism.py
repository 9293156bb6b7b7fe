"""Resolution must not depend on the process's string-hash seed (PYTHONHASHSEED).

Value sets hold tuples with strings, so their iteration order changes from one process to
the next; before the resolver walked them in a canonical order, the same repository gave
different `dst_id`s between runs (385 edges of the standard library)."""
from __future__ import annotations

import json
import os
import subprocess
import sys
import textwrap
from pathlib import Path

from conftest import write

DUMP = textwrap.dedent("""
    import json, sys
    import workbench
    wb = workbench.index(sys.argv[1], db=sys.argv[2], progress=False, jobs=1)
    rows = wb.sql('''SELECT e.path, e.line, e.kind, e.dst_name, e.dst_qualname, e.resolution,
                            e.candidates, s.start_line
                     FROM edges e LEFT JOIN symbols s ON s.symbol_id = e.dst_id
                     WHERE e.kind <> 'contains' ORDER BY e.path, e.line, e.edge_id''').fetchall()
    print(json.dumps(rows))
""")


def _repo(root: Path) -> None:
    # names defined twice in one scope (both branches of an `if`, a redefinition), called
    # directly, through an import and through values that flow around a cycle
    for i in range(12):
        write(root, f"pkg/mod{i}.py", textwrap.dedent(f"""
            import os

            if os.name == "nt":
                def helper{i}(x):
                    return x
            else:
                def helper{i}(x):
                    return x + 1

            class Box{i}:
                def run(self):
                    return helper{i}(1)

            class Box{i}:
                def run(self):
                    return helper{i}(2)

            def ping{i}(n):
                f = pong{i} if n else helper{i}
                return f(n - 1)

            def pong{i}(n):
                g = ping{i} if n else Box{i}
                return g(n)

            def use{i}():
                return Box{i}().run(), ping{i}(3)
            """))
    write(root, "pkg/__init__.py", "".join(f"from .mod{i} import helper{i}, Box{i}\n" for i in range(12)))
    write(root, "main.py", "from pkg import *\n\n\ndef main():\n"
          + "".join(f"    helper{i}(0)\n    Box{i}().run()\n" for i in range(12)))


def _edges(root: Path, db: Path, seed: str) -> list:
    env = {**os.environ, "PYTHONHASHSEED": seed}
    out = subprocess.run([sys.executable, "-c", DUMP, str(root), str(db)], env=env,
                         capture_output=True, text=True, check=True)
    return json.loads(out.stdout)


def test_same_edges_under_every_hash_seed(tmp_path):
    root = tmp_path / "repo"
    _repo(root)
    runs = {seed: _edges(root, tmp_path / f"s{seed}.duckdb", seed) for seed in ("1", "2", "3", "4")}
    first = runs["1"]
    assert len(first) > 100
    for seed, rows in runs.items():
        diff = [(a, b) for a, b in zip(first, rows) if a != b]
        assert not diff, f"seed {seed} differs from seed 1 on {len(diff)} edges, e.g. {diff[:3]}"


def test_a_redefined_name_resolves_to_the_later_definition(tmp_path):
    root = tmp_path / "repo"
    _repo(root)
    rows = _edges(root, tmp_path / "s.duckdb", "0")
    # main.py: `helper0(0)` goes through the package re-export to the `else` branch's def
    # (line 8 of mod0.py, after the `if` branch's at line 5); `Box0()` to the second class
    calls = {(r[3], r[1]): r for r in rows if r[0] == "main.py" and r[2] == "calls"}
    helper = calls[("helper0", 5)]
    assert helper[4] == "pkg.mod0.helper0" and helper[7] == 8, helper
    box = calls[("Box0().run", 6)]
    assert box[4] == "pkg.mod0.Box0.run" and box[7] == 16, box


def test_builtins_do_not_depend_on_the_running_process(tmp_path):
    """A notebook kernel or an interactive shell changes `builtins` (IPython drops `exit`
    and adds `display`; the shell binds `_`): a repository indexed there must give the
    same edges as from a plain process."""
    root = tmp_path / "repo"
    write(root, "app.py", textwrap.dedent("""
        import sys

        def main():
            print(len(sys.argv))
            display(sys.argv)
            _("a message to translate")
            exit(0)
    """))
    changed = textwrap.dedent("""
        import builtins
        del builtins.exit
        builtins._ = str
        builtins.display = print
    """)
    runs = []
    for k, prelude in enumerate(("", changed)):
        out = subprocess.run([sys.executable, "-c", prelude + DUMP, str(root), str(tmp_path / f"{k}.duckdb")],
                             capture_output=True, text=True, check=True)
        runs.append({(r[3], r[5]) for r in json.loads(out.stdout) if r[2] == "calls"})
    assert runs[0] == runs[1]
    assert {("exit", "builtin"), ("print", "builtin"), ("len", "builtin")} <= runs[0]
    assert ("display", "builtin") not in runs[0] and ("_", "builtin") not in runs[0]
