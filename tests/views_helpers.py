"""Helpers of the views tests: the sample repositories and golden files (the indexed
samples, fixtures `sample_dbs` and `wbs`, are in conftest.py: built once per session).

Golden files live under tests/golden/. Regenerate them after an intended change with
``UPDATE_GOLDEN=1 pytest tests/test_views_*.py`` and read the diff before committing.
"""
from __future__ import annotations

import os
from pathlib import Path

GOLDEN = Path(__file__).resolve().parent / "golden"
SAMPLES = Path(__file__).resolve().parent.parent / "sample_repos"
REPOS = ("pyshop", "tsapp", "goservice", "javaservice", "rustlib", "cnative")


def check_golden(rel: str, text: str) -> None:
    """Compare `text` with tests/golden/<rel> (or write it when UPDATE_GOLDEN=1)."""
    path = GOLDEN / rel
    if os.environ.get("UPDATE_GOLDEN"):
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")
        return
    assert path.exists(), f"missing golden file {path}; run with UPDATE_GOLDEN=1 and review it"
    expected = path.read_text(encoding="utf-8")
    assert text == expected, f"{rel} differs from its golden file (UPDATE_GOLDEN=1 to accept)"
