"""A cold `workbench index` of a small repository loads only what indexing needs: not
pandas (which `pa.array` imports on first use), not pyarrow.compute, not the views."""
from __future__ import annotations

import json
import shutil
import subprocess
import sys
from pathlib import Path

import pyarrow as pa
import pytest

from workbench.store import arrow_array

SAMPLES = Path(__file__).resolve().parent.parent / "sample_repos"


@pytest.mark.parametrize("values, type_", [
    (["a", None, "b\u00e9", ""], pa.string()),
    ([1, None, -3, 2**40], pa.int64()),
    ([7, 8], pa.int32()),
    ([1.5, None, 0.0], pa.float64()),
    ([True, None, False] * 5, pa.bool_()),
    ([["x", "y"], None, [], ["z"]], pa.list_(pa.string())),
    ([], pa.string()),
    ([], pa.list_(pa.string())),
    ([None, None], pa.int64()),
])
def test_arrow_array_equals_pa_array(values, type_):
    got = arrow_array(values, type_)
    got.validate(full=True)
    assert got.type == type_
    assert got.equals(pa.array(values, type=type_))


def test_cli_index_of_a_small_repo_imports_only_what_it_needs(tmp_path):
    repo = tmp_path / "pyshop"
    shutil.copytree(SAMPLES / "pyshop", repo)
    code = (
        "import sys, json\n"
        "from workbench.cli import main\n"
        f"rc = main(['index', {str(repo)!r}, '--db', {str(tmp_path / 'x.duckdb')!r}, '-q'])\n"
        "print(json.dumps({'rc': rc, 'loaded': sorted(m for m in ('pandas', 'pyarrow.compute', "
        "'workbench.views', 'workbench.corpus') if m in sys.modules)}))\n")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    got = json.loads(out.stdout.strip().splitlines()[-1])
    assert got == {"rc": 0, "loaded": []}
