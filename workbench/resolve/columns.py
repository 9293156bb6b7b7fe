"""Query results as the resolver's model holds them: lists by column name (`cols`), texts
one object each (`_interned`, `objects`). The lowest of the model's modules (`model`, `bindings`, `lazy`,
`refresh` read the tables through it)."""
from __future__ import annotations


def cols(con, sql: str, params=None) -> dict[str, list]:
    """A query's result as lists by column name (through Arrow)."""
    tbl = con.sql(sql, params=params).to_arrow_table() if params is not None else con.sql(sql).to_arrow_table()
    return {name: tbl.column(name).to_pylist() for name in tbl.column_names}


def _interned(texts: list) -> list:
    """`texts` with one string object per distinct text (Arrow gives every row its own)."""
    one = {}.setdefault
    return [one(t, t) for t in texts]


def objects(arr, table: dict) -> list:
    """An Arrow array's values as a list with one object per distinct value, the one
    `table` holds for it (added when new): each distinct value becomes a Python object
    once (`dictionary_encode`), and the rows' list is taken from those in C (numpy), not
    made row by row (`to_pylist`, then `_interned`: two Python passes over every row)."""
    import numpy as np
    enc = arr.dictionary_encode()
    one = table.setdefault
    uniq = [v if v is None else one(v, v) for v in enc.dictionary.to_pylist()]
    idx = enc.indices
    if idx.null_count:
        uniq.append(None)
        idx = idx.fill_null(len(uniq) - 1)
    held = np.empty(len(uniq), dtype=object)    # (`np.array(uniq)` might make a 2-d array)
    held[:] = uniq
    pos = np.frombuffer(idx.buffers()[1], dtype=idx.type.to_pandas_dtype(),
                        count=len(idx) + idx.offset)[idx.offset:]
    return held[pos].tolist()
