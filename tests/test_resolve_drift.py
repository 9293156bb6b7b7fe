"""An incremental re-index resolves the same edges as a fresh index of the edited tree,
on real code: a part of the standard library, edited the way people edit code."""
from __future__ import annotations

import os
import random
from pathlib import Path

import duckdb
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


@pytest.mark.parametrize("seed,implicit", [(1, None), (3, None), (2, True)])
def test_incremental_reindex_equals_fresh_index_on_stdlib_edits(tmp_path, seed, implicit):
    """By default and with implicit call edges on (the re-indexes keep the setting)."""
    root = _corpus(tmp_path / "corpus")
    db = str(tmp_path / "inc.duckdb")
    index(root, db, jobs=1, progress=False, implicit=implicit)
    rng = random.Random(seed)
    done = []
    # edits only (the incremental path), twice: the second round starts from an
    # incremental state; then files added and removed as well
    for k, add_delete in enumerate((False, False, True)):
        done += mutate(root, rng, add_delete=add_delete)
        report = index(root, db, jobs=1, progress=False)
        assert report.changed + report.added + report.removed > 0
        assert report.resolve_stats.implicit == bool(implicit)
        fresh = str(tmp_path / f"fresh{k}.duckdb")
        index(root, fresh, jobs=1, progress=False, implicit=implicit)
        diff = differences(db, fresh)
        assert not diff, f"edits {done}: {len(diff)} rows differ, e.g. {diff[:6]}"


def test_edits_that_add_and_remove_callback_rows_equal_a_fresh_index(tmp_path):
    """Callback rows (resolution `callback`: a function handed to a builtin that calls it)
    on standard-library code: the callee's definition renamed away (mailcap's
    `lineno_sort_key`), the argument taken out of the call (pyclbr's `key=lineno_key`), and
    a new call handing a function of another file over (`textwrap.dedent`): the incremental
    run's rows are a fresh index's."""
    root = copy_stdlib(tmp_path / "corpus", ("mailcap.py", "pyclbr.py", "timeit.py", "textwrap.py"))
    db = str(tmp_path / "inc.duckdb")
    index(root, db, jobs=1, progress=False)

    def callbacks(path):
        con = duckdb.connect(path, read_only=True)
        try:
            return sorted(con.execute("SELECT path, dst_name, dst_qualname FROM edges "
                                      "WHERE resolution = 'callback'").fetchall())
        finally:
            con.close()
    before = callbacks(db)
    assert ("mailcap.py", "lineno_sort_key", "mailcap.lineno_sort_key") in before
    assert ("pyclbr.py", "lineno_key", "pyclbr._main.<lambda1>") in before

    def edit(rel, old, new):
        p = root / rel
        text = p.read_text(encoding="utf-8")
        assert old in text
        p.write_text(text.replace(old, new, 1), encoding="utf-8")
        st = os.stat(p)
        os.utime(p, (st.st_atime, st.st_mtime + 5))

    edit("mailcap.py", "def lineno_sort_key(entry):", "def lineno_sort_key_renamed(entry):")
    edit("pyclbr.py", "key=lineno_key, reverse=True)\n", "reverse=True)\n")
    edit("timeit.py", "import sys\n", "import sys\nimport textwrap\n\n\ndef _dedented(lines):\n"
                      "    return list(map(textwrap.dedent, lines))\n")
    report = index(root, db, jobs=1, progress=False)
    assert report.changed == 3 and not report.resolve_stats.full
    fresh = str(tmp_path / "fresh.duckdb")
    index(root, fresh, jobs=1, progress=False)
    assert differences(db, fresh) == []
    after = callbacks(db)
    assert after == callbacks(fresh)
    gone, new = set(before) - set(after), set(after) - set(before)
    assert gone == {("mailcap.py", "lineno_sort_key", "mailcap.lineno_sort_key")}
    assert new == {("timeit.py", "textwrap.dedent", "textwrap.dedent")}
    assert sum(1 for r in after if r[0] == "pyclbr.py") == 1     # one of the two calls keeps it
