"""Call-graph queries over an index: plain functions of a DuckDB connection.

Every function returns plain Python values (dataclasses with `.as_dict()`); the agent
tools in `workbench.views.graph_tools` turn them into text, and the CLI prints that text.
The shapes below are stable:

* `find_definition(con, name_or_qualname)` -> `Page[Definition]`, best match first.
* `search_symbols(con, text, path=None)` -> `Page[Symbol]`: definitions whose name
  contains `text`; `symbols_by_id(con, ids)` -> `{id: Symbol}`.
* `find_callers(con, symbol)` -> `Page[CallSite]`: who calls `symbol`, one row per call site.
* `find_callees(con, symbol)` -> `Page[CallSite]`: what `symbol` calls (unresolved calls too).
* `find_unresolved_calls(con, name)` -> `Page[CallSite]`: calls written with that name
  that the index could not bind to any definition.
* `trace_call_chain(con, symbol, depth, direction)` -> `Page[ChainEdge]`, breadth first.
* `get_architecture_overview(con, directory)` -> `Architecture`.
* `impact(con, changed_paths, depth)` -> `Page[Impacted]`.

Every answer is bounded: a `Page` is a list of at most `limit` rows starting at `offset`,
ranked, and `page.total` counts every match (`page.rest` those not returned), so a common
name (`__init__`, `get`) gives a short ranked answer and a count, never every row. Each
query is one set-based statement (joins and aggregates over the candidates, no subquery
per candidate).

`symbol` is a symbol id (an int), a qualified name (`shop.pricing.compute_total`), a dotted
suffix of one (`pricing.compute_total`) or a bare name; text is always a name, even when it
is made of digits. `symbol_id(con, symbol)` turns it into an id. A name that matches several definitions equally well raises `AmbiguousSymbol` (its
`.matches` lists the best of them, `.total` counts them), an unknown one `SymbolNotFound`.

Every call edge carries `resolution` (see docs/schema.md): the functions never hide how
sure an edge is. `ambiguous` edges list their candidates; `find_callers` includes an
ambiguous call site when the symbol is one of its candidates (`include_ambiguous=True`).

The same questions in SQL (table macros of the same names, created on every connection,
see `workbench.schema` and docs/schema.md): `find_definition('name')`,
`find_callers('q')`, `find_callees('q')`, `trace_call_chain('q', depth, direction)` and
the view `call_edges`.
"""
from __future__ import annotations

from collections import Counter, defaultdict
from dataclasses import asdict, dataclass, field

from . import rowcache, store
from .vocab import (ANONYMOUS_KINDS, CLASS_KINDS, CONSTRUCTOR_NAMES, DATA_LANGUAGES, DEPENDENCY_EDGE_KINDS,
                    FUNCTION_KINDS)

DIRECTIONS = ("down", "up", "both")
DEFAULT_LIMIT = 100             # rows per answer unless the caller asks for another page size


class Page(list):
    """The rows of one answer (at most `limit`, from `offset`), best first; `total` counts
    every match, so `rest` says how many were left out."""

    def __init__(self, rows=(), total: int | None = None, offset: int = 0):
        super().__init__(rows)
        self.offset = offset
        self.total = len(self) + offset if total is None else total

    @property
    def rest(self) -> int:
        return max(0, self.total - self.offset - len(self))

    def as_dict(self) -> dict:
        return {"total": self.total, "offset": self.offset, "rows": [r.as_dict() for r in self]}

    def __repr__(self) -> str:
        return f"Page({list.__repr__(self)}, total={self.total}, offset={self.offset})"


class SymbolNotFound(LookupError):
    pass


class NoIndexedFiles(LookupError):
    """A directory (inside the root) that holds no indexed source file."""


class AmbiguousSymbol(LookupError):
    def __init__(self, name: str, matches: list, total: int | None = None):
        self.name = name
        self.matches = matches
        self.total = len(matches) if total is None else total
        super().__init__(f"{name!r} matches {self.total} definitions: "
                         + ", ".join(m.qualname for m in matches[:10])
                         + (", ..." if self.total > min(10, len(matches)) else ""))


class _Row:
    def as_dict(self) -> dict:
        return asdict(self)


@dataclass
class Symbol(_Row):
    symbol_id: int
    qualname: str
    name: str
    kind: str
    path: str
    start_line: int
    end_line: int
    callers: int = 0    # resolved call sites pointing at it (search_symbols fills it)


@dataclass
class Definition(_Row):
    symbol_id: int
    qualname: str
    name: str
    kind: str
    path: str
    start_line: int
    end_line: int
    signature: str | None
    doc: str | None
    match: str          # qualname | suffix | name | name-nocase
    callers: int        # resolved call sites pointing at it


@dataclass
class CallSite(_Row):
    caller_id: int
    caller: str                 # qualname of the enclosing symbol of the call
    caller_kind: str
    path: str                   # file of the call site
    line: int
    callee_id: int | None       # resolved target (None when unresolved/ambiguous/external)
    callee: str | None          # its qualname, or the external/builtin dotted name
    as_written: str             # the callee as written at the call site
    resolution: str
    candidates: list[str] | None = None


@dataclass
class ChainEdge(_Row):
    direction: str              # down (callee side) | up (caller side)
    depth: int                  # 1 = direct
    src_id: int
    src: str
    dst_id: int
    dst: str
    path: str                   # call site
    line: int
    resolution: str
    cycle: bool                 # the edge closes a cycle (its end is already on the path)


@dataclass
class Unit(_Row):
    name: str                   # directory (ending in '/') or file under the overview root
    files: int
    lines: int
    symbols: int
    functions: int
    classes: int
    languages: list[str]


@dataclass
class Dependency(_Row):
    src: str
    dst: str
    imports: int
    calls: int


@dataclass
class EntryPoint(_Row):
    qualname: str
    kind: str
    path: str
    line: int
    reason: str


@dataclass
class Architecture(_Row):
    directory: str
    files: int
    lines: int
    units: list[Unit]
    dependencies: list[Dependency]
    entry_points: list[EntryPoint]
    external: list[tuple[str, int]] = field(default_factory=list)   # most used outside names


@dataclass
class Impacted(_Row):
    symbol_id: int
    qualname: str
    kind: str
    path: str
    line: int
    depth: int                  # 1 = calls/imports the changed code directly
    via: str                    # the symbol it reaches in the chain
    edge: str                   # calls | imports


# ---------------------------------------------------------------- paging

def _bounds(limit: int | None, offset: int) -> dict:
    """LIMIT/OFFSET parameters: `limit=None` asks for every row."""
    return {"limit": 2**62 if limit is None else max(0, int(limit)), "offset": max(0, int(offset))}


def _query_page(con, sql: str, params: dict, make, limit: int | None, offset: int) -> Page:
    """Run a query whose last column is the window count of all matches (`count(*) OVER ()`)
    and ends in `LIMIT $limit OFFSET $offset`, as a Page. A page past the end has no row to
    carry the count (nor has a page of `limit=0`): then one row of the first page gives it."""
    bounds = _bounds(limit, offset)
    rows = store.run(con, sql, {**params, **bounds})
    if rows:
        return Page([make(r[:-1]) for r in rows], rows[0][-1], bounds["offset"])
    total = 0
    if bounds["offset"] or not bounds["limit"]:
        first = store.run(con, sql, {**params, "limit": 1, "offset": 0})
        total = first[0][-1] if first else 0
    return Page([], total, bounds["offset"])


# ---------------------------------------------------------------- definitions

_MATCHES = ("qualname", "suffix", "name", "name-nocase")
_RANKED_KINDS = sorted(FUNCTION_KINDS | CLASS_KINDS | {"module"})   # before fields and variables

_FIND_DEFINITION = """
WITH m AS (
    SELECT symbol_id, qualname, name, kind, path, start_line, end_line, signature, doc,
           coalesce(is_declaration, false) AS decl,
           CASE WHEN qualname = $q THEN 0
                WHEN ends_with(qualname, '.' || $q) THEN 1
                WHEN name = $q THEN 2
                ELSE 3 END AS rank
    FROM symbols
    WHERE (kind <> 'module' AND (name = $short OR lower(name) = lower($short))) OR qualname = $q
), found AS (
    SELECT * FROM m WHERE rank < 3 OR lower(name) = lower($q)
), targets AS (             -- a definition, and for a class its constructors
    SELECT symbol_id AS owner, symbol_id AS target FROM found
    UNION ALL
    SELECT f.symbol_id, c.symbol_id
    FROM symbols c JOIN found f ON c.parent_id = f.symbol_id
    WHERE c.kind IN ('method', 'constructor') AND (list_contains($ctor, c.name) OR c.name = f.name)
), calls AS (               -- resolved call sites per definition: one join, one aggregate
    SELECT t.owner, count(*) AS n
    FROM edges e JOIN targets t ON e.dst_id = t.target
    WHERE e.kind = 'calls'
    GROUP BY t.owner
)
SELECT f.symbol_id, f.qualname, f.name, f.kind, f.path, f.start_line, f.end_line,
       f.signature, f.doc, f.rank, coalesce(c.n, 0) AS n,
       count(*) OVER (PARTITION BY f.rank) AS in_rank, count(*) OVER () AS total
FROM found f LEFT JOIN calls c ON c.owner = f.symbol_id
ORDER BY f.rank, f.decl, CASE WHEN list_contains($ranked, f.kind) THEN 0 ELSE 1 END,
         n DESC, f.qualname, f.symbol_id
LIMIT $limit OFFSET $offset
"""


def find_definition(con, name_or_qualname: str, limit: int | None = 20, offset: int = 0) -> Page:
    """Definitions matching a name, best first: exact qualname, dotted suffix
    (`pricing.compute_total`), bare name, then case-insensitive name. Within a rank,
    definitions before declarations, callables and classes before fields, then the most
    called first. At most `limit` rows from `offset`; `.total` counts every match and
    `.best_total` those of the best rank."""
    q = _as_name(name_or_qualname)
    if not _is_text(q):                 # undecodable bytes: no definition has that name
        page = Page([], 0)
        page.best_total = 0
        return page
    short = q.rsplit(".", 1)[-1]
    best = []

    def make(r):
        best.append(r[11])
        return Definition(*r[:9], _MATCHES[r[9]], r[10])
    page = _query_page(con, _FIND_DEFINITION, {"q": q, "short": short, "ctor": list(CONSTRUCTOR_NAMES),
                                               "ranked": _RANKED_KINDS}, make, limit, offset)
    page.best_total = best[0] if best else 0
    return page


def _as_name(text) -> str:
    if not isinstance(text, str):
        raise TypeError(f"a symbol name must be a string, got {type(text).__name__}")
    return text.strip()


def _is_text(s: str) -> bool:
    """False for a string holding lone surrogates (bytes that were not UTF-8)."""
    try:
        s.encode("utf-8")
    except UnicodeEncodeError:
        return False
    return True


def symbol_id(con, symbol) -> int:
    """The symbol id `symbol` names (see the module doc); raises SymbolNotFound /
    AmbiguousSymbol."""
    if isinstance(symbol, int) and not isinstance(symbol, bool):
        return symbol
    if isinstance(symbol, Definition):
        return symbol.symbol_id
    s = _as_name(symbol)                # text is always a name, never an id ("0", "²")
    if not _is_text(s):                 # undecodable bytes: no definition has that name
        raise SymbolNotFound(f"no definition named {s!r}")
    cache = rowcache.of(con)
    if cache is not None:
        exact = _hot_qualnames(cache).get(s, ())
    else:
        exact = [r[0] for r in store.run(con, "SELECT symbol_id FROM symbols WHERE qualname = ? LIMIT 2", [s])]
    if len(exact) == 1:             # one definition has this qualified name: the ranking's answer too
        return exact[0]
    found = find_definition(con, s, limit=50)
    if not found:
        raise SymbolNotFound(f"no definition named {s!r}")
    best = [d for d in found if d.match == found[0].match]
    if len(best) > 1:
        # a module-level definition wins over same-named nested ones only if it is unique
        defs = [d for d in best if d.kind != "module"]
        if len({d.qualname for d in defs}) > 1:
            raise AmbiguousSymbol(s, best, found.best_total)
    return best[0].symbol_id


def constructor_targets(con, sid: int) -> list[int]:
    """`sid` and, for a class, its constructors: a class is called through them."""
    cache = rowcache.of(con)
    if cache is not None:
        hit = _hot_symbols(cache).get(sid)
        row = (hit[3], hit[2]) if hit is not None else None
    else:
        row = store.one(con, "SELECT kind, name FROM symbols WHERE symbol_id = ?", [sid])
    if row is None:
        raise SymbolNotFound(f"no symbol with id {sid}")
    ids = [sid]
    if row[0] in CLASS_KINDS:
        ids += [r[0] for r in store.run(con, """
            SELECT symbol_id FROM symbols
            WHERE parent_id = ? AND kind IN ('method', 'constructor', 'function')
              AND (list_contains(?, name) OR name = ?)
            ORDER BY symbol_id""", [sid, list(CONSTRUCTOR_NAMES), row[1]])]
    return ids


# ---------------------------------------------------------------- symbols by id, by text

def symbols_by_id(con, ids) -> dict[int, Symbol]:
    """The symbols with these ids (unknown ids are left out)."""
    ids = sorted({int(i) for i in ids if i is not None})
    if not ids:
        return {}
    cache = rowcache.of(con)
    if cache is not None:
        every = _hot_symbols(cache)
        return {i: Symbol(*every[i]) for i in ids if i in every}
    rows = store.run(con, """
        SELECT symbol_id, qualname, name, kind, path, start_line, end_line FROM symbols
        WHERE symbol_id IN (SELECT unnest(?))""", [ids])
    return {r[0]: Symbol(*r) for r in rows}


_SEARCH = """
WITH m AS (
    SELECT symbol_id, qualname, name, kind, path, start_line, end_line
    FROM symbols
    WHERE kind <> 'module' AND NOT list_contains($hidden, kind)
      AND ($text = '' OR name ILIKE $pattern OR qualname ILIKE $pattern)
      AND ($path IS NULL OR path = $path)
      AND ($kinds IS NULL OR list_contains($kinds, kind))
      AND NOT ($definitions_only AND coalesce(is_declaration, false))
), calls AS (
    SELECT e.dst_id, count(*) AS n FROM edges e
    WHERE e.kind = 'calls' AND e.dst_id IN (SELECT symbol_id FROM m) GROUP BY e.dst_id
)
SELECT m.*, coalesce(c.n, 0) AS n, count(*) OVER () AS total
FROM m LEFT JOIN calls c ON c.dst_id = m.symbol_id
ORDER BY CASE WHEN $path IS NOT NULL THEN m.start_line END,
         lower(m.name) <> lower($text), n DESC, m.qualname, m.symbol_id
LIMIT $limit OFFSET $offset
"""


def search_symbols(con, text: str = "", path: str | None = None, kinds=None,
                   definitions_only: bool = False, limit: int | None = 50, offset: int = 0) -> Page:
    """Definitions whose name or qualified name contains `text` (case-insensitive; empty:
    all), optionally only in file `path`, of `kinds`, or without bare declarations. In a
    file: in source order; else the exact name first, then the most called."""
    text = (text or "").strip()
    pattern = "%" + text.replace("\\", "\\\\").replace("%", "\\%").replace("_", "\\_") + "%"
    return _query_page(con, _SEARCH.replace("ILIKE $pattern", "ILIKE $pattern ESCAPE '\\'"),
                       {"text": text, "pattern": pattern, "path": path,
                        "kinds": sorted(kinds) if kinds is not None else None,
                        "definitions_only": definitions_only, "hidden": sorted(ANONYMOUS_KINDS)},
                       lambda r: Symbol(*r), limit, offset)


# ---------------------------------------------------------------- callers / callees

def _sites(hits: str) -> str:
    """A call-site query over the edges `hits` selects (a statement with an `edge_id`
    column): the edges first, then only their callers' and callees' symbols (a join with
    the whole symbols table costs several times more)."""
    return f"""
WITH e AS MATERIALIZED (
    SELECT * FROM edges WHERE edge_id IN ({hits})
), s AS MATERIALIZED (
    SELECT symbol_id, qualname, kind FROM symbols
    WHERE symbol_id IN (SELECT src_id FROM e UNION SELECT dst_id FROM e)
)
SELECT e.src_id, coalesce(s.qualname, '?'), coalesce(s.kind, '?'), e.path, e.line, e.dst_id,
       coalesce(d.qualname, e.dst_qualname), e.dst_name, e.resolution, e.candidates,
       count(*) OVER () AS total
FROM e LEFT JOIN s ON s.symbol_id = e.src_id
LEFT JOIN s d ON d.symbol_id = e.dst_id
"""


_FIND_CALLERS = _sites("""
    SELECT edge_id FROM edges WHERE kind = 'calls' AND dst_id IN (SELECT unnest($ids))
    UNION
    SELECT c.edge_id FROM call_candidates c WHERE $amb AND c.symbol_id IN (SELECT unnest($ids))""") + """
ORDER BY e.path, e.line, e.edge_id
LIMIT $limit OFFSET $offset
"""


def find_callers(con, symbol, include_ambiguous: bool = True, limit: int | None = DEFAULT_LIMIT,
                 offset: int = 0, targets: list[int] | None = None) -> Page:
    """Every call site that calls `symbol` (a class: also its constructor), with its
    resolution; ambiguous sites listing `symbol` among their candidates are included
    (resolution 'ambiguous') unless `include_ambiguous=False`. Sorted by path, line.
    `targets`: `constructor_targets` of the symbol when the caller has them already."""
    ids = targets if targets is not None else constructor_targets(con, symbol_id(con, symbol))
    cache = rowcache.of(con)
    if cache is not None:
        calls = _hot_calls(cache)
        hits = {e for i in ids for e in calls.by_dst.get(i, ())}
        if include_ambiguous:
            hits.update(e for i in ids for e in calls.candidates.get(i, ()))
        return _hot_page(cache, hits, limit, offset)
    return _query_page(con, _FIND_CALLERS, {"ids": ids, "amb": bool(include_ambiguous)},
                       lambda r: CallSite(*r), limit, offset)


_FIND_CALLEES = _sites("""
    SELECT edge_id FROM edges
    WHERE kind = 'calls' AND src_id = $sid AND (NOT $resolved_only OR dst_id IS NOT NULL)""") + """
ORDER BY e.line, e.edge_id
LIMIT $limit OFFSET $offset
"""


def find_callees(con, symbol, resolved_only: bool = False, limit: int | None = DEFAULT_LIMIT,
                 offset: int = 0) -> Page:
    """Every call made by `symbol`'s own code (not nested definitions), in source order;
    unresolved, ambiguous, builtin and external calls included unless `resolved_only`."""
    return _query_page(con, _FIND_CALLEES, {"sid": symbol_id(con, symbol), "resolved_only": resolved_only},
                       lambda r: CallSite(*r), limit, offset)


_FIND_UNRESOLVED = _sites("""
    WITH u AS MATERIALIZED (        -- unbound calls written with the name (a string scan, once)
        SELECT edge_id, path, line FROM edges
        WHERE kind = 'calls' AND dst_id IS NULL AND candidates IS NULL
          AND coalesce(resolution, 'unresolved') NOT IN ('builtin', 'external')   -- known to be elsewhere
          AND (dst_name = $name OR ends_with(dst_name, '.' || $name))
    ), known AS (                   -- lines that already call (or may call) one of the targets
        SELECT path, line FROM edges WHERE kind = 'calls' AND dst_id IN (SELECT unnest($ids))
        UNION
        SELECT path, line FROM edges
        WHERE edge_id IN (SELECT edge_id FROM call_candidates WHERE symbol_id IN (SELECT unnest($ids)))
    )
    SELECT u.edge_id FROM u LEFT JOIN known k ON k.path = u.path AND k.line = u.line
    WHERE k.path IS NULL""") + """
ORDER BY e.path, e.line, e.edge_id
LIMIT $limit OFFSET $offset
"""


def find_unresolved_calls(con, name: str, known_targets: list[int] = (), limit: int | None = DEFAULT_LIMIT,
                          offset: int = 0) -> Page:
    """Calls the index could not bind to anything (no target, no candidates, and not known
    to be a builtin or outside the repository) whose callee is written `name` or
    `anything.name`: they may or may not call a definition of that name. Call sites on a line that already calls (or may call: ambiguous) one of
    `known_targets` are left out."""
    cache = rowcache.of(con)
    if cache is not None and "." not in name:
        calls = _hot_calls(cache)
        rows = calls.rows
        known = {(rows[e][2], rows[e][3]) for i in known_targets
                 for e in (*calls.by_dst.get(i, ()), *calls.candidates.get(i, ()))}
        hits = {e for e in calls.unbound.get(name, ())
                if not (rows[e][3] is not None and (rows[e][2], rows[e][3]) in known)}
        return _hot_page(cache, hits, limit, offset)
    return _query_page(con, _FIND_UNRESOLVED, {"name": name, "ids": list(known_targets)},
                       lambda r: CallSite(*r), limit, offset)


# ---------------------------------------------------------------- the same, from memory
# A long-lived reader (the MCP server) holds these rows in its row cache (workbench.rowcache):
# the rows of the queries above, looked up by key instead of scanned for, giving the same
# pages (same rows, same order: path, line with NULL last, edge id).

def _hot_qualnames(cache) -> dict[str, list[int]]:
    def build():
        out: dict[str, list[int]] = {}
        for q, i in store.run(cache.con, "SELECT qualname, symbol_id FROM symbols"):
            out.setdefault(q, []).append(i)
        return out
    return cache.group("graph.qualnames", build)


def _hot_symbols(cache) -> dict[int, tuple]:
    return cache.group("graph.symbols", lambda: {r[0]: r for r in store.run(cache.con, """
        SELECT symbol_id, qualname, name, kind, path, start_line, end_line FROM symbols""")})


@dataclass
class _Calls:
    rows: dict          # edge_id -> (edge_id, src_id, path, line, dst_id, dst_qualname, dst_name, resolution, candidates)
    by_dst: dict        # symbol id -> edge ids of the calls bound to it
    candidates: dict    # symbol id -> edge ids of the ambiguous calls naming it (call_candidates)
    unbound: dict       # last part of the name as written -> edge ids of the calls _FIND_UNRESOLVED scans


def _hot_calls(cache) -> _Calls:
    def build():
        rows, by_dst, unbound, texts = {}, {}, {}, {}
        same = texts.setdefault                 # one string object per distinct text (memory)
        for r in cache.stream("""
                SELECT edge_id, src_id, path, line, dst_id, dst_qualname, dst_name, resolution,
                       candidates, kind = 'calls' FROM edges
                WHERE kind = 'calls' OR edge_id IN (SELECT edge_id FROM call_candidates)"""):
            cands = r[8] if r[8] is None else tuple(same(c, c) for c in r[8])
            r = (r[0], r[1], same(r[2], r[2]), r[3], r[4], r[5] if r[5] is None else same(r[5], r[5]),
                 r[6] if r[6] is None else same(r[6], r[6]), r[7] if r[7] is None else same(r[7], r[7]),
                 cands, r[9])
            rows[r[0]] = r[:9]
            if not r[9]:
                continue
            if r[4] is not None:
                by_dst.setdefault(r[4], []).append(r[0])
            elif r[8] is None and (r[7] or "unresolved") not in ("builtin", "external") and r[6] is not None:
                unbound.setdefault(r[6].rsplit(".", 1)[-1], []).append(r[0])
        cands: dict = {}
        for e, i in store.run(cache.con, "SELECT edge_id, symbol_id FROM call_candidates "
                                         "WHERE symbol_id IS NOT NULL"):
            if e in rows:
                cands.setdefault(i, []).append(e)
        return _Calls(rows, by_dst, cands, unbound)
    return cache.group("graph.calls", build)


def cache_rows(cache) -> None:
    """Load what the lookups above keep in `cache` now (instead of at their first use)."""
    _hot_qualnames(cache)
    _hot_symbols(cache)
    _hot_calls(cache)


def _hot_page(cache, hits: set, limit: int | None, offset: int) -> Page:
    """The call sites of edges `hits` as `_sites` gives them: sorted, one page."""
    rows = _hot_calls(cache).rows
    syms = _hot_symbols(cache)
    found = sorted((rows[e] for e in hits if e in rows),
                   key=lambda r: (r[2], r[3] is None, r[3] or 0, r[0]))
    bounds = _bounds(limit, offset)
    page = found[bounds["offset"]:bounds["offset"] + bounds["limit"]]

    def site(r):
        src, dst = syms.get(r[1]), syms.get(r[4]) if r[4] is not None else None
        return CallSite(r[1], src[1] if src else "?", src[3] if src else "?", r[2], r[3], r[4],
                        dst[1] if dst else r[5], r[6], r[7], None if r[8] is None else list(r[8]))
    return Page([site(r) for r in page], len(found), bounds["offset"])


# ---------------------------------------------------------------- chains

_CHAIN_DOWN = """
WITH RECURSIVE walk(depth, src_id, dst_id, path, line, resolution, trail, cycle) AS (
    SELECT 1, e.src_id, e.dst_id, e.path, e.line, e.resolution, [e.src_id, e.dst_id], e.dst_id = e.src_id
    FROM edges e
    WHERE e.kind = 'calls' AND e.src_id = $sid AND e.dst_id IS NOT NULL
    UNION ALL
    SELECT w.depth + 1, e.src_id, e.dst_id, e.path, e.line, e.resolution,
           list_append(w.trail, e.dst_id), list_contains(w.trail, e.dst_id)
    FROM walk w JOIN edges e ON e.src_id = w.dst_id
    WHERE e.kind = 'calls' AND e.dst_id IS NOT NULL AND NOT w.cycle AND w.depth < $depth
)
"""

_CHAIN_UP = """
WITH RECURSIVE walk(depth, src_id, dst_id, path, line, resolution, trail, cycle) AS (
    SELECT 1, e.src_id, e.dst_id, e.path, e.line, e.resolution, [e.dst_id, e.src_id], e.dst_id = e.src_id
    FROM edges e
    WHERE e.kind = 'calls' AND list_contains($ids, e.dst_id)
    UNION ALL
    SELECT w.depth + 1, e.src_id, e.dst_id, e.path, e.line, e.resolution,
           list_append(w.trail, e.src_id), list_contains(w.trail, e.src_id)
    FROM walk w JOIN edges e ON e.dst_id = w.src_id
    WHERE e.kind = 'calls' AND NOT w.cycle AND w.depth < $depth
)
"""

_CHAIN_ROWS = """
, steps AS (
    SELECT depth, src_id, dst_id, min(path) AS path, min(line) AS line,
           -- a call written in the code before a function handed to a builtin (`callback`)
           coalesce(min(resolution) FILTER (WHERE resolution NOT IN ('callback', 'implicit')),
                    min(resolution)) AS resolution,
           bool_or(cycle) AS cycle
    FROM walk GROUP BY depth, src_id, dst_id
)
SELECT st.depth, st.src_id, coalesce(a.qualname, '?'), st.dst_id, coalesce(b.qualname, '?'),
       st.path, st.line, st.resolution, st.cycle, count(*) OVER () AS total
FROM steps st LEFT JOIN symbols a ON a.symbol_id = st.src_id
LEFT JOIN symbols b ON b.symbol_id = st.dst_id
ORDER BY st.depth, st.path, st.line, 3, 5
LIMIT $limit
"""


def trace_call_chain(con, symbol, depth: int = 3, direction: str = "down",
                     limit: int | None = 1000) -> Page:
    """Call edges reachable from `symbol` within `depth` steps: `down` follows callees,
    `up` follows callers (a class: its constructor's callers too), `both` does both.

    One recursive CTE per direction; each path carries the list of symbols visited, so a
    recursion cycle (`a -> b -> a`) ends with an edge marked `cycle=True` instead of
    looping. Only resolved edges are followed. Edges come breadth first (by depth), each
    (depth, src, dst) once, with its first call site; at most `limit` per direction."""
    if direction not in DIRECTIONS:
        raise ValueError(f"direction must be one of {DIRECTIONS}")
    sid = symbol_id(con, symbol)
    depth = max(1, int(depth))
    lim = _bounds(limit, 0)["limit"]
    out, total = [], 0
    if direction in ("down", "both"):
        rows = store.run(con, _CHAIN_DOWN + _CHAIN_ROWS, {"sid": sid, "depth": depth, "limit": lim})
        out += [ChainEdge("down", *r[:-1]) for r in rows]
        total += rows[0][-1] if rows else 0
    if direction in ("up", "both"):
        rows = store.run(con, _CHAIN_UP + _CHAIN_ROWS, {"ids": constructor_targets(con, sid),
                                                        "depth": depth, "limit": lim})
        out += [ChainEdge("up", *r[:-1]) for r in rows]
        total += rows[0][-1] if rows else 0
    out.sort(key=lambda e: (e.direction != "down", e.depth, e.path, e.line, e.src, e.dst))
    return Page(out, total)


# ---------------------------------------------------------------- architecture

def _unit_of(path: str, prefix: str) -> str:
    rest = path[len(prefix):]
    head, sep, _ = rest.partition("/")
    return prefix + head + ("/" if sep else "")


def get_architecture_overview(con, directory: str = ".", max_units: int = 80) -> Architecture:
    """The parts directly under `directory` (sub-directories and files) with their sizes,
    the import and call edges between them (resolved edges only), the most used external
    names, and entry points (`main` functions, `__main__` modules, scripts that are run
    but never imported)."""
    d = directory.strip().strip("/")
    prefix = "" if d in ("", ".") else d + "/"
    files = store.run(con, """
        SELECT path, language, coalesce(line_count, 0) FROM files
        WHERE status IN ('ok', 'partial') AND starts_with(path, ?)
          AND language IS NOT NULL AND NOT list_contains(?, language)
        ORDER BY path""", [prefix, sorted(DATA_LANGUAGES)])
    units: dict[str, dict] = {}
    for path, lang, lines in files:
        u = units.setdefault(_unit_of(path, prefix), {"files": 0, "lines": 0, "langs": Counter()})
        u["files"] += 1
        u["lines"] += lines
        u["langs"][lang] += 1
    counts = store.run(con, """
        SELECT path, count(*) FILTER (WHERE kind <> 'module'),
               count(*) FILTER (WHERE kind IN ('function', 'method', 'constructor')),
               count(*) FILTER (WHERE list_contains(?, kind))
        FROM symbols WHERE starts_with(path, ?) GROUP BY path""", [list(CLASS_KINDS), prefix])
    per_unit = defaultdict(lambda: [0, 0, 0])
    for path, n, f, c in counts:
        u = _unit_of(path, prefix)
        if u in units:
            acc = per_unit[u]
            acc[0] += n
            acc[1] += f
            acc[2] += c
    unit_rows = [Unit(name, u["files"], u["lines"], *per_unit[name],
                      sorted(u["langs"], key=lambda k: -u["langs"][k]))
                 for name, u in units.items()]
    unit_rows.sort(key=lambda u: (-u.lines, u.name))
    unit_rows = unit_rows[:max_units]
    deps = store.run(con, """
        SELECT e.path AS src, d.path AS dst, e.kind, count(*)
        FROM edges e JOIN symbols d ON d.symbol_id = e.dst_id
        WHERE e.kind IN ('calls', 'imports') AND starts_with(e.path, $p) AND starts_with(d.path, $p)
          AND e.path <> d.path
        GROUP BY ALL""", {"p": prefix})
    pair = defaultdict(lambda: [0, 0])
    for src, dst, kind, n in deps:
        a, b = _unit_of(src, prefix), _unit_of(dst, prefix)
        if a == b:
            continue
        pair[(a, b)][0 if kind == "imports" else 1] += n
    dep_rows = sorted((Dependency(a, b, i, c) for (a, b), (i, c) in pair.items()),
                      key=lambda x: (-(x.imports + x.calls), x.src, x.dst))
    external = store.run(con, """
        SELECT split_part(dst_qualname, '.', 1) AS name, count(*) AS n FROM edges
        WHERE resolution = 'external' AND starts_with(path, ?) AND dst_qualname IS NOT NULL
        GROUP BY 1 ORDER BY n DESC, name LIMIT 15""", [prefix])
    return Architecture(directory=d or ".", files=len(files), lines=sum(f[2] for f in files),
                        units=unit_rows, dependencies=dep_rows,
                        entry_points=entry_points(con, prefix), external=[tuple(r) for r in external])


def entry_points(con, prefix: str = "") -> list[EntryPoint]:
    rows = store.run(con, """
        SELECT s.qualname, s.kind, s.path, s.start_line,
               CASE WHEN s.name = 'main' THEN 'main function'
                    WHEN s.kind = 'module' AND s.path LIKE '%__main__.py' THEN '__main__ module'
                    ELSE 'runs code at module level and is imported by no file' END
        FROM symbols s
        WHERE starts_with(s.path, $p) AND (
              (s.name = 'main' AND s.kind IN ('function', 'method'))
           OR (s.kind = 'module' AND s.path LIKE '%__main__.py')
           OR (s.kind = 'module' AND s.language = 'python'
               AND EXISTS (SELECT 1 FROM edges e WHERE e.src_id = s.symbol_id AND e.kind = 'calls'
                           AND e.dst_id IS NOT NULL AND e.resolution = 'local')
               AND NOT EXISTS (SELECT 1 FROM imports i WHERE i.resolved_path = s.path)))
        ORDER BY s.path, s.start_line""", {"p": prefix})
    return [EntryPoint(*r) for r in rows]


# ---------------------------------------------------------------- impact

_IMPACT = """
WITH RECURSIVE seeds AS (
    SELECT symbol_id FROM symbols WHERE list_contains($paths, path)
), walk(depth, sym, via, edge, trail) AS (
    SELECT 1, e.src_id, e.dst_id, e.kind, [e.dst_id, e.src_id]
    FROM edges e JOIN seeds ON seeds.symbol_id = e.dst_id
    WHERE list_contains($kinds, e.kind) AND NOT list_contains($paths, e.path)
    UNION ALL
    SELECT w.depth + 1, e.src_id, e.dst_id, e.kind, list_append(w.trail, e.src_id)
    FROM walk w JOIN edges e ON e.dst_id = w.sym
    WHERE list_contains($kinds, e.kind) AND w.depth < $depth
      AND NOT list_contains(w.trail, e.src_id) AND NOT list_contains($paths, e.path)
), hit AS (
    SELECT sym, min(depth) AS depth, arg_min(via, depth) AS via, arg_min(edge, depth) AS edge
    FROM walk GROUP BY sym
)
SELECT h.sym, coalesce(s.qualname, '?'), coalesce(s.kind, '?'), coalesce(s.path, '?'),
       coalesce(s.start_line, 0), h.depth, coalesce(v.qualname, '?'), h.edge, count(*) OVER () AS total
FROM hit h LEFT JOIN symbols s ON s.symbol_id = h.sym LEFT JOIN symbols v ON v.symbol_id = h.via
ORDER BY h.depth, 4, 5, 2, h.sym
LIMIT $limit OFFSET $offset
"""


def impact(con, changed_paths, depth: int = 2, limit: int | None = DEFAULT_LIMIT, offset: int = 0) -> Page:
    """Symbols outside `changed_paths` that call, import or subclass something defined in
    those files (depth 1), and what reaches those in turn, up to `depth`. Closest first."""
    paths = [changed_paths] if isinstance(changed_paths, str) else list(changed_paths)
    return _query_page(con, _IMPACT, {"paths": paths, "depth": max(1, int(depth)),
                                      "kinds": list(DEPENDENCY_EDGE_KINDS)},
                       lambda r: Impacted(*r), limit, offset)


__all__ = ["find_definition", "symbol_id", "symbols_by_id", "search_symbols", "Symbol", "constructor_targets", "find_callers", "find_callees",
           "find_unresolved_calls", "trace_call_chain", "get_architecture_overview", "entry_points",
           "impact", "Page", "Definition", "CallSite", "ChainEdge", "Architecture", "Unit", "Dependency",
           "EntryPoint", "Impacted", "SymbolNotFound", "NoIndexedFiles", "AmbiguousSymbol", "DIRECTIONS", "DEFAULT_LIMIT"]


# ---------------------------------------------------------------- cycles

@dataclass
class Cycle(_Row):
    """A strongly connected component: every member reaches every other one."""
    size: int                   # members
    members: list[str]          # files (import cycles) or qualnames (call cycles), sorted
    edges: int                  # edges inside the component


def strongly_connected(edges) -> list[list]:
    """The strongly connected components of more than one node (or a node with an edge to
    itself) of a directed graph given as (src, dst) pairs: Tarjan's algorithm, iterative,
    linear in nodes plus edges. Bounded by the graph's size however many simple cycles it
    has (a complete graph of 12 nodes has billions of those, and one component)."""
    succ: dict = defaultdict(list)
    nodes: dict = {}
    loops = set()
    for a, b in edges:
        succ[a].append(b)
        nodes.setdefault(a, None)
        nodes.setdefault(b, None)
        if a == b:
            loops.add(a)
    index: dict = {}
    low: dict = {}
    on: set = set()
    stack: list = []
    out: list = []
    counter = 0
    for start in nodes:
        if start in index:
            continue
        work = [(start, iter(succ[start]))]
        index[start] = low[start] = counter
        counter += 1
        stack.append(start)
        on.add(start)
        while work:
            v, it = work[-1]
            nxt = next(it, None)
            if nxt is not None:
                if nxt not in index:
                    index[nxt] = low[nxt] = counter
                    counter += 1
                    stack.append(nxt)
                    on.add(nxt)
                    work.append((nxt, iter(succ[nxt])))
                elif nxt in on:
                    low[v] = min(low[v], index[nxt])
                continue
            work.pop()
            if work:
                low[work[-1][0]] = min(low[work[-1][0]], low[v])
            if low[v] == index[v]:
                comp = []
                while True:
                    w = stack.pop()
                    on.discard(w)
                    comp.append(w)
                    if w == v:
                        break
                if len(comp) > 1 or v in loops:
                    out.append(comp)
    return out


def _cycles(pairs, limit: int | None, offset: int) -> Page:
    pairs = [tuple(p) for p in pairs]
    comps = strongly_connected(pairs)
    where = {n: i for i, c in enumerate(comps) for n in c}
    inside = Counter(where[a] for a, b in pairs if a in where and where.get(b) == where[a])
    rows = sorted((Cycle(len(c), sorted(map(str, c)), inside[i]) for i, c in enumerate(comps)),
                  key=lambda c: (-c.size, -c.edges, c.members[0]))
    b = _bounds(limit, offset)
    return Page(rows[b["offset"]:b["offset"] + b["limit"]], len(rows), b["offset"])


def import_cycles(con, limit: int | None = 20, offset: int = 0) -> Page:
    """Import cycles between the repository's files, as strongly connected components of
    the file-level import graph (imports resolved into the repository), largest first.
    `.total` counts the components; each lists its files. Linear in files plus imports."""
    pairs = store.run(con, "SELECT DISTINCT path, resolved_path FROM imports "
                           "WHERE resolved_path IS NOT NULL AND resolved_path <> path")
    return _cycles(pairs, limit, offset)


def call_cycles(con, limit: int | None = 20, offset: int = 0) -> Page:
    """Recursion in the call graph (direct and mutual), as strongly connected components
    of the resolved call edges between definitions, largest first (a function calling
    itself is a component of one)."""
    pairs = store.run(con, """
        SELECT DISTINCT a.qualname, b.qualname
        FROM edges e JOIN symbols a ON a.symbol_id = e.src_id JOIN symbols b ON b.symbol_id = e.dst_id
        WHERE e.kind = 'calls' AND a.kind <> 'module'""")
    return _cycles(pairs, limit, offset)
