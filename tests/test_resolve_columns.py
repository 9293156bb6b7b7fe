"""The model's query results (`resolve.columns.cols`): the text columns it asks for
`interned` hold the same values as a row-by-row conversion, one object per distinct text
(what `_interned` gives), nulls and empty results included, without importing pandas."""
from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import duckdb

from workbench.indexer import index
from workbench.resolve.columns import _distinct_once, _interned, cols
from workbench.resolve.model import Model

SAMPLES = Path(__file__).resolve().parent.parent / "sample_repos"


def _same_objects(texts: list) -> bool:
    """Whether equal texts of `texts` are one object."""
    first = {}
    return all(first.setdefault(t, t) is t for t in texts if t is not None)


def test_interned_columns_equal_the_row_conversion_with_one_object_per_text(tmp_path):
    db = str(tmp_path / "pyshop.duckdb")
    index(str(SAMPLES / "pyshop"), db, jobs=1, progress=False)
    con = duckdb.connect(db, read_only=True)
    try:
        plain = cols(con, Model._SYMBOLS)
        got = cols(con, Model._SYMBOLS, interned=Model._INTERNED)
        assert got == {**plain, **{c: _interned(plain[c]) for c in Model._INTERNED}}
        assert len(got["path"]) > 50 and len(set(got["path"])) > 5
        for c in Model._INTERNED:
            assert _same_objects(got[c])
        # nulls, a text repeated, nothing at all
        rows = cols(con, "SELECT * FROM (VALUES ('a', 1), (NULL, 2), ('a', 3), ('b', 4)) t(x, n) "
                         "UNION ALL SELECT 'b', 5 ORDER BY n", interned=("x",))
        assert rows == {"x": ["a", None, "a", "b", "b"], "n": [1, 2, 3, 4, 5]}
        assert rows["x"][0] is rows["x"][2] and rows["x"][3] is rows["x"][4]
        assert cols(con, "SELECT path FROM symbols WHERE false", interned=("path",)) == {"path": []}
    finally:
        con.close()


def test_interned_columns_import_no_pandas(tmp_path):
    db = str(tmp_path / "pyshop.duckdb")
    index(str(SAMPLES / "pyshop"), db, jobs=1, progress=False)
    code = ("import sys, duckdb\n"
            "from workbench.resolve.model import Model\n"
            "from workbench.resolve.columns import cols\n"
            f"con = duckdb.connect({db!r}, read_only=True)\n"
            "got = cols(con, Model._SYMBOLS, interned=Model._INTERNED)\n"
            "assert got['path'], got\n"
            "print('pandas' in sys.modules)\n")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "False"


def test_a_column_of_several_chunks():
    import pyarrow as pa
    column = pa.chunked_array([["x", None, "y"], [], ["y", "x"]], type=pa.string())
    got = _distinct_once(column)
    assert got == ["x", None, "y", "y", "x"] and got[0] is got[4] and got[2] is got[3]
    assert _distinct_once(pa.chunked_array([], type=pa.string())) == []
