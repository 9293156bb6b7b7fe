"""The rows of the files an incremental run changed, read once after its writes:
`ChangedRows`.

Two steps of an incremental run read those rows: the refresh of a kept or stored model
(`refresh.Refresh.refresh`: the files' languages, symbols, imports, written bases and
bindings) and the check of which edits no other file can see (`quiet.facts`, from
`deps.affected`: the edited files' symbols, bindings, edges, imports and files, with other
columns). One query per table with the columns of both serves the two: each table's rows of
the files a semi join on their paths finds, as lists by column name (`columns.cols`), in
the order the refresh reads them. The refresh keeps them in the model's `ext` for the check
(`KEY`), which takes them.
"""
from __future__ import annotations

from .columns import cols

#: where a refresh leaves its `ChangedRows` in the model's `ext` (`deps.affected` takes them)
KEY = "changed.rows"


class ChangedRows:
    """The rows of the files `paths` in the tables as `con` sees them (`callee_key`: the
    SQL of an argument row's callee key, `Model._CALLEE_KEY`)."""

    def __init__(self, con, paths, callee_key: str):
        self.paths = sorted(set(paths))
        p = {"p": self.paths}
        where = "WHERE path IN (SELECT unnest($p::VARCHAR[]))"
        self.files = cols(con, f"SELECT path, language, module, status FROM files {where}", p)
        self.symbols = cols(con, f"""SELECT symbol_id, path, language, kind, name, qualname, parent_id,
                                           signature, start_line, is_declaration, decorators, visibility
                                    FROM symbols {where} ORDER BY path, symbol_id""", p)
        self.imports = cols(con, f"""SELECT rowid AS rid, path, src_id, module, name, alias, line, resolved_path
                                    FROM imports {where} ORDER BY rowid""", p)
        self.edges = cols(con, f"""SELECT path, src_id, kind, dst_name, line, edge_id,
                                         resolution IN ('callback', 'implicit') AS made
                                  FROM edges {where} ORDER BY path, edge_id""", p)
        self.bindings = cols(con, f"""SELECT src_id, kind, name, value, value_type, value_id, line,
                                            {callee_key} AS callee_key, path
                                     FROM bindings {where} ORDER BY path, line, rowid""", p)

    def covers(self, paths) -> bool:
        """Whether these are the rows of every file of `paths`."""
        return set(paths) <= set(self.paths)
