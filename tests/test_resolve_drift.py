"""An incremental re-index resolves the same edges as a fresh index of the edited tree,
on real code: a part of the standard library, edited the way people edit code."""
from __future__ import annotations

import random
from pathlib import Path

import pytest

from drift import copy_stdlib, differences, mutate
from workbench.indexer import index

# packages and modules that import each other, subclass across files and re-export
PARTS = ("json", "email", "http", "logging", "collections", "importlib", "concurrent",
         "urllib", "xml/etree", "abc.py", "functools.py", "typing.py", "contextlib.py",
         "string.py", "textwrap.py", "argparse.py", "shutil.py", "tempfile.py", "base64.py",
         "calendar.py", "datetime.py", "enum.py", "types.py")


def _corpus(dst: Path) -> Path:
    return copy_stdlib(dst, PARTS)


@pytest.mark.parametrize("seed", [1, 3])
def test_incremental_reindex_equals_fresh_index_on_stdlib_edits(tmp_path, seed):
    root = _corpus(tmp_path / "corpus")
    db = str(tmp_path / "inc.duckdb")
    index(root, db, jobs=1, progress=False)
    rng = random.Random(seed)
    done = []
    # edits only (the incremental path), twice: the second round starts from an
    # incremental state; then files added and removed as well
    for k, add_delete in enumerate((False, False, True)):
        done += mutate(root, rng, add_delete=add_delete)
        report = index(root, db, jobs=1, progress=False)
        assert report.changed + report.added + report.removed > 0
        fresh = str(tmp_path / f"fresh{k}.duckdb")
        index(root, fresh, jobs=1, progress=False)
        diff = differences(db, fresh)
        assert not diff, f"edits {done}: {len(diff)} rows differ, e.g. {diff[:6]}"
