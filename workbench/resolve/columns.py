"""Query results as the resolver's model holds them: lists by column name (`cols`), texts
one object each (`_interned`). The lowest of the model's modules (`model`, `bindings`, `lazy`,
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
