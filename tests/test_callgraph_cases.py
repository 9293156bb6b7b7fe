"""Precision and recall of `workbench callgraph` over hand-written programs.

Each case under tests/callgraph_cases/<lang>/<case>/ (python, js, java, go, rust, c: C and
C++ share one folder) is a small program about one language feature, with `expected.json`: the call graph written by hand in the export format (see
workbench/callgraph.py for the naming rules). The test runs the export on the case's entry
file (`main.py` / `main.ts` / `main.js`, `Main.java` / `main.java`, `main.go`, `main.rs`,
`main.c` / `main.cpp`), compares the edge sets over all cases and prints
precision, recall and the edges that differ.

A case's `implicit.json` lists the expected edges only the `implicit` setting gives (calls
Python makes without a call expression, and calls on what an operator's method returns;
`resolve.setting`): by default they are left out of both sides, and the Python cases are
scored once more with the setting on, against every expected edge.
"""
from __future__ import annotations

import json
from pathlib import Path

import pytest

from workbench.callgraph import callgraph

CASES = Path(__file__).parent / "callgraph_cases"
# Floors reached by this implementation; raise them when it improves, never lower silently.
FLOORS = {"python": (0.995, 0.995), "python+implicit": (0.995, 0.995), "js": (0.97, 0.97), "java": (0.87, 0.85), "go": (0.95, 0.92),
          "rust": (0.94, 0.87), "c": (0.95, 0.84)}


def _entry(case: Path) -> Path:
    for name in ("main.py", "main.ts", "main.js", "Main.java", "main.java", "main.go", "main.rs",
                 "main.c", "main.cpp"):
        if (case / name).exists():
            return case / name
    raise FileNotFoundError(f"no main.* in {case}")


def _edges(graph: dict) -> set[tuple[str, str]]:
    return {(caller, callee) for caller, callees in graph.items() for callee in callees}


def _implicit(case: Path) -> set[tuple[str, str]]:
    p = case / "implicit.json"
    return {tuple(e) for e in json.loads(p.read_text())} if p.exists() else set()


def _without(graph: dict, edges: set) -> dict:
    return {caller: [c for c in callees if (caller, c) not in edges] for caller, callees in graph.items()}


def run_cases(lang: str, implicit: bool = False):
    """(case, expected, got) per case; by default without the edges of its `implicit.json`
    (which the graph must not hold)."""
    rows = []
    for case in sorted(p for p in (CASES / lang).iterdir() if p.is_dir()):
        expected = json.loads((case / "expected.json").read_text())
        got = callgraph([str(_entry(case))], package=str(case), implicit=implicit)
        if not implicit:
            imp = _implicit(case)
            assert not imp & _edges(got), f"{case.name}: an implicit edge without the setting"
            expected = _without(expected, imp)
        rows.append((case.name, expected, got))
    return rows


def score(rows):
    tp = fp = fn = 0
    report = []
    for name, expected, got in rows:
        e, g = _edges(expected), _edges(got)
        tp += len(e & g)
        fp += len(g - e)
        fn += len(e - g)
        missing_keys = sorted(set(expected) - set(got))
        if e != g or missing_keys:
            report.append(f"  {name}: missing {sorted(e - g)} extra {sorted(g - e)}"
                          + (f" missing keys {missing_keys}" if missing_keys else ""))
    precision = tp / (tp + fp) if tp + fp else 1.0
    recall = tp / (tp + fn) if tp + fn else 1.0
    return precision, recall, tp, fp, fn, report


#: the fewest cases each language's folder must hold
MIN_CASES = {"python": 40, "js": 10, "java": 8, "go": 8, "rust": 8, "c": 8}


@pytest.mark.parametrize("lang", sorted(FLOORS))
def test_callgraph_precision_and_recall(lang, capsys):
    implicit = lang.endswith("+implicit")
    rows = run_cases(lang.removesuffix("+implicit"), implicit=implicit)
    assert len(rows) >= MIN_CASES[lang.removesuffix("+implicit")]
    if implicit:    # every case's implicit edges counted
        assert sum(len(_implicit(CASES / "python" / name)) for name, _, _ in rows) >= 30
    precision, recall, tp, fp, fn, report = score(rows)
    with capsys.disabled():
        print(f"\ncallgraph {lang}: {len(rows)} programs, {tp + fn} expected edges: "
              f"precision {precision:.3f}, recall {recall:.3f} (tp {tp}, fp {fp}, fn {fn})")
        for line in report:
            print(line)
    p_floor, r_floor = FLOORS[lang]
    assert precision >= p_floor and recall >= r_floor


def test_every_function_of_a_reachable_module_is_a_key():
    case = CASES / "python" / "reexport_chain_alias"
    got = callgraph([str(case / "main.py")], package=str(case))
    assert {"main", "main.report", "pkg", "pkg.mid", "pkg.impl", "pkg.impl.compute"} <= set(got)
    assert got["pkg.mid"] == []


def test_unreachable_modules_are_left_out(tmp_path):
    (tmp_path / "main.py").write_text("def f():\n    pass\n")
    (tmp_path / "other.py").write_text("def g():\n    pass\n")
    got = callgraph([str(tmp_path / "main.py")], package=str(tmp_path))
    assert got == {"main": [], "main.f": []}


@pytest.mark.parametrize("case, entry, keys", [
    # Java: package.Class.method, constructors after their class, files are no callers
    ("java/constructor_this_chain", "Main.java",
     {"Main.main", "app.Account.Account", "app.Account.validate", "app.Account.deposit"}),
    # Go: package directory (root: its package clause), methods through their receiver
    ("go/methods_pointer_receiver", "main.go", {"main", "main.main", "main.Buffer.grow"}),
    ("go/import_alias_internal", "main.go", {"internal.strutil", "internal.strutil.Reverse"}),
    # Rust: module paths from the crate root, impl items through their type
    ("rust/mod_file_paths", "main.rs", {"crate.main", "crate.net.is_valid", "crate.net.addr.parse"}),
    # C: file without extension; the definition behind a header's prototype is reached
    ("c/header_prototype", "main.c", {"main.main", "strutil.upper", "strutil.str_copy_upper"}),
    # C++: namespaces and classes below the file, members named where they are defined
    ("c/cpp_class_out_of_line", "main.cpp", {"stack.IntStack.IntStack", "stack.IntStack.grow"}),
])
def test_export_names_per_language(case, entry, keys):
    got = callgraph([str(CASES / case / entry)], package=str(CASES / case))
    assert keys <= set(got)
    expected = json.loads((CASES / case / "expected.json").read_text())
    assert set(got) == set(expected), "keys differ from the hand-written graph's"


def test_c_prototypes_are_no_keys(tmp_path):
    (tmp_path / "main.c").write_text('#include "api.h"\nint main(void) { return twice(2); }\n')
    (tmp_path / "api.h").write_text("int twice(int x);\n")
    (tmp_path / "impl.c").write_text('#include "api.h"\nint twice(int x) { return 2 * x; }\n')
    got = callgraph([str(tmp_path / "main.c")], package=str(tmp_path))
    assert got == {"main.main": ["impl.twice"], "impl.twice": []}
