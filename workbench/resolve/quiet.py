"""Whether an edit changed nothing a reader could see: the edited files' rows before and
after the edit, and the search for the names it added in every other file's texts.

A file that read an edited file (`deps`) is left alone when the edit only *added* facts
nobody can reach (`quiet`): the indexer takes the edited files' rows as the resolver reads
them (`facts`: symbols, bindings, imports and the edges it evaluates, with qualnames in
place of ids) before it replaces them (`before_edit`); every row of before is still there
after, and each added row hangs on a symbol the edit added to the module, or on the
module's scope under a name (each identifier of it) that no text of any other file nor any
old row of the edited file holds, and that resolution never looks up by itself (a protocol
method such as `__call__`, a constructor, the type of a literal: `implicit_names`): no
lookup anywhere can ask for it. A new, unused function or class is such an edit; so is one
that changes no row at all (a comment). Whatever the added rows put into the indexes read
by name is caught by the name tokens of `deps`, as for any edit. A text holds a name where
the name stands in it as a whole identifier: not inside a longer one (`_z` is not held by
`_zip`); any character but an ASCII letter, digit or underscore ends an identifier there,
so a text read otherwise is at worst held where it is not. A kept model holds the texts
searched (`Model.symbol_texts`, `RowTexts`), and so does a stored one (`stored`), so that a
name no text holds is found unused in Python; a name some text holds is looked for in the
tables. Additions inside an old class, function or variable are not quiet (a class's
methods are walked for the attributes they set), nor is a JavaScript default export, nor a
Python `global x` anywhere (a new function declaring it binds the module's `x`).

`deps.affected` asks this module which edited files are quiet; this module reads nothing
of `deps`.
"""
from __future__ import annotations

import re
from collections import Counter
from dataclasses import dataclass, field

from .. import store
from .lang import FAMILIES, family_of
from .model import Model

#: files whose rows an incremental run takes before they are replaced (more changed files:
#: their readers are resolved again, as for any edit)
FACTS_MAX = 8
# the edge kinds resolution reads or evaluates (the others are structure: `contains`)
_EDGE_KINDS = ("calls", "imports", "inherits", "implements")
# families whose resolution reads more of a file than its rows (Go: the package clause)
_OPAQUE_FAMILIES = {"go"}
_IDENT = re.compile(r"[^\W\d]\w*|\$\w*")


@dataclass
class Before:
    """What an incremental run takes of the edited files before their rows are replaced:
    their rows as resolution reads them (`facts`) and the ids of their symbols and edges,
    the only ones gone afterwards (a resolving run leaves no edge pointing at a symbol
    that is gone; a run without resolution makes the next one full), so `deps.rebind` and
    the `call_candidates` rebuild look those up instead of scanning for what is gone."""
    paths: list[str]
    facts: dict[str, Counter]
    symbol_ids: list[int]
    edge_ids: list[int]
    # the qualnames of those symbols (sorted, once each): the `call_candidates` rows naming
    # one of them take other symbol ids
    qualnames: list[str] = field(default_factory=list)


def before_edit(con, paths) -> Before:
    """`Before` of the files `paths`, still holding their old rows."""
    ids: dict[str, list] = {"s": [], "e": [], "q": []}
    got = facts(con, paths, ids)
    return Before(sorted(set(paths)), got, ids["s"], ids["e"], sorted(set(ids["q"])))


def facts(con, paths, ids: dict[str, list[int]] | None = None, rows=None) -> dict[str, Counter]:
    """The rows of `paths` as resolution reads them, ids replaced by qualnames: path ->
    multiset of tuples (table tag, scope qualname, ...). Taken before an edit's rows
    replace the old ones and after, for `quiet`. `ids`: their symbol ids and edge ids
    (every kind) are added to its lists "s" and "e", and the symbols' qualnames to its list
    "q" when it has one. `rows`: the files' rows as the tables hold them now, read already
    (`changedrows.ChangedRows`, left by a refresh): used when they cover `paths`."""
    paths = sorted(set(paths))
    out: dict[str, Counter] = {p: Counter() for p in paths}
    if not paths:
        return out
    if rows is not None and rows.covers(paths):
        want = set(paths)

        def table(name: str, columns: tuple[str, ...], sql: str):
            c = getattr(rows, name)
            return [r for r in zip(*(c[k] for k in columns)) if r[0] in want]
    else:
        prm = {"p": paths}      # (each table's rows of `paths` by a semi join: less than a list_contains)

        def table(name: str, columns: tuple[str, ...], sql: str):
            return store.run(con, f"SELECT {sql} FROM {name} WHERE path IN (SELECT unnest($p::VARCHAR[]))",
                             prm)
    # ids to qualnames in Python: the rows' symbol ids (parent, scope, value) are their own
    # file's, so no join over the whole symbols table
    syms = table("symbols", ("path", "parent_id", "name", "qualname", "kind", "language", "signature",
                             "start_line", "is_declaration", "decorators", "visibility", "symbol_id"),
                 """path, parent_id, name, qualname, kind, language, signature, start_line,
                    is_declaration, decorators, visibility, symbol_id""")
    qual = {row[11]: row[3] for row in syms}
    qual_of = _qualnames(con, qual)
    for row in syms:
        out[row[0]][("s", qual_of(row[1]), row[2], row[3], *row[4:9], tuple(row[9] or ()), row[10])] += 1
        if ids is not None:
            ids["s"].append(row[11])
            if "q" in ids:
                ids["q"].append(row[3])
    for row in table("bindings", ("path", "src_id", "kind", "name", "value", "value_type", "value_id", "line"),
                     "path, src_id, kind, name, value, value_type, value_id, line"):
        out[row[0]][("b", qual_of(row[1]), *row[2:6], qual_of(row[6]), row[7])] += 1
    for row in table("edges", ("path", "src_id", "kind", "dst_name", "line", "edge_id", "made"),
                     "path, src_id, kind, dst_name, line, edge_id, resolution IN ('callback', 'implicit')"):
        if row[2] in _EDGE_KINDS and not row[6]:    # callback, implicit rows: resolution's output
            out[row[0]][("e", qual_of(row[1]), *row[2:5])] += 1
        if ids is not None:
            ids["e"].append(row[5])
    for row in table("imports", ("path", "src_id", "module", "name", "alias", "line"),
                     "path, src_id, module, name, alias, line"):
        out[row[0]][("i", qual_of(row[1]), *row[2:])] += 1
    for row in table("files", ("path", "language", "module", "status"), "path, language, module, status"):
        out[row[0]][("f", None, *row[1:])] += 1
    return out


def _qualnames(con, qual: dict):
    """id -> qualname through `qual` (the symbols at hand), asking the table for an id
    it lacks (none today: rows point at their own file's symbols); None for None or an
    id with no symbol, as a left join gives."""
    def qual_of(sid):
        if sid is None:
            return None
        if sid not in qual:
            got = store.run(con, "SELECT qualname FROM symbols WHERE symbol_id = ?", [sid])
            qual[sid] = got[0][0] if got else None
        return qual[sid]
    return qual_of


def quiet(con, before: dict[str, Counter], m: Model, after: dict[str, Counter] | None = None) -> set[str]:
    """The edited files (of `before`, their rows before the edit) whose edit no other file
    can see: see the module doc. `after`: their rows now (`facts`), when at hand."""
    if not before:
        return set()
    if after is None:
        after = facts(con, before)
    if m.row_texts is not None:
        m.row_texts.edited(after)
    out = set()
    for path, old in before.items():
        lang = m.file_lang.get(path)
        if lang is None or family_of(lang) in _OPAQUE_FAMILIES:
            continue
        handles = _added_handles(old, after.get(path, Counter()))
        if handles is None:
            continue
        if handles and not _fresh(con, path, handles, old, m):
            continue
        out.add(path)
    return out


def _added_handles(old: Counter, new: Counter) -> set[str] | None:
    """The names by which the rows `new` adds to `old` can be reached from outside (the
    identifiers of the names added to the module's scope), or None when the edit changed
    or removed a row, or added one that is reached otherwise: anything added inside an
    old class, function or other symbol (a class's methods are walked for the attributes
    they set, an object literal for its functions), an import, an evaluated edge, a
    return... in the module's scope, a JavaScript default export."""
    if old - new:
        return None
    added = new - old
    old_kind = {r[3]: r[4] for r in old if r[0] == "s"}
    parent_of = {r[3]: r[1] for r in added if r[0] == "s" and r[3] not in old_kind}
    handles: set[str] = set()
    for r in added:
        if r[0] == "b" and r[2] == "global":
            return None                 # `global x` in a function binds the module's `x`
        scope = anchor = r[1]
        for _ in range(len(parent_of) + 1):      # up to the nearest old symbol
            if anchor not in parent_of:
                break
            anchor = parent_of[anchor]
        if anchor is None or old_kind.get(anchor) != "module":
            return None
        if scope in parent_of:
            continue                    # inside a new symbol: reached through it only
        if r[0] == "s":
            if (r[6] or "").lstrip().startswith("export default"):
                return None
            name = r[2]
        elif r[0] == "b" and r[2] in ("assign", "declare"):
            name = r[3]
        else:
            return None
        ids = _IDENT.findall(name or "")
        if not ids:
            return None
        handles.update(ids)
    return handles


_IMPLICIT: frozenset | None = None


def implicit_names() -> frozenset:
    """Names resolution may look up with no text of the repository naming them: every
    identifier quoted in the resolver's own code (protocol methods such as `__call__` or
    `__enter__`, `constructor`, the types of literals), each language's builtins
    (`Language.builtin_names`), and every dunder name. A new definition under such a name
    is never `quiet`."""
    global _IMPLICIT
    if _IMPLICIT is None:
        from pathlib import Path
        quoted = re.compile(r"""["']([A-Za-z_$][A-Za-z0-9_$]*)["']""")
        names = set().union(*(rules.builtin_names for rules in FAMILIES.values()))
        for src in sorted(Path(__file__).parent.rglob("*.py")):
            names.update(quoted.findall(src.read_text(encoding="utf-8")))
        _IMPLICIT = frozenset(names)
    return _IMPLICIT


# a name as a whole identifier in a text: no ASCII letter, digit or underscore right before
# or after it (RE2, DuckDB's regular expressions, has no look-behind: a group instead)
_EDGE_L, _EDGE_R = "(^|[^A-Za-z0-9_])", "($|[^A-Za-z0-9_])"


def _whole(names) -> str:
    """The pattern of `names` as whole identifiers (module doc), for Python and DuckDB."""
    return _EDGE_L + "(" + "|".join(re.escape(n) for n in sorted(names)) + ")" + _EDGE_R


_WORD = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789_"
_WORD_STR, _WORD_BYTES = frozenset(_WORD), frozenset(_WORD.encode("ascii"))
# a whole identifier's neighbours as a pattern's look-behind and look-ahead (the same texts
# as `_EDGE_L` and `_EDGE_R` match with re.M)
_LOOK_STR = ("(?<![A-Za-z0-9_])", "(?![A-Za-z0-9_])")
_LOOK_BYTES = tuple(x.encode("ascii") for x in _LOOK_STR)
# occurrences of a name checked one by one before the rest of a text goes to a pattern (a
# pattern's search of the standard library's texts takes ~0.1-0.2 s whatever they hold; the
# substring searches ~2-10 ms, plus a Python step per occurrence)
_HELD_STEPS = 100_000


class _Held:
    """Whether a text holds one of `names` (module doc): each name's occurrences found by
    a substring search and their neighbours checked (a pattern over the standard library's
    texts took ~0.2 s for a name some longer identifiers contain, where a substring search
    first found it); after `_HELD_STEPS` occurrences of a name inside longer identifiers,
    the rest of the text is searched with a pattern (its neighbours looked at around it)."""

    def __init__(self, names):
        self.names = list(names)
        self.encoded = [h.encode("utf-8", "surrogatepass") for h in self.names]
        self._patterns: dict = {}

    def in_str(self, text: str) -> bool:
        return any(self._holds(text, h, _WORD_STR) for h in self.names)

    def in_bytes(self, text: bytes) -> bool:
        return any(self._holds(text, h, _WORD_BYTES) for h in self.encoded)

    def _holds(self, text, name, word) -> bool:
        at = _whole_at(text, name, word)
        if at is None:
            return True
        if at < 0:
            return False
        pattern = self._patterns.get(name)
        if pattern is None:
            before, after = _LOOK_BYTES if isinstance(name, bytes) else _LOOK_STR
            pattern = self._patterns[name] = re.compile(before + re.escape(name) + after)
        return pattern.search(text, at) is not None


def _whole_at(text, name, word) -> int | None:
    """None when `text` holds `name` as a whole identifier (module doc: no character of
    `word` right before or after it); -1 when it does not; else, after `_HELD_STEPS`
    occurrences inside longer identifiers, where the pattern should search on from."""
    n, end = len(name), len(text)
    i = text.find(name)
    for _ in range(_HELD_STEPS):
        if i < 0:
            return -1
        j = i + n
        if (i == 0 or text[i - 1] not in word) and (j == end or text[j] not in word):
            return None
        i = text.find(name, i + 1)
    return -1 if i < 0 else max(0, i - 1)


def _fresh(con, path: str, handles: set[str], old: Counter, m: Model | None = None) -> bool:
    """Whether no name of `handles` is one resolution looks up by itself
    (`implicit_names`), and no text resolution reads, in any other file, holds one of
    them, nor any row the edited file had before. `m`: the model of the run (refreshed),
    whose symbols' texts are searched in Python (`Model.symbol_texts`) rather than
    scanned for in the symbols table."""
    special = implicit_names()
    if any(h in special or (h.startswith("__") and h.endswith("__")) for h in handles):
        return False
    names = sorted(handles)
    held = _Held(names)
    # the old rows' texts searched at once, joined by newlines (a name is an identifier: no
    # match spans two texts), not one search per text
    if held.in_str("\n".join(t for row in old for v in row[1:]
                              for t in (v if isinstance(v, tuple) else (v,)) if isinstance(t, str))):
        return False
    # a few names: each one a parameter of its own, which DuckDB matches faster than the
    # rows of a joined list (a quarter less for the scans below)
    few = len(names) <= _FRESH_PARAMS
    prm = {"p": path, "w": _whole(names),
           **({f"h{j}": n for j, n in enumerate(names)} if few else {"n": names})}

    def hit(*cols: str) -> str:         # the substring first, the pattern on its hits
        if few:
            return " OR ".join(f"(contains({c}, $h{j}) AND regexp_matches({c}, $w))"
                               for c in cols for j in range(len(names)))
        return " OR ".join(f"(contains({c}, h.n) AND regexp_matches({c}, $w))" for c in cols)

    handles_from = "" if few else ", (SELECT unnest($n::VARCHAR[]) AS n) h"
    symbols = [("symbols", "", ("name", "qualname", "signature", "array_to_string(decorators, ' ')"))]
    if m is not None:                   # names are identifiers: no match spans two lines
        if _symbol_texts_hold(m, held, path):
            return False
        symbols = []
        # no text of the other tables' rows holds one: fresh, without scanning them (a text
        # there - maybe one of this file or one replaced since - is looked for in the tables)
        if m.row_texts is not None and not m.row_texts.holds(held, path):
            return True
    # table by table, each stopping at its first hit (a name in use is found at once)
    for table, where, cols in (
            *symbols,
            ("imports", "", ("module", "name", "alias")),
            ("edges", f"AND kind IN {_EDGE_KINDS}", ("dst_name",)),
            ("bindings", "", ("name", "value", "value_type"))):
        if store.run(con, f"""SELECT 1 FROM {table} t{handles_from}
                              WHERE t.path <> $p {where} AND ({hit(*cols)}) LIMIT 1""", prm):
            return False
    return True


def _symbol_texts_hold(m: Model, held: _Held, path: str) -> bool:
    """Whether the symbols' texts of a file other than `path` hold one of `held`'s names
    (`Model.symbol_texts`): looked for in the texts' blob and the files changed since
    (`Model.symbol_texts_blob`) first; file by file only when found there (maybe in `path`'s
    own texts, or ones replaced since)."""
    blob, since = m.symbol_texts_blob()
    if not held.in_bytes(blob) and not any(held.in_str(m.symbol_text(p)) for p in since if p != path):
        return False
    return any(held.in_str(text) for p, text in m.symbol_texts().items() if p != path)


# up to this many names are matched as parameters of their own (more: a joined list)
_FRESH_PARAMS = 16

def _row_texts_sql(where: str = "TRUE") -> str:
    """The texts `_fresh` searches in the imports, edges and bindings rows matching `where`,
    each distinct one once, joined by newlines."""
    return f"""
    SELECT string_agg(x, chr(10)) FROM (
        SELECT module AS x FROM imports WHERE {where} UNION SELECT name FROM imports WHERE {where}
        UNION SELECT alias FROM imports WHERE {where}
        UNION SELECT dst_name FROM edges WHERE kind IN {_EDGE_KINDS} AND {where}
        UNION SELECT name FROM bindings WHERE {where} UNION SELECT value FROM bindings WHERE {where}
        UNION SELECT value_type FROM bindings WHERE {where})"""


class RowTexts:
    """Every text of the imports, edges and bindings rows that `_fresh` searches for a new
    name (each distinct text once, one per line: ~7 MB on the standard library), so that
    the common answer - no other file holds the name - takes a search in Python instead
    of scans of the three tables. Made by a full run whose model is kept (`load`, one
    query), and kept in that model; each later run adds the edited files' new rows
    (`edited`, from their `facts`). Texts of rows since replaced stay: a name found is
    looked for in the tables, as without these texts. A run that changes files without
    their facts at hand (`deps.affected` without `Before`) lets them go
    (`Model.row_texts`)."""

    def __init__(self, text: bytes):
        self.chunks = [text]                # UTF-8: a quarter of a `str` holding a character
        self.recent: dict[str, bytes] = {}  # beyond U+FFFF, and searched faster; the edited
                                            # files' texts of the current run

    @classmethod
    def load(cls, con, paths: list[str] | None = None) -> "RowTexts":
        """The texts of every file's rows (`paths`: of those files' only)."""
        return cls(cls._query(con, paths))

    @staticmethod
    def _query(con, paths: list[str] | None) -> bytes:
        if paths is None:
            return store.one(con, f"SELECT encode(coalesce(({_row_texts_sql()}), ''))")[0]
        where = "path IN (SELECT unnest($p::VARCHAR[]))"     # (a semi join: less than a list_contains)
        return store.one(con, f"SELECT encode(coalesce(({_row_texts_sql(where)}), ''))",
                         {"p": sorted(paths)})[0]

    def add_files(self, con, paths) -> None:
        """Add the texts of the rows `paths` hold now (files changed by runs the texts did
        not see: those of a stored model's log, `stored.load`)."""
        if paths:
            self.chunks.append(self._query(con, sorted(paths)))

    def joined(self) -> bytes:
        """Every text held, in one UTF-8 text (what `stored.save` keeps of them)."""
        return b"\n".join([*self.chunks, *self.recent.values()])

    def edited(self, after: dict[str, Counter]) -> None:
        """The edited files' rows now (`facts`): their texts are the current run's, which
        a file's own check leaves out; the previous run's join the rest."""
        if self.recent:
            self.chunks.append(b"\n".join(self.recent.values()))
            if len(self.chunks) > 8:
                self.chunks = [b"\n".join(self.chunks)]
        self.recent = {path: "\n".join(filter(None, (t for r in rows for t in _row_texts(r))))
                       .encode("utf-8", "surrogatepass") for path, rows in after.items()}

    def holds(self, names, path: str) -> bool:
        """Whether a text held, other than the current run's texts of `path`, holds one
        of `names` (module doc; names or a `_Held` of them)."""
        held = names if isinstance(names, _Held) else _Held(names)
        return any(held.in_bytes(text) for text in self.chunks) or any(
            held.in_bytes(text) for p, text in self.recent.items() if p != path)


def _row_texts(row: tuple) -> tuple:
    """The texts of a `facts` row that `_fresh` searches (symbols' are `Model.symbol_texts`)."""
    tag = row[0]
    if tag == "b":          # kind, name, value, value_type
        return row[3:6]
    if tag == "e":          # kind, dst_name
        return row[3:4]
    if tag == "i":          # module, name, alias
        return row[2:5]
    return ()


__all__ = ["Before", "RowTexts", "before_edit", "facts", "quiet"]
