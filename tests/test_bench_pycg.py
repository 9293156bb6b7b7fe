"""`bench/callgraph_heldout.py --pycg DIR` reads a folder laid out as PyCG's micro-benchmark
(`<category>/<case>/main.py` and `callgraph.json`) and scores it like the held-out programs."""
from __future__ import annotations

import importlib.util
import json
from pathlib import Path

import pytest

BENCH = Path(__file__).resolve().parent.parent / "bench" / "callgraph_heldout.py"


def _bench():
    spec = importlib.util.spec_from_file_location("callgraph_heldout_bench", BENCH)
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def _case(root: Path, category: str, name: str, source: str, expected: dict) -> None:
    d = root / category / name
    d.mkdir(parents=True)
    (d / "main.py").write_text(source)
    (d / "callgraph.json").write_text(json.dumps(expected))


def test_a_pycg_layout_folder_is_scored_per_category(tmp_path):
    _case(tmp_path, "direct_calls", "plain",
          "def f():\n    pass\n\nf()\n", {"main": ["main.f"], "main.f": []})
    # an expected edge no program run makes: scored as missed, with the case named
    _case(tmp_path, "functions", "never",
          "def g():\n    pass\n\ndef h():\n    pass\n\ng()\n",
          {"main": ["main.g", "main.h"], "main.g": [], "main.h": []})
    bench = _bench()
    rows = bench.load_pycg_rows(tmp_path)
    assert [r[0] for r in rows] == ["direct_calls-plain", "functions-never"]
    text = bench.report(rows, source=f"PyCG micro-benchmark: {len(rows)} cases")
    assert "functions-never: missing [('main', 'main.h')] extra []" in text
    overall = next(line for line in text.splitlines() if line.startswith("overall"))
    assert overall.split()[1:6] == ["2", "3", "2", "0", "1"]       # cases, edges, tp, fp, fn
    assert "w/o implicit" not in text


def test_a_folder_without_cases_says_what_it_expects(tmp_path):
    with pytest.raises(SystemExit, match="micro-benchmark/snippets"):
        _bench().load_pycg_rows(tmp_path)
