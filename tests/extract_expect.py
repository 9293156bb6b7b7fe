"""Helpers for the per-language extraction tests (tests/test_extract_<lang>.py).

They run `workbench.extract.extract_file` directly on a file of a sample repository
(pure: no database) and give the rows back as dicts, so a test reads like the table of
symbols, edges and imports it expects.
"""
from __future__ import annotations

from functools import lru_cache
from pathlib import Path

from workbench.extract import EDGE_FIELDS, IMPORT_FIELDS, SYMBOL_FIELDS, extract_file
from workbench.languages import SPECS

SAMPLES = Path(__file__).resolve().parent.parent / "sample_repos"


class Extracted:
    """The rows of one extracted file."""

    def __init__(self, path: str, data: bytes, lang: str):
        self.rows = extract_file(path, data, SPECS[lang])
        self.symbols = [dict(zip(SYMBOL_FIELDS, s)) for s in self.rows.symbols]
        self.edges = [dict(zip(EDGE_FIELDS, e)) for e in self.rows.edges]
        self.imports = [dict(zip(IMPORT_FIELDS, i)) for i in self.rows.imports]

    # -------------------------------------------------------------- symbols

    def find(self, qualname: str, start_line: int | None = None) -> dict:
        """The one symbol with this qualname (and start line, for overloads/impl blocks)."""
        found = [s for s in self.symbols if s["qualname"] == qualname
                 and (start_line is None or s["start_line"] == start_line)]
        assert len(found) == 1, (qualname, start_line, [(s["qualname"], s["start_line"])
                                                          for s in self.symbols])
        return found[0]

    def row(self, qualname: str, start_line: int | None = None) -> tuple:
        """(kind, qualname, start_line, end_line, signature, doc) of a symbol."""
        s = self.find(qualname, start_line)
        return (s["kind"], s["qualname"], s["start_line"], s["end_line"], s["signature"], s["doc"])

    def qualnames(self) -> set[str]:
        return {s["qualname"] for s in self.symbols}

    def parent_of(self, qualname: str, start_line: int | None = None) -> str:
        s = self.find(qualname, start_line)
        return self.symbols[s["parent_local"]]["qualname"]

    # -------------------------------------------------------------- edges and imports

    def _idx(self, qualname: str | None, start_line: int | None = None) -> int:
        return 0 if qualname is None else self.find(qualname, start_line)["local_id"]

    def calls(self, qualname: str | None = None, start_line: int | None = None) -> list[str]:
        """Callee names (as written) of the calls made directly in a symbol (None: module)."""
        src = self._idx(qualname, start_line)
        return [e["dst_name"] for e in self.edges if e["kind"] == "calls" and e["src_local"] == src]

    def call_edges(self, qualname: str | None = None) -> list[tuple]:
        """(dst_name, resolved target qualname or None, resolution, line) of a symbol's calls."""
        src = self._idx(qualname)
        out = []
        for e in self.edges:
            if e["kind"] == "calls" and e["src_local"] == src:
                dst = self.symbols[e["dst_local"]]["qualname"] if e["dst_local"] is not None else None
                out.append((e["dst_name"], dst, e["resolution"], e["line"]))
        return out

    def bases(self, qualname: str, kind: str = "inherits", start_line: int | None = None) -> list[str]:
        src = self._idx(qualname, start_line)
        return [e["dst_name"] for e in self.edges if e["kind"] == kind and e["src_local"] == src]

    def import_rows(self, scope: str | None = None) -> list[tuple]:
        """(module, name, alias, line) of the imports made in a scope (None: module level)."""
        src = self._idx(scope)
        return [(i["module"], i["name"], i["alias"], i["line"]) for i in self.imports
                if i["src_local"] == src]


@lru_cache(maxsize=None)
def sample(repo: str, path: str, lang: str) -> Extracted:
    """Extract `path` (repo-relative) of sample repository `repo`."""
    return Extracted(path, (SAMPLES / repo / path).read_bytes(), lang)


def snippet(path: str, source: str, lang: str) -> Extracted:
    """Extract an inline source snippet as if it were the file `path`."""
    return Extracted(path, source.encode("utf-8"), lang)
