"""Write the notebooks of this folder from their sources in `notebooks/src/` (no outputs,
stable cell ids).

    .venv/bin/python notebooks/_build.py          # rewrite every notebook
    .venv/bin/python notebooks/_build.py --check  # exit 1 if a notebook's cells differ from its source

Each source is a plain Python file in jupytext's "percent" format, so linters, editors and
tests read it as code (and jupytext can pair it with the notebook):

    # %% [markdown]
    # # A title
    # Markdown text, each line commented.

    # %% tags=["parameters"]
    REPO = sample_repo("pyshop")

    # %%
    wb = open_repo(REPO)

IPython magics are comments in the source (`# %load_ext sql`); a cell that starts with a
cell magic (`# %%sql`) is commented whole, since its body is not Python. Edit the sources,
not the notebooks. `--check` compares what the cells say (type, source, tags), not outputs,
execution counts or metadata: running a notebook in JupyterLab, which saves its outputs
into the file, does not make it "out of date". (The test suite checks separately that the
committed notebooks carry no outputs.)
"""
from __future__ import annotations

import json
import re
import sys
from pathlib import Path

import nbformat

HERE = Path(__file__).resolve().parent
SOURCES = HERE / "src"

_MARKER = re.compile(r"^# %%(?: \[(?P<kind>markdown)\])?(?: tags=(?P<tags>\[.*\]))?\s*$")
_MAGIC = re.compile(r"^# (%%?[A-Za-z_]\w*.*)$")


def parse(text: str) -> list[tuple[str, str, list[str]]]:
    """A percent-format source -> [(cell type, source, tags)]."""
    cells, cur = [], None
    for line in text.splitlines():
        m = _MARKER.match(line)
        if m:
            if cur is not None:
                cells.append(cur)
            cur = (m["kind"] or "code", [], json.loads(m["tags"]) if m["tags"] else [])
        elif cur is not None:
            cur[1].append(line)
        elif line.strip():
            raise ValueError(f"text before the first cell marker: {line!r}")
    if cur is not None:
        cells.append(cur)
    out = []
    for kind, lines, tags in cells:
        src = "\n".join(lines).strip("\n").split("\n")
        if kind == "markdown":
            src = [ln[2:] if ln.startswith("# ") else ln[1:] if ln.startswith("#") else ln for ln in src]
        elif src and src[0].startswith("# %%"):                 # a cell magic: the whole cell
            src = [ln[2:] if ln.startswith("# ") else ln[1:] for ln in src]
        else:
            src = [_MAGIC.sub(r"\1", ln) for ln in src]
        out.append((kind, "\n".join(src), tags))
    return out


def build(name: str, cells: list) -> nbformat.NotebookNode:
    nb = nbformat.v4.new_notebook()
    nb.metadata = {
        "kernelspec": {"name": "python3", "display_name": "Python 3 (ipykernel)", "language": "python"},
        "language_info": {"name": "python"},
    }
    for i, (kind, src, tags) in enumerate(cells):
        meta = {"tags": tags} if tags else {}
        if kind == "markdown":
            cell = nbformat.v4.new_markdown_cell(src, metadata=meta)
        else:
            cell = nbformat.v4.new_code_cell(src, metadata=meta)
        cell["id"] = f"{name[:2]}-{i:02d}"
        nb.cells.append(cell)
    return nb


def notebook_text(source: Path) -> str:
    """The .ipynb text a source builds to."""
    return nbformat.writes(build(source.stem, parse(source.read_text(encoding="utf-8")))) + "\n"


def cells_of(nb) -> list[tuple[str, str, list]]:
    """What a notebook's cells say: (type, source, tags), nothing that running it changes."""
    return [(c.cell_type, c.source, list(c.get("metadata", {}).get("tags", []))) for c in nb.cells]


def same_cells(path: Path, source: Path) -> bool:
    """The notebook at `path` has exactly the cells its source builds (outputs ignored)."""
    try:
        nb = nbformat.read(path, as_version=4)
    except Exception:  # noqa: BLE001  (unreadable or not a notebook)
        return False
    return cells_of(nb) == cells_of(build(source.stem, parse(source.read_text(encoding="utf-8"))))


def main(argv=None) -> int:
    argv = sys.argv[1:] if argv is None else argv
    check = "--check" in argv
    stale = []
    sources = sorted(SOURCES.glob("*.py"))
    for source in sources:
        path = HERE / f"{source.stem}.ipynb"
        text = notebook_text(source)
        if check:
            if not path.exists() or not same_cells(path, source):
                stale.append(path.name)
        else:
            path.write_text(text, encoding="utf-8")
            print(f"wrote {path.relative_to(HERE.parent)}")
    orphans = sorted(p.name for p in HERE.glob("*.ipynb") if not (SOURCES / f"{p.stem}.py").exists())
    if orphans:
        print("notebooks without a source in notebooks/src:", ", ".join(orphans))
        return 1
    if stale:
        print("out of date (run notebooks/_build.py):", ", ".join(stale))
        return 1
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
