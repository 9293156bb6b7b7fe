"""Held-out measure: `workbench callgraph` on Python programs written apart from the resolver.

    python bench/callgraph_heldout.py [--implicit] [--out bench/results/callgraph_heldout.txt]
    python bench/callgraph_heldout.py --pycg PATH/TO/PyCG/micro-benchmark/snippets

The programs under bench/callgraph_heldout/python/<category>-<name>/ were written from
patterns read in the standard library and popular packages (their README says which),
without reading the resolver or the test cases it was developed against; their
`expected.json` holds the calls Python makes when the program runs (checked with
bench/callgraph_heldout/trace_calls.py), in the export's names. This is a measure, not a
target: there are no floors and no test, and the programs must not be changed to suit the
resolver.

Printed: the edges that differ per program (the scoring of tests/test_callgraph_cases.py,
imported, not copied), precision and recall per category (the folder name before the
first `-`) and overall, and the overall figures again without the edges of `implicit.json`
(calls made without a call expression: operators, `with`, property access, dataclass and
`__getattr__` hooks), so the two kinds of miss can be told apart. `--implicit` exports with
implicit call edges on (`callgraph(implicit=True)`, off by default).

`--pycg DIR` scores another set the same way: PyCG's micro-benchmark (its
`micro-benchmark/snippets/` folder, `<category>/<case>/main.py` with the expected graph in
`callgraph.json`), from a clone of its repository, which is not shipped here. Those cases
were written by PyCG's authors, so they are independent of this project; their expected
graphs are PyCG's (a few edges follow PyCG's own conventions rather than what Python runs,
e.g. `<**PyStr**>.join`), and the figure is a measure to read, not a target.
"""
from __future__ import annotations

import argparse
import io
import json
import sys
import time
from collections import defaultdict
from contextlib import redirect_stdout
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
CASES = REPO / "bench" / "callgraph_heldout" / "python"
sys.path.insert(0, str(REPO / "tests"))

from test_callgraph_cases import _edges, _entry, score  # noqa: E402

from workbench.callgraph import callgraph  # noqa: E402


def load_rows(implicit: bool = False) -> list[tuple[str, dict, dict, set]]:
    """(case, expected, got, the case's implicit edges) per case; `implicit`: the setting."""
    rows = []
    for case in sorted(p for p in CASES.iterdir() if p.is_dir()):
        expected = json.loads((case / "expected.json").read_text())
        implicit_path = case / "implicit.json"
        edges = ({tuple(e) for e in json.loads(implicit_path.read_text())}
                 if implicit_path.exists() else set())
        got = callgraph([str(_entry(case))], package=str(case), implicit=implicit)
        rows.append((case.name, expected, got, edges))
    return rows


def load_pycg_rows(snippets: Path, implicit: bool = False) -> list[tuple[str, dict, dict, set]]:
    """(category-case, expected, got, no implicit edges) per case of a PyCG-layout folder:
    `<category>/<case>/main.py` and the expected graph in `callgraph.json` beside it."""
    rows = []
    found = sorted(snippets.glob("*/*/callgraph.json"))
    if not found:
        raise SystemExit(f"no <category>/<case>/callgraph.json under {snippets}: give PyCG's "
                         "micro-benchmark/snippets folder")
    for path in found:
        case = path.parent
        expected = json.loads(path.read_text())
        got = callgraph([str(case / "main.py")], package=str(case), implicit=implicit)
        rows.append((f"{case.parent.name}-{case.name}", expected, got, set()))
    return rows


def without(graph: dict, edges: set) -> dict:
    return {caller: [c for c in callees if (caller, c) not in edges]
            for caller, callees in graph.items()}


def line(label: str, rows) -> str:
    p, r, tp, fp, fn, _ = score(rows)
    return f"{label:<16} {len(rows):>3} {tp + fn:>5} {tp:>4} {fp:>4} {fn:>4}   {p:.3f}   {r:.3f}"


def report(rows, implicit: bool = False, source: str | None = None) -> str:
    out = io.StringIO()
    plain = [(name, e, g) for name, e, g, _ in rows]
    where = source or f"held-out Python call graph: {len(rows)} programs under {CASES.relative_to(REPO)}"
    print(f"{where}; implicit call edges {'on' if implicit else 'off (the default)'}", file=out)
    print("\nedges that differ (missing = expected, not produced; extra = produced, not expected):",
          file=out)
    *_, details = score(plain)
    for d in details:
        print(d, file=out)
    by_cat = defaultdict(list)
    for row in plain:
        by_cat[row[0].split("-", 1)[0]].append(row)
    print(f"\n{'category':<16} {'n':>3} {'edges':>5} {'tp':>4} {'fp':>4} {'fn':>4}   prec.   recall",
          file=out)
    for cat in sorted(by_cat):
        print(line(cat, by_cat[cat]), file=out)
    print(line("overall", plain), file=out)
    if source is not None:              # no implicit.json there: nothing to leave out
        return out.getvalue()
    explicit = [(name, without(e, imp), without(g, imp)) for name, e, g, imp in rows]
    n_imp = sum(len(imp & _edges(e)) for _, e, _, imp in rows)
    print(line("w/o implicit", explicit)
          + f"   ({n_imp} implicit edges left out of both sides)", file=out)
    return out.getvalue()


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--out", help="also write the report to this file")
    ap.add_argument("--implicit", action="store_true", help="implicit call edges on (default: off)")
    ap.add_argument("--pycg", metavar="DIR", type=Path,
                    help="score PyCG's micro-benchmark instead: its micro-benchmark/snippets folder")
    args = ap.parse_args()
    t0 = time.perf_counter()
    source = None
    with redirect_stdout(io.StringIO()):
        if args.pycg is not None:
            rows = load_pycg_rows(args.pycg, args.implicit)
            source = f"PyCG micro-benchmark: {len(rows)} cases"
        else:
            rows = load_rows(args.implicit)
    text = report(rows, args.implicit, source)
    print(text, end="")
    print(f"({time.perf_counter() - t0:.1f} s)")
    if args.out:
        Path(args.out).write_text(text)


if __name__ == "__main__":
    main()
