"""Query results as the resolver's model holds them: lists by column name (`cols`), texts
one object each (`_interned`, or `cols(..., interned=...)`). The lowest of the model's
modules (`model`, `bindings`, `lazy`, `refresh` read the tables through it)."""
from __future__ import annotations


def cols(con, sql: str, params=None, interned: tuple = ()) -> dict[str, list]:
    """A query's result as lists by column name (through Arrow). The text columns named in
    `interned` hold one string object per distinct text, as `_interned` gives them, made
    from Arrow's dictionary of the column in C: a column of few distinct texts (paths,
    languages, kinds, names) costs a fraction of a row-by-row conversion then."""
    tbl = con.sql(sql, params=params).to_arrow_table() if params is not None else con.sql(sql).to_arrow_table()
    return {name: _distinct_once(tbl.column(name)) if name in interned else tbl.column(name).to_pylist()
            for name in tbl.column_names}


def _distinct_once(column) -> list:
    """A text column as a list holding one object per distinct text (None for nulls): each
    distinct text made once (the column's dictionary), the rows picked from them by numpy."""
    import numpy as np
    if column.num_chunks != 1:
        column = column.combine_chunks()
    else:
        column = column.chunk(0)
    enc = column.dictionary_encode(null_encoding="encode")
    texts = np.empty(len(enc.dictionary), dtype=object)
    texts[:] = enc.dictionary.to_pylist()
    idx = enc.indices
    # the indices' buffer as is (`to_numpy` would import pandas); they hold no nulls
    codes = np.frombuffer(idx.buffers()[1], dtype=idx.type.to_pandas_dtype(),
                          count=len(idx) + idx.offset)[idx.offset:]
    return texts[codes].tolist()


def _interned(texts: list) -> list:
    """`texts` with one string object per distinct text (Arrow gives every row its own)."""
    one = {}.setdefault
    return [one(t, t) for t in texts]
