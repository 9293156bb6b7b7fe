"""Every def/class Python's own `ast` finds in the stdlib is in `symbols` with the same
qualname, start line (decorators included) and end line."""
from __future__ import annotations

from collections import Counter

import duckdb
import pytest

from stdlib_ast import ast_definitions, stdlib_root


@pytest.mark.slow
def test_stdlib_symbols_match_python_ast(stdlib_db):
    con = duckdb.connect(stdlib_db, read_only=True)
    paths = [r[0] for r in con.execute(
        "SELECT path FROM files WHERE language = 'python' AND status <> 'skipped'").fetchall()]
    ours = Counter(con.execute(
        "SELECT qualname, start_line, end_line FROM symbols "
        "WHERE language = 'python' AND kind IN ('function', 'method', 'class')").fetchall())
    con.close()
    assert not any(p.startswith("site-packages/") for p in paths)
    total, misses, skipped = 0, [], 0
    root = stdlib_root()
    for p in paths:
        expected = ast_definitions(root, p)
        if expected is None:
            skipped += 1
            continue
        for t in expected:
            total += 1
            if ours[t] > 0:
                ours[t] -= 1
            else:
                misses.append((p, *t))
    recall = 1 - len(misses) / total
    print(f"\nstdlib: {len(paths)} Python files ({skipped} not parseable by ast), "
          f"{total} ast definitions, {len(misses)} missed, recall {recall:.4%}")
    for m in misses[:60]:
        print("  missed:", m)
    assert total > 50_000
    assert recall >= 0.995
