"""Every notebook runs top to bottom headlessly (nbclient) on the sample repositories."""
from __future__ import annotations

import ast
import subprocess
import sys
import time
from pathlib import Path

import nbformat
import pytest

from workbench.notebooks import NOTEBOOKS, execute, inject_parameters, notebook_paths, sample_repo

ROOT = NOTEBOOKS.parent

CELL_TIMEOUT = 240          # seconds per cell; a stuck kernel fails the test instead of hanging
NAMES = [p.stem for p in notebook_paths()]
# Notebooks whose subject is one repository's structure also run on the other samples.
OTHER_SAMPLES = ["tsapp", "goservice", "javaservice", "rustlib", "cnative"]
PER_REPO = ["00_tour", "01_outline_lab", "02_call_chains"]

TIMES: dict[str, float] = {}


def _outputs(nb) -> str:
    out = []
    for c in nb.cells:
        for o in c.get("outputs", []):
            out.append(str(o.get("text", "")) + str(o.get("data", {}).get("text/plain", "")))
    return "\n".join(out)


def test_every_notebook_is_listed_and_built_from_the_generator():
    assert NAMES == ["00_tour", "01_outline_lab", "02_call_chains", "03_agent_preview",
                     "04_sql_over_code", "05_context_engineering", "06_evaluate", "07_corpus"]
    r = subprocess.run([sys.executable, str(NOTEBOOKS / "_build.py"), "--check"],
                       capture_output=True, text=True)
    assert r.returncode == 0, r.stdout + r.stderr


@pytest.mark.parametrize("name", NAMES)
def test_notebook_source_is_python(name):
    source = NOTEBOOKS / "src" / f"{name}.py"
    ast.parse(source.read_text(encoding="utf-8"), filename=str(source))   # magics are comments


def test_percent_sources_keep_magics_tags_and_markdown():
    sys.path.insert(0, str(NOTEBOOKS))
    try:
        from _build import parse
    finally:
        sys.path.remove(str(NOTEBOOKS))
    text = ("# %% [markdown]\n# # Title\n#\n# text\n\n# %% tags=[\"parameters\"]\nREPO = None\n\n"
            "# %%\n# %load_ext sql\nx = 1  # %d is a comment\n\n# %%\n# %%sql\n# SELECT 1\n#\n# FROM t\n")
    assert parse(text) == [("markdown", "# Title\n\ntext", []), ("code", "REPO = None", ["parameters"]),
                           ("code", "%load_ext sql\nx = 1  # %d is a comment", []),
                           ("code", "%%sql\nSELECT 1\n\nFROM t", [])]


def _committed(path: Path) -> str:
    """The text of `path` as committed (git's index), or the file itself outside a git
    checkout: running a notebook in JupyterLab writes outputs into the working copy, and
    that must not fail the tests."""
    rel = path.relative_to(ROOT).as_posix()
    r = subprocess.run(["git", "-C", str(ROOT), "show", f":{rel}"], capture_output=True, text=True)
    return r.stdout if r.returncode == 0 else path.read_text(encoding="utf-8")


@pytest.mark.parametrize("name", NAMES)
def test_notebook_is_committed_without_outputs_and_states_its_purpose(name):
    nb = nbformat.reads(_committed(NOTEBOOKS / f"{name}.ipynb"), as_version=4)
    for c in nb.cells:
        if c.cell_type == "code":
            assert c.outputs == [] and c.execution_count is None, f"{name}: cell {c.id} has outputs"
    first = nb.cells[0]
    assert first.cell_type == "markdown" and "What this notebook is for" in first.source
    tagged = [c for c in nb.cells if "parameters" in c.metadata.get("tags", [])]
    assert len(tagged) == 1 and "REPO" in tagged[0].source


def test_injected_parameters_follow_the_parameters_cell():
    nb = nbformat.read(NOTEBOOKS / "00_tour.ipynb", as_version=4)
    i = next(k for k, c in enumerate(nb.cells) if "parameters" in c.metadata.get("tags", []))
    inject_parameters(nb, {"REPO": "/x", "SMALL": True})
    assert nb.cells[i + 1].source.endswith("REPO = '/x'\nSMALL = True")


def _run(name: str, repo: str | None, tmp_path: Path, **extra):
    params = {"DB": str(tmp_path / "wb.duckdb"), "SMALL": True, **extra}
    if repo is not None:
        params["REPO"] = repo
    t0 = time.perf_counter()
    result = execute(NOTEBOOKS / f"{name}.ipynb", params, timeout=CELL_TIMEOUT)
    TIMES[f"{name}[{Path(repo).name if repo else 'default'}]"] = time.perf_counter() - t0
    return result.nb


@pytest.fixture(scope="module")
def tour_on_pyshop(tmp_path_factory):
    """00_tour executed on pyshop, once for the two tests that check that run."""
    return _run("00_tour", sample_repo("pyshop"), tmp_path_factory.mktemp("tour"))


@pytest.mark.parametrize("name", NAMES)
def test_notebook_executes_on_its_default_sample(name, tmp_path, request, monkeypatch):
    # 05 teaches on the standard library: its default (SMALL: a copy of the lesson modules);
    # 07 builds a corpus of every sample (in tmp_path, not the user cache)
    repo = None if name in ("05_context_engineering", "07_corpus") else sample_repo("pyshop")
    extra = {"CORPUS": str(tmp_path / "corpus")} if name == "07_corpus" else {}
    kernel_tmp = tmp_path / "kernel-tmp"        # the kernel's temporary files go here
    kernel_tmp.mkdir()
    monkeypatch.setenv("TMPDIR", str(kernel_tmp))
    if name == "00_tour":               # the same inputs as test_tour_output_...: one run
        nb = request.getfixturevalue("tour_on_pyshop")
    else:
        nb = _run(name, repo, tmp_path, **extra)
    text = _outputs(nb)
    assert "Traceback" not in text
    # 03 records a call log in a temporary folder; nothing of it may stay behind
    assert not list(kernel_tmp.rglob("calls.duckdb*")), sorted(p.name for p in kernel_tmp.iterdir())


@pytest.mark.parametrize("sample", OTHER_SAMPLES)
@pytest.mark.parametrize("name", PER_REPO)
def test_notebook_executes_on_other_samples(name, sample, tmp_path):
    nb = _run(name, sample_repo(sample), tmp_path)
    assert "Traceback" not in _outputs(nb)


def test_tour_output_shows_the_index_and_sql_results(tour_on_pyshop):
    text = _outputs(tour_on_pyshop)
    assert "shop/orders.py" in text          # files table
    assert "place_order" in text             # symbols / outline


def teardown_module(module):
    if TIMES:
        print("\nnotebook execution times: " + ", ".join(f"{k} {v:.1f}s" for k, v in sorted(TIMES.items())))


# ---------------------------------------------------------------- the headless runner

def _tiny_notebook(path: Path, *sources: str) -> Path:
    nb = nbformat.v4.new_notebook()
    nb.metadata = {"kernelspec": {"name": "python3", "display_name": "Python 3", "language": "python"}}
    nb.cells = [nbformat.v4.new_code_cell(s) for s in sources]
    nbformat.write(nb, path)
    return path


def test_runner_records_a_failing_notebook_and_goes_on(tmp_path, monkeypatch, capsys):
    import workbench.notebooks as runner
    bad = _tiny_notebook(tmp_path / "01_bad.ipynb", "x = 1", "raise ValueError('broken on purpose')", "y = 2")
    slow = _tiny_notebook(tmp_path / "02_slow.ipynb", "import time\ntime.sleep(60)")
    good = _tiny_notebook(tmp_path / "03_good.ipynb", "print('fine')")
    monkeypatch.setattr(runner, "notebook_paths", lambda: [bad, slow, good])
    t0 = time.perf_counter()
    code = runner.main(["--out", str(tmp_path / "out"), "--time-limit", "8"])
    out = capsys.readouterr().out
    assert code == 1
    assert "01_bad.ipynb" in out and "FAILED: " in out and "ValueError: broken on purpose" in out
    assert "[at cell 2 (raise ValueError('broken on purpose'))]" in out      # which cell stopped it
    assert "02_slow.ipynb" in out and "over the time limit of 8s" in out
    assert "did not finish in its time [at cell 1 (import time)]" in out
    assert "03_good.ipynb" in out and "1 of 3 notebooks ran; failed: 01_bad, 02_slow" in out
    assert time.perf_counter() - t0 < 55                      # the sleep was cut at the limit
    ran = nbformat.read(tmp_path / "out" / "01_bad.ipynb", as_version=4)
    assert ran.cells[0].execution_count == 1 and ran.cells[2].execution_count is None
    assert (tmp_path / "out" / "03_good.ipynb").exists()


# ---------------------------------------------------------------- on a real package

REAL_LIMIT = 300            # seconds per notebook on rich (100 files); 05 on the stdlib lesson files


@pytest.mark.slow
@pytest.mark.parametrize("name", NAMES)
def test_notebook_runs_on_a_real_package_within_its_time_limit(name, rich_repo, tmp_path):
    """Every notebook headless on `rich` (05: the standard library's lesson files), within
    REAL_LIMIT seconds each (index included), with the figures a reader checks."""
    params = {"DB": str(tmp_path / "wb.duckdb"), "SMALL": True}
    if name != "05_context_engineering":
        params["REPO"] = str(rich_repo)
    r = execute(NOTEBOOKS / f"{name}.ipynb", params, timeout=REAL_LIMIT, time_limit=REAL_LIMIT,
                raise_errors=False)
    TIMES[f"{name}[rich]"] = r.seconds
    assert r.ok, r.error
    text = _outputs(r.nb)       # (rich has a class named Traceback: look for error outputs)
    errors = [o for c in r.nb.cells for o in c.get("outputs", []) if o.get("output_type") == "error"
              or "Traceback (most recent call last)" in str(o.get("text", ""))]
    assert errors == [] and "NaN" not in text
    if name == "01_outline_lab":
        assert "rich/console.py" in text
    if name == "04_sql_over_code":
        assert "import cycles (strongly connected components)" in text and "53 files" in text
