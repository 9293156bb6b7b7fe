"""What each file's resolution read, and which files a change makes stale.

While a file's edges are evaluated, the evaluator notes what it reads (`memo.Memo`): the
files whose symbols, bindings or imports it looked at, and *name tokens* for the indexes
it consulted by name, where a change anywhere can change the answer:

=======================  ===========================================================
``a:NAME``               argument rows of calls to something named NAME (values that
                         flow into parameters)
``A:NAME``               the same rows, found too many to follow: read by an evaluation
                         that took none of them, as it would after more such calls
``g:NAME``               decorators named NAME (Python)
``s:NAME``               classes whose written bases end in NAME (subclass lookups)
``e:NAME``               containers filled through an attribute NAME of another object
                         (`obj.NAME.append(f)`, Python: `Members.filled_outside`)
``b:FAMILY:NAME``        definitions named NAME (guesses by name, bases by name)
``c:NAME``               C / C++ functions and macros named NAME
``r:NAME``               Rust macros named NAME
``p:PACKAGE``            the files of a Java package
``d:DIRECTORY``          the files of a Go package
=======================  ===========================================================

Each file in turn *provides* tokens (the names its rows put into those indexes, and
``f:PATH`` for files whose types it adds members to: Rust `impl` blocks, Go methods).
Both are kept in the table `resolve_deps`. After an edit, the files to resolve again are
the edited ones, those that read an edited file or a file it provides members to, and
those that read a token the edited files provide (before or after the edit), but for
``A:NAME`` when the edit removed or changed no argument row of a call to NAME (only added
some: too many before, too many after). Adding or
removing a file changes which names exist (modules, packages, specifiers) and resolves
everything.

A file that read an edited file is left alone when the edit only *added* facts nobody can
reach (`quiet`): the indexer takes the edited files' rows as the resolver reads them
(`facts`: symbols, bindings, imports and the edges it evaluates, with qualnames in place
of ids) before it replaces them; every row of before is still there after, and each
added row hangs on a symbol the edit added to the module, or on the module's scope under
a name (each identifier of it) that no text of any other file nor any old row of the
edited file holds, and that resolution never looks up by itself (a protocol method such
as `__call__`, a constructor, the type of a literal: `implicit_names`): no lookup
anywhere can ask for it. A new, unused function or class is such an edit; so is one that
changes no row at all (a comment). Whatever the added rows put into the indexes read by
name is caught by the tokens above, as for any edit. A text holds a name where the name
stands in it as a whole identifier: not inside a longer one (`_z` is not held by `_zip`);
any character but an ASCII letter, digit or underscore ends an identifier there, so a
text read otherwise is at worst held where it is not. A kept model holds the texts searched
(`Model.symbol_texts`, `RowTexts`), and so does a stored one (`stored`), so that a name no
text holds is found unused in Python; a name some text holds is looked for in the tables. Additions inside an old class,
function or variable are not quiet (a class's methods are walked for the attributes
they set), nor is a JavaScript default export, nor a Python `global x` anywhere (a new
function declaring it binds the module's `x`).
"""
from __future__ import annotations

import hashlib
import re
from collections import Counter, defaultdict
from dataclasses import dataclass, field

import pyarrow as pa

from .. import store
from .flows import ARG_ROWS_MAX
from .kinds import CALL_TARGET_KINDS, CLASS_KINDS, FUNCTION_KINDS
from .lang import FAMILIES, family_of
from .model import Model

_NAMED = CALL_TARGET_KINDS | CLASS_KINDS
_DECORATED = FUNCTION_KINDS | CLASS_KINDS
# the callee's last name of an `arg` binding row, as `Model` computes it
_ARG_KEY = Model._ARG_KEY
# ... and in Python, for the rows of `facts` (the same leftmost match)
_ARG_KEY_RE = re.compile(r"([A-Za-z_$][A-Za-z0-9_$]*)[^A-Za-z0-9_$#]*#[^#]*$")


def provides(con, m: Model, paths) -> dict[str, dict[str, str]]:
    """What each of `paths` puts into the indexes evaluation reads by name: path -> token
    -> a digest of the facts behind it (qualnames and texts, never ids or lines, so an
    edit elsewhere in the file leaves it alone). Kept in the model: an incremental run asks
    for the changed files' twice (`affected`, `write`)."""
    known = m.ext.setdefault("deps.provides", {})
    todo = set(paths) - known.keys()
    if todo:
        got = _provides(con, m, todo)
        for path in todo:
            known[path] = got.get(path, {})
    return {path: known[path] for path in sorted(set(paths)) if known[path]}


# files whose facts are gathered at a time: a full run's facts and argument rows at once
# took ~150 MB on the standard library (267,000 `arg` rows as Python tuples, then texts)
_PROVIDES_GROUP = 256


def _provides(con, m: Model, paths: set[str]) -> dict[str, dict[str, str]]:
    ordered = sorted(paths)
    out: dict[str, dict[str, str]] = {}
    # the argument rows of the files a refresh read again (`Model.refresh`): no query
    held = m.ext.get("deps.arg_rows")
    for i in range(0, len(ordered), _PROVIDES_GROUP):
        group = set(ordered[i:i + _PROVIDES_GROUP])
        args = held if held is not None and group <= held.keys() else None
        out.update(_provides_group(con, m, group, args))
    return out


def _provides_group(con, m: Model, paths: set[str], args: dict | None = None) -> dict[str, dict[str, str]]:
    facts: dict[str, dict[str, list[str]]] = defaultdict(lambda: defaultdict(list))
    kinds, names, fams, quals, paths_of = m.kind, m.name, m.fam, m.qual, m.path
    decos, bases_written = m.decos, m.bases_written
    cur, mine = None, None
    for sid in m.symbols_in(paths):           # by path: one `facts` lookup per file
        path = paths_of[sid]
        if path != cur:
            cur, mine = path, facts[path]
        kind = kinds.get(sid)
        if kind in _NAMED:
            mine[f"b:{fams.get(sid)}:{names.get(sid)}"].append(f"{quals.get(sid)}|{kind}")
        if sid in decos and kind in _DECORATED and fams.get(sid) == "python":
            for dec in decos[sid]:
                base = dec.lstrip("@").strip().split("(", 1)[0].rsplit(".", 1)[-1]
                mine["g:" + base].append(f"{quals.get(sid)}|{dec}")
        if sid in bases_written:
            qual = quals.get(sid)
            for base in bases_written[sid]:
                mine["s:" + base.rsplit(".", 1)[-1]].append(f"{qual}|{base}")
    for rules in FAMILIES.values():
        for path, tokens in rules.provides(m, paths).items():
            for token, items in tokens.items():
                facts[path][token].extend(items)
    if args is not None:            # the model's rows (`_model_args`): no query
        for path in paths:
            mine = facts[path] if path in args else None
            for key, (scope, _, name, value, vtype, vid, _) in args.get(path, ()):
                mine["a:" + key].append(
                    f"{quals.get(scope)}|{name}|{value}|{vtype}|{quals.get(vid) if vid is not None else ''}")
    elif paths:
        rows = store.run(con, f"""
            SELECT path, src_id, {_ARG_KEY}, name, value, value_type, value_id FROM bindings
            WHERE kind = 'arg' AND path IN (SELECT unnest($paths::VARCHAR[]))""", {"paths": sorted(paths)})
        scope_qual: dict = {}
        for path, src, key, name, value, vtype, vid in rows:
            if key:
                sq = scope_qual.get(src, scope_qual)
                if sq is scope_qual:
                    sq = scope_qual[src] = quals.get(m.ns(src))
                facts[path]["a:" + key].append(
                    f"{sq}|{name}|{value}|{vtype}|{quals.get(vid) if vid is not None else ''}")
    return {path: {token: _digest(items) for token, items in tokens.items()}
            for path, tokens in facts.items()}


def _digest(items: list[str]) -> str:
    return hashlib.blake2b("\n".join(sorted(items)).encode("utf-8", "surrogatepass"),
                           digest_size=8).hexdigest()


# -------------------------------------------------------------------- facts of edited files
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
    that is gone; a run without resolution makes the next one full), so `rebind` and the
    `call_candidates` rebuild look those up instead of scanning for what is gone."""
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


def facts(con, paths, ids: dict[str, list[int]] | None = None) -> dict[str, Counter]:
    """The rows of `paths` as resolution reads them, ids replaced by qualnames: path ->
    multiset of tuples (table tag, scope qualname, ...). Taken before an edit's rows
    replace the old ones and after, for `quiet`. `ids`: their symbol ids and edge ids
    (every kind) are added to its lists "s" and "e", and the symbols' qualnames to its list
    "q" when it has one."""
    paths = sorted(set(paths))
    out: dict[str, Counter] = {p: Counter() for p in paths}
    if not paths:
        return out
    prm = {"p": paths}      # (each table's rows of `paths` by a semi join: less than a list_contains)
    # ids to qualnames in Python: the rows' symbol ids (parent, scope, value) are their own
    # file's, so no join over the whole symbols table
    syms = store.run(con, """
            SELECT path, parent_id, name, qualname, kind, language, signature, start_line,
                   is_declaration, decorators, visibility, symbol_id
            FROM symbols WHERE path IN (SELECT unnest($p::VARCHAR[]))""", prm)
    qual = {row[11]: row[3] for row in syms}
    qual_of = _qualnames(con, qual)
    for row in syms:
        out[row[0]][("s", qual_of(row[1]), row[2], row[3], *row[4:9], tuple(row[9] or ()), row[10])] += 1
        if ids is not None:
            ids["s"].append(row[11])
            if "q" in ids:
                ids["q"].append(row[3])
    for row in store.run(con, """
            SELECT path, src_id, kind, name, value, value_type, value_id, line
            FROM bindings WHERE path IN (SELECT unnest($p::VARCHAR[]))""", prm):
        out[row[0]][("b", qual_of(row[1]), *row[2:6], qual_of(row[6]), row[7])] += 1
    for row in store.run(con, """
            SELECT path, src_id, kind, dst_name, line, edge_id, resolution IN ('callback', 'implicit')
            FROM edges WHERE path IN (SELECT unnest($p::VARCHAR[]))""", prm):
        if row[2] in _EDGE_KINDS and not row[6]:    # callback, implicit rows: resolution's output
            out[row[0]][("e", qual_of(row[1]), *row[2:5])] += 1
        if ids is not None:
            ids["e"].append(row[5])
    for row in store.run(con, """
            SELECT path, src_id, module, name, alias, line
            FROM imports WHERE path IN (SELECT unnest($p::VARCHAR[]))""", prm):
        out[row[0]][("i", qual_of(row[1]), *row[2:])] += 1
    for row in store.run(con, """SELECT path, language, module, status FROM files
                                 WHERE path IN (SELECT unnest($p::VARCHAR[]))""", prm):
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
    their facts at hand (`affected` without `Before`) lets them go (`Model.row_texts`)."""

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


def needs_full(con, changed: list[str]) -> bool:
    """Whether a change adds or removes files (or the reads of earlier runs are unknown)."""
    if not changed:
        return False
    rows = store.run(con, """
        SELECT count(*) FILTER (WHERE f.path IS NULL OR d.path IS NULL)
        FROM (SELECT unnest($chg::VARCHAR[]) AS path) c
        LEFT JOIN (SELECT path FROM files WHERE status <> 'skipped') f USING (path)
        LEFT JOIN resolve_deps d USING (path)""", {"chg": sorted(set(changed))})
    return rows[0][0] > 0


def affected(con, m: Model, changed: list[str], before: Before | None = None,
             into: EdgesInto | None = None) -> set[str]:
    """Files an edit of `changed` can change the edges of (see the module doc), and the
    files holding an edge into a symbol that is gone and has no unique successor
    (`rebind`). `before`: the changed files before the edit (`before_edit`); the readers
    of those whose edit is `quiet` are left alone. `into`: the edges into the changed
    files' symbols read beforehand (`edges_into`), for `rebind`."""
    chg = sorted(set(changed))
    if before is not None and before.paths != chg:
        before = None                   # not every changed file: what is gone is not known
    if before is None:
        m.row_texts = None              # the changed files' new texts are not at hand
    after = facts(con, before.facts) if before is not None else None
    hushed = quiet(con, before.facts, m, after) if before is not None else set()
    gone_ids = before.symbol_ids if before is not None else None
    was: set[str] = set()
    for toks in _deps_column(con, m, chg, "provides"):
        was |= set(toks or ())
    now = {f"{t}={d}" for tokens in provides(con, m, chg).values() for t, d in tokens.items()}
    moved = {t.rsplit("=", 1)[0] for t in was ^ now}
    files = sorted((set(chg) - hushed) | {t[2:] for t in moved if t.startswith("f:")})
    names = sorted(t for t in moved if not t.startswith("f:"))
    # the readers that found too many calls by a name to follow (``A:NAME``) find too many
    # again after an edit that only added such calls, or that leaves too many
    args = {t[2:] for t in moved if t.startswith("a:")}
    if before is not None:
        args &= _arg_keys_removed(before.facts, after)
    names += sorted("A:" + k for k in args - _crowded(con, m, args))
    known = into.rows_for(gone_ids, chg) if into is not None and gone_ids is not None else None
    unbound = rebind(con, gone_ids, m, known)
    return set(chg) | _readers(con, m, files, names) | unbound


def _crowded(con, m: Model, keys: set[str]) -> set[str]:
    """The callee keys among `keys` with more argument rows than evaluation follows
    (`flows.ARG_ROWS_MAX`): each function an evaluation follows through the rows of such a
    key gets nothing from them. Counted as the model counts (`Model.arg_rows`: rows in a
    scope), from the table (~10 ms per key on the standard library)."""
    if not keys:
        return set()
    got = store.run(con, f"""
        SELECT key, src_id FROM (SELECT {_ARG_KEY} AS key, src_id FROM bindings
                                 WHERE kind = 'arg' AND ({' OR '.join('contains(name, ?)' for _ in keys)}))
        WHERE key IN (SELECT unnest(?::VARCHAR[]))""", [*sorted(keys), sorted(keys)])
    counts: Counter = Counter(key for key, src in got if m.ns(src) is not None)
    return {key for key, n in counts.items() if n > ARG_ROWS_MAX}


def _arg_keys_removed(before: dict[str, Counter], after: dict[str, Counter]) -> set[str]:
    """The callee keys (``a:NAME``) of the argument rows an edit removed or changed: the
    rows of `before` (`facts`) that `after` lacks, their lines aside (an edit above a call
    moves it; its argument is the same)."""
    out: set[str] = set()
    for path, old in before.items():
        new = after.get(path, Counter())
        gone = _arg_rows_of(old) - _arg_rows_of(new)
        out.update(key for key, *_ in gone)
    return out


def _arg_rows_of(rows: Counter) -> Counter:
    """The argument rows among `rows` (`facts`) by callee key, without their lines."""
    out: Counter = Counter()
    for row, n in rows.items():
        if row[0] == "b" and row[2] == "arg":
            got = _ARG_KEY_RE.search(row[3] or "")
            if got:
                out[(got.group(1), *row[1:7])] += n
    return out


def _readers(con, m: Model | None, files: list[str], names: list[str]) -> set[str]:
    """The files whose `resolve_deps` row holds one of `files` in its files or one of
    `names` in its names: from the model's copy of the table (`Model.deps_rows`) when it
    holds one, through Arrow's kernels on its lists (~2.5 ms of CPU on the standard
    library, the query ~7 ms), else from the table."""
    rows = m.deps_rows if m is not None else None
    if rows is None:
        # the lists unnested (a third less than `list_has_any` on each row's lists)
        return {r[0] for r in store.run(con, """
            SELECT path FROM (SELECT path, unnest(files) AS x FROM resolve_deps)
            WHERE x IN (SELECT unnest($files::VARCHAR[]))
            UNION SELECT path FROM (SELECT path, unnest(names) AS x FROM resolve_deps)
            WHERE x IN (SELECT unnest($names::VARCHAR[]))""", {"files": files, "names": names})}
    import pyarrow.compute as pc
    out: set[str] = set()
    at = rows.schema.get_field_index("path")
    for column, wanted in (("files", files), ("names", names)):
        if not wanted:
            continue
        want, k = store.arrow_array(wanted, pa.string()), rows.schema.get_field_index(column)
        for batch in rows.to_batches():     # (a slice's parent indices count from its start)
            lists = batch.column(k)
            hit = pc.is_in(pc.list_flatten(lists), value_set=want)
            if hit.true_count:
                out.update(batch.column(at).take(pc.list_parent_indices(lists).filter(hit)).to_pylist())
    return out


def previous_reads(con, paths, m: Model | None = None) -> tuple[set[str], set[str]]:
    """The files and the argument callee names (``a:NAME``) the last resolution of `paths`
    read: what resolving them again most likely reads (`Model.prefetch`). `m`: the run's
    model, whose copy of the table (`Model.deps_rows`) is read when it holds one."""
    files, keys = set(paths), set()
    for fs, names in _deps_columns(con, m, sorted(paths), ("files", "names")):
        files.update(fs or ())
        keys.update(n[2:] for n in names or () if n.startswith(("a:", "A:")))
    return files, keys


def _deps_column(con, m: Model | None, paths: list[str], column: str) -> list:
    """The values of `column` of the `resolve_deps` rows of `paths` (`_deps_columns`)."""
    return [row[0] for row in _deps_columns(con, m, paths, (column,))]


def _deps_columns(con, m: Model | None, paths: list[str], columns: tuple[str, ...]) -> list[tuple]:
    """The values of `columns` of the `resolve_deps` rows of `paths` (those it has), a tuple
    per row in the order of `paths`: from the model's copy of the table (`Model.deps_rows`)
    when it holds one (a row's lists in the table are fetched whole, ~3 ms each on the
    standard library), else from the table, in one query."""
    kept_rows = m.deps_rows if m is not None else None
    if kept_rows is None:
        got = {row[0]: row[1:] for row in store.run(
            con, f"""SELECT path, {', '.join(columns)} FROM resolve_deps
                     WHERE path IN (SELECT unnest($p::VARCHAR[]))""", {"p": paths})}
        return [got[p] for p in paths if p in got]
    at = m.ext.get("deps.rows_at")
    if at is None:
        at = m.ext["deps.rows_at"] = {p: i for i, p in enumerate(kept_rows.column("path").to_pylist())}
    cols = [kept_rows.column(c) for c in columns]
    return [tuple(col[at[p]].as_py() for col in cols) for p in paths if p in at]


@dataclass
class EdgesInto:
    """The edges into the symbols of the files `paths` (`ids`) as a cursor read them before
    the run wrote anything (`edges_into`, in the prefetch's thread): (edge id, path, target
    qualname) rows. The run's own writes by the time `rebind` reads them replace only
    those files' edges, whose new rows point at their new symbols: the rows of the other
    files are the run's (`rows_for`)."""
    paths: list[str]
    ids: list[int]
    rows: list[tuple]

    def rows_for(self, gone_ids: list[int], changed: list[str]) -> list[tuple] | None:
        """`rebind`'s rows for the symbols `gone_ids` after an edit of the files `changed`,
        when these were read for those symbols of those files (else None)."""
        if sorted(set(changed)) != self.paths or sorted(gone_ids) != self.ids:
            return None
        mine = set(self.paths)
        return [row for row in self.rows if row[1] not in mine]


def edges_into(con, paths) -> EdgesInto:
    """`EdgesInto` the symbols of the files `paths` as `con` reads the tables."""
    paths = sorted(set(paths))
    ids = sorted(r[0] for r in store.run(con, """SELECT symbol_id FROM symbols
                                                WHERE path IN (SELECT unnest($p::VARCHAR[]))""", {"p": paths}))
    rows = store.run(con, """SELECT edge_id, path, dst_qualname FROM edges
                             WHERE dst_id IN (SELECT unnest($ids::BIGINT[]))""", {"ids": ids}) if ids else []
    return EdgesInto(paths, ids, rows)


def rebind(con, gone_ids: list[int] | None = None, m: Model | None = None,
           rows: list[tuple] | None = None) -> set[str]:
    """Edges into a re-indexed file point at symbol ids that are gone (its symbols got new
    ids). What such an edge means changes only if its file read the edit (a file or a
    name token above, and then the file is resolved again); otherwise it keeps its target
    qualname, and when exactly one symbol has that qualname now, the edge takes its id,
    as a fresh resolution would give it. The rest stay pointing nowhere and their files
    are resolved again. Candidates are qualnames: `call_candidates` takes the new ids
    when it is rebuilt (`writeback._write_candidates`). Returns the files of the edges that
    still point nowhere. `gone_ids`: the ids of every symbol that is gone, when known
    (`Before`): the edges into them are looked up instead of scanned for. `m`: the model
    of the run, refreshed, whose symbols by qualname (`Model.with_qualnames`) stand for
    the table's. `rows`: the edges into `gone_ids` as the query below reads them, read
    beforehand (`EdgesInto.rows_for`)."""
    # the edges into symbols that are gone, once (an anti join over the edges), then the
    # symbols of their qualnames only; few rows: read into Python, no temporary tables
    if gone_ids is not None:
        if not gone_ids:
            return set()
        if rows is None:
            rows = store.run(con, """SELECT edge_id, path, dst_qualname FROM edges
                                     WHERE dst_id IN (SELECT unnest($ids::BIGINT[]))""", {"ids": gone_ids})
    else:
        rows = store.run(con, """
            SELECT e.edge_id, e.path, e.dst_qualname FROM edges e
            ANTI JOIN symbols s ON s.symbol_id = e.dst_id
            WHERE e.dst_id IS NOT NULL""")
    if not rows:
        return set()
    quals = sorted({q for _, _, q in rows if q is not None})
    if m is not None:
        unique = {q: ids[0] for q, ids in m.with_qualnames(quals).items() if len(ids) == 1}
    else:
        unique = {q: sid for q, sid, n in store.run(con, """
                      SELECT qualname, min(symbol_id), count(*) FROM symbols
                      WHERE qualname IN (SELECT unnest($q::VARCHAR[])) GROUP BY qualname""", {"q": quals})
                  if n == 1}
    now = [(eid, unique[q]) for eid, _, q in rows if q in unique]
    if now:
        store.run_over(con, pa.table({"edge_id": store.arrow_array([e for e, _ in now], pa.int64()),
                                      "symbol_id": store.arrow_array([s for _, s in now], pa.int64())}),
                       "UPDATE edges SET dst_id = t.symbol_id FROM _wb_rows t WHERE edges.edge_id = t.edge_id")
    return {path for _, path, q in rows if q not in unique}


def write(con, m: Model, reads: dict[str, tuple[int, set]], full: bool,
          provided: tuple[list[str], pa.ChunkedArray] | None = None) -> None:
    """Store what the resolved files read and provide (all rows in a full run).
    `provided`: `provides_column` of a full run worked out earlier (its paths, the column);
    used when its paths are those of `reads`."""
    paths = sorted(reads)
    by_bit = sorted(m.file_index.items(), key=lambda kv: kv[1])
    names_of_bits = [p for p, _ in by_bit]
    if full:
        # every file's tokens, kept in the model for nothing: the next run's refresh starts
        # `ext` afresh, and letting ~5,000 files' go there cost that run ~7 ms
        m.ext.pop("deps.provides", None)
        prov_col = (provided[1] if provided is not None and provided[0] == paths
                    else provides_column(con, m, paths)[1])
    else:
        prov = provides(con, m, paths)
        prov_col = [_provides_texts(prov.get(p)) for p in paths]
    files_col, names_col = [], []
    for p in paths:
        bits, names = reads[p]
        files_col.append([names_of_bits[i] for i in _bit_indexes(bits)])
        names_col.append(sorted(names))
    if full:
        store.run(con, "DELETE FROM resolve_deps")
    else:
        store.run(con, "DELETE FROM resolve_deps WHERE path IN (SELECT unnest($p::VARCHAR[]))", {"p": paths})
    if paths:
        tbl = pa.table({"path": store.arrow_array(paths, pa.string()),
                        "files": store.arrow_array(files_col, pa.list_(pa.string())),
                        "names": store.arrow_array(names_col, pa.list_(pa.string())),
                        "provides": (prov_col if isinstance(prov_col, pa.ChunkedArray)
                                     else store.arrow_array(prov_col, pa.list_(pa.string())))})
        store.insert_columns(con, "resolve_deps", {n: tbl.column(n) for n in tbl.column_names})
    # the model's copy of the table (`Model.deps_rows`): the rows written, in place of theirs
    m.ext.pop("deps.rows_at", None)
    if full:
        m.deps_rows = tbl if paths else None
    elif m.deps_rows is not None and paths:
        m.deps_rows = _replaced(m.deps_rows, set(paths), tbl)


#: the model's copy of `resolve_deps` is made one chunk again past this many chunks
_DEPS_CHUNKS_MAX = 32


def _replaced(rows: pa.Table, written: set[str], tbl: pa.Table) -> pa.Table:
    """`rows` (a copy of `resolve_deps`) without the rows of the paths `written`, then the
    rows `tbl`: slices of it around the rows replaced, no copy of the lists (a `take` of
    every other row and one chunk again took ~10-40 ms on the standard library); one chunk
    again once it holds `_DEPS_CHUNKS_MAX` chunks."""
    parts, at = [], 0
    for i, p in enumerate(rows.column("path").to_pylist()):
        if p in written:
            if i > at:
                parts.append(rows.slice(at, i - at))
            at = i + 1
    if at < rows.num_rows:
        parts.append(rows.slice(at))
    out = pa.concat_tables([*parts, tbl])
    return out.combine_chunks() if out.column(0).num_chunks > _DEPS_CHUNKS_MAX else out


def provides_column(con, m: Model, paths) -> tuple[list[str], pa.ChunkedArray]:
    """What each of `paths` provides (`provides`) as `write` stores it: the paths sorted,
    and per path its `token=digest` texts, sorted, as an Arrow column, worked out
    `_PROVIDES_GROUP` files at a time, not kept in the model. A model that holds every
    argument row (a full run's, `Model.holds_every_arg_row`) gives them without a query
    (`con` may be None then: a full run's resolution helper works this out, `passes`)."""
    ordered = sorted(set(paths))
    args = _model_args(m) if m.holds_every_arg_row() else None
    chunks = []
    for i in range(0, len(ordered), _PROVIDES_GROUP):
        group = ordered[i:i + _PROVIDES_GROUP]
        got = _provides_group(con, m, set(group), args)
        chunks.append(store.arrow_array([_provides_texts(got.get(p)) for p in group],
                                        pa.list_(pa.string())))
        del got
    return ordered, pa.chunked_array(chunks, type=pa.list_(pa.string()))


def _model_args(m: Model) -> dict[str, list[tuple]]:
    """The argument rows with a callee key, as the model holds them, by the file of their
    scope (a binding's file: its scope is in it): path -> (callee key, row)."""
    out: dict[str, list[tuple]] = defaultdict(list)
    path_of = m.path
    for key, rows in m.args_by_callee.items():
        for row in rows:
            out[path_of.get(row[0])].append((key, row))
    return out


def _provides_texts(tokens: dict[str, str] | None) -> list[str]:
    return sorted(f"{t}={d}" for t, d in (tokens or {}).items())


def _bit_indexes(bits: int):
    while bits:
        low = bits & -bits
        i = low.bit_length() - 1
        yield i
        bits ^= low


__all__ = ["Before", "RowTexts", "before_edit", "provides", "provides_column", "facts", "quiet", "needs_full", "affected", "previous_reads", "rebind", "write",
           "EdgesInto", "edges_into"]
