"""Call-graph queries over an index: plain functions of a DuckDB connection (issue 3).

Every function returns plain Python values (lists of dataclasses, each with `.as_dict()`);
`workbench.views` turns them into agent-facing text. The shapes below are stable:

* `find_definition(con, name_or_qualname)` -> `list[Definition]`, best match first.
* `find_callers(con, symbol)` -> `list[CallSite]`: who calls `symbol`, one row per call site.
* `find_callees(con, symbol)` -> `list[CallSite]`: what `symbol` calls (unresolved calls too).
* `trace_call_chain(con, symbol, depth, direction)` -> `list[ChainEdge]`, breadth first.
* `get_architecture_overview(con, directory)` -> `Architecture`.
* `impact(con, changed_paths, depth)` -> `list[Impacted]`.

`symbol` is a symbol id, a qualified name (`shop.pricing.compute_total`), a dotted suffix
of one (`pricing.compute_total`) or a bare name; a name that matches several definitions
equally well raises `AmbiguousSymbol` (its `.matches` lists them), an unknown one
`SymbolNotFound`.

Every call edge carries `resolution` (see `workbench.resolve`): the functions never hide
how sure an edge is. `ambiguous` edges list their candidates; `find_callers` includes an
ambiguous call site when the symbol is one of its candidates (`include_ambiguous=True`).

The same questions in SQL (macros created on every connection by `install_sql`, see
docs/schema.md): `callers('q')`, `callees('q')`, `call_chain('q', depth)`,
`call_chain_up('q', depth)`, `definitions('name')` and the view `call_edges`.
"""
from __future__ import annotations

from collections import Counter, defaultdict
from dataclasses import asdict, dataclass, field

from . import store

CLASS_KINDS = ("class", "interface", "struct", "enum", "trait", "record", "object")
CALLABLE_KINDS = ("function", "method", "constructor", "lambda")
DIRECTIONS = ("down", "up", "both")


class SymbolNotFound(LookupError):
    pass


class AmbiguousSymbol(LookupError):
    def __init__(self, name: str, matches: list):
        super().__init__(f"{name!r} matches {len(matches)} definitions: "
                         + ", ".join(m.qualname for m in matches[:10]))
        self.name = name
        self.matches = matches


class _Row:
    def as_dict(self) -> dict:
        return asdict(self)


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


# ---------------------------------------------------------------- definitions

def find_definition(con, name_or_qualname: str, limit: int = 20) -> list[Definition]:
    """Definitions matching a name, best first: exact qualname, dotted suffix
    (`pricing.compute_total`), bare name, then case-insensitive name. Within a rank,
    definitions before declarations, callables and classes before fields, then the most
    called first."""
    q = name_or_qualname.strip()
    short = q.rsplit(".", 1)[-1]
    rows = store.run(con, """
        WITH m AS (
            SELECT s.*, CASE
                WHEN s.qualname = $q THEN 0
                WHEN ends_with(s.qualname, '.' || $q) THEN 1
                WHEN s.name = $q THEN 2
                ELSE 3 END AS rank
            FROM symbols s
            WHERE s.kind <> 'module' AND (s.name = $short OR lower(s.name) = lower($short))
               OR s.qualname = $q
        )
        SELECT m.symbol_id, m.qualname, m.name, m.kind, m.path, m.start_line, m.end_line,
               m.signature, m.doc, m.rank,
               (SELECT count(*) FROM edges e WHERE e.kind = 'calls' AND (e.dst_id = m.symbol_id
                    OR e.dst_id IN (SELECT c.symbol_id FROM symbols c WHERE c.parent_id = m.symbol_id
                                    AND c.name IN ('__init__', 'constructor', m.name)
                                    AND c.kind IN ('method', 'constructor')))) AS n
        FROM m
        WHERE m.rank < 3 OR lower(m.name) = lower($q)
        ORDER BY m.rank, coalesce(m.is_declaration, false),
                 CASE WHEN m.kind IN ('function', 'method', 'class', 'interface', 'struct',
                                      'constructor', 'enum', 'trait', 'module') THEN 0 ELSE 1 END,
                 n DESC, m.qualname
        LIMIT $limit""", {"q": q, "short": short, "limit": limit})
    names = ("qualname", "suffix", "name", "name-nocase")
    return [Definition(r[0], r[1], r[2], r[3], r[4], r[5], r[6], r[7], r[8], names[r[9]], r[10])
            for r in rows]


def resolve_symbol(con, symbol) -> int:
    """The symbol id `symbol` names (see the module doc); raises SymbolNotFound /
    AmbiguousSymbol."""
    if isinstance(symbol, int):
        return symbol
    if isinstance(symbol, Definition):
        return symbol.symbol_id
    s = str(symbol).strip()
    if s.isdigit():
        return int(s)
    found = find_definition(con, s, limit=50)
    if not found:
        raise SymbolNotFound(f"no definition named {s!r}")
    best = [d for d in found if d.match == found[0].match]
    if len(best) > 1:
        # a module-level definition wins over same-named nested ones only if it is unique
        defs = [d for d in best if d.kind != "module"]
        if len({d.qualname for d in defs}) > 1:
            raise AmbiguousSymbol(s, best)
    return best[0].symbol_id


def _symbol_row(con, sid: int):
    row = store.one(con, "SELECT symbol_id, qualname, kind, path, start_line FROM symbols "
                         "WHERE symbol_id = ?", [sid])
    if row is None:
        raise SymbolNotFound(f"no symbol with id {sid}")
    return row


# ---------------------------------------------------------------- callers / callees

_SITE_COLS = """e.src_id, s.qualname, s.kind, e.path, e.line, e.dst_id,
                coalesce(d.qualname, e.dst_qualname), e.dst_name, e.resolution, e.candidates"""


def _targets(con, sid: int) -> list[int]:
    """A class is called through its constructor: callers of the class include them."""
    return [r[0] for r in _target_rows(con, sid)]


def _target_rows(con, sid: int) -> list[tuple]:
    row = store.one(con, "SELECT symbol_id, qualname, kind, name FROM symbols WHERE symbol_id = ?", [sid])
    if row is None:
        raise SymbolNotFound(f"no symbol with id {sid}")
    rows = [row[:2]]
    if row[2] in CLASS_KINDS:
        rows += store.run(con, """
            SELECT symbol_id, qualname FROM symbols
            WHERE parent_id = ? AND kind IN ('method', 'constructor', 'function')
              AND name IN ('__init__', '__new__', 'constructor', ?)""", [sid, row[3]])
    return rows


def find_callers(con, symbol, include_ambiguous: bool = True) -> list[CallSite]:
    """Every call site that calls `symbol` (a class: also its constructor), with its
    resolution; ambiguous sites listing `symbol` among their candidates are included
    (resolution 'ambiguous') unless `include_ambiguous=False`. Sorted by path, line."""
    sid = resolve_symbol(con, symbol)
    ids = [t[0] for t in _target_rows(con, sid)]
    amb = []
    if include_ambiguous:
        amb = [r[0] for r in store.run(con, "SELECT DISTINCT edge_id FROM call_candidates "
                                            "WHERE list_contains(?, symbol_id)", [ids])]
    hits = store.run(con, """
        SELECT edge_id, src_id, path, line, dst_id, dst_qualname, dst_name, resolution, candidates
        FROM edges WHERE kind = 'calls' AND (list_contains($ids, dst_id) OR list_contains($amb, edge_id))
        ORDER BY path, line, edge_id""", {"ids": ids, "amb": amb})
    if not hits:
        return []
    need = sorted({h[1] for h in hits} | {h[4] for h in hits if h[4] is not None})
    info = {r[0]: r[1:] for r in store.run(
        con, "SELECT symbol_id, qualname, kind FROM symbols WHERE list_contains(?, symbol_id)", [need])}
    out = []
    for eid, src, path, line, dst, dq, dn, res, cands in hits:
        q, k = info.get(src, ("?", "?"))
        out.append(CallSite(src, q, k, path, line, dst, info[dst][0] if dst in info else dq, dn, res, cands))
    return out


def find_callees(con, symbol, resolved_only: bool = False) -> list[CallSite]:
    """Every call made by `symbol`'s own code (not nested definitions), in source order;
    unresolved, ambiguous, builtin and external calls included unless `resolved_only`."""
    sid = resolve_symbol(con, symbol)
    rows = store.run(con, f"""
        SELECT {_SITE_COLS}
        FROM edges e JOIN symbols s ON s.symbol_id = e.src_id
        LEFT JOIN symbols d ON d.symbol_id = e.dst_id
        WHERE e.kind = 'calls' AND e.src_id = ? AND (NOT ? OR e.dst_id IS NOT NULL)
        ORDER BY e.line, e.edge_id""", [sid, resolved_only])
    return [CallSite(*r) for r in rows]


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
SELECT depth, src_id, dst_id, min(path), min(line), min(resolution), bool_or(cycle)
FROM walk GROUP BY depth, src_id, dst_id
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
SELECT depth, src_id, dst_id, min(path), min(line), min(resolution), bool_or(cycle)
FROM walk GROUP BY depth, src_id, dst_id
"""


def trace_call_chain(con, symbol, depth: int = 3, direction: str = "down") -> list[ChainEdge]:
    """Call edges reachable from `symbol` within `depth` steps: `down` follows callees,
    `up` follows callers (a class: its constructor's callers too), `both` does both.

    One recursive CTE per direction; each path carries the list of symbols visited, so a
    recursion cycle (`a -> b -> a`) ends with an edge marked `cycle=True` instead of
    looping. Only resolved edges are followed. Edges come breadth first (by depth), each
    (depth, src, dst) once, with its first call site."""
    if direction not in DIRECTIONS:
        raise ValueError(f"direction must be one of {DIRECTIONS}")
    sid = resolve_symbol(con, symbol)
    depth = max(1, int(depth))
    out: list[ChainEdge] = []
    rows = []
    if direction in ("down", "both"):
        rows += [("down",) + tuple(r) for r in store.run(con, _CHAIN_DOWN, {"sid": sid, "depth": depth})]
    if direction in ("up", "both"):
        rows += [("up",) + tuple(r) for r in store.run(con, _CHAIN_UP, {"ids": _targets(con, sid), "depth": depth})]
    ids = sorted({r[2] for r in rows} | {r[3] for r in rows})
    names = dict(store.run(con, "SELECT symbol_id, qualname FROM symbols WHERE list_contains(?, symbol_id)", [ids]))
    for d, dep, src, dst, path, line, res, cyc in rows:
        out.append(ChainEdge(d, dep, src, names.get(src, "?"), dst, names.get(dst, "?"), path, line, res, bool(cyc)))
    out.sort(key=lambda e: (e.direction != "down", e.depth, e.path, e.line, e.src, e.dst))
    return out


# ---------------------------------------------------------------- architecture

def _unit_of(path: str, prefix: str) -> str:
    rest = path[len(prefix):]
    head, sep, _ = rest.partition("/")
    return prefix + head + ("/" if sep else "")


_DATA_LANGS = ("markdown", "json", "yaml", "toml", "xml", "html", "css", "csv", "ini", "text")


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
        ORDER BY path""", [prefix, list(_DATA_LANGS)])
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
    WHERE e.kind IN ('calls', 'imports', 'inherits', 'implements')
      AND NOT list_contains($paths, e.path)
    UNION ALL
    SELECT w.depth + 1, e.src_id, e.dst_id, e.kind, list_append(w.trail, e.src_id)
    FROM walk w JOIN edges e ON e.dst_id = w.sym
    WHERE e.kind IN ('calls', 'imports', 'inherits', 'implements') AND w.depth < $depth
      AND NOT list_contains(w.trail, e.src_id) AND NOT list_contains($paths, e.path)
)
SELECT sym, min(depth) AS depth, arg_min(via, depth), arg_min(edge, depth) FROM walk GROUP BY sym
"""


def impact(con, changed_paths, depth: int = 2) -> list[Impacted]:
    """Symbols outside `changed_paths` that call, import or subclass something defined in
    those files (depth 1), and what reaches those in turn, up to `depth`. Closest first."""
    paths = [changed_paths] if isinstance(changed_paths, str) else list(changed_paths)
    rows = store.run(con, _IMPACT, {"paths": paths, "depth": max(1, int(depth))})
    ids = sorted({r[0] for r in rows} | {r[2] for r in rows})
    info = {r[0]: r[1:] for r in store.run(con, """SELECT symbol_id, qualname, kind, path, start_line
                                                   FROM symbols WHERE list_contains(?, symbol_id)""", [ids])}
    out = []
    for sym, dep, via, edge in rows:
        q, k, p, ln = info.get(sym, ("?", "?", "?", 0))
        out.append(Impacted(sym, q, k, p, ln, dep, info.get(via, ("?",))[0], edge))
    out.sort(key=lambda x: (x.depth, x.path, x.line))
    return out


# ---------------------------------------------------------------- SQL twins

SQL_MACROS = """
CREATE OR REPLACE TEMP VIEW call_edges AS
    SELECT e.edge_id, e.src_id, s.qualname AS caller, e.dst_id,
           coalesce(d.qualname, e.dst_qualname) AS callee, e.dst_name AS as_written,
           e.path, e.line, e.resolution, e.candidates
    FROM edges e JOIN symbols s ON s.symbol_id = e.src_id
    LEFT JOIN symbols d ON d.symbol_id = e.dst_id
    WHERE e.kind = 'calls';
CREATE OR REPLACE TEMP MACRO definitions(q) AS TABLE
    SELECT symbol_id, qualname, kind, path, start_line, end_line, signature
    FROM symbols
    WHERE kind <> 'module' AND (qualname = q OR ends_with(qualname, '.' || q) OR name = q)
    ORDER BY CASE WHEN qualname = q THEN 0 WHEN ends_with(qualname, '.' || q) THEN 1 ELSE 2 END, qualname;
CREATE OR REPLACE TEMP MACRO callers(q) AS TABLE
    SELECT s.qualname AS caller, e.path, e.line, e.dst_name AS as_written, e.resolution,
           t.qualname AS callee
    FROM edges e
    JOIN symbols s ON s.symbol_id = e.src_id
    JOIN symbols t ON t.qualname = q AND (e.dst_id = t.symbol_id OR list_contains(e.candidates, t.qualname))
    WHERE e.kind = 'calls'
    ORDER BY e.path, e.line;
CREATE OR REPLACE TEMP MACRO callees(q) AS TABLE
    SELECT e.line, e.dst_name AS as_written, coalesce(d.qualname, e.dst_qualname) AS callee,
           e.resolution, e.candidates, e.path
    FROM edges e
    JOIN symbols s ON s.symbol_id = e.src_id AND s.qualname = q
    LEFT JOIN symbols d ON d.symbol_id = e.dst_id
    WHERE e.kind = 'calls'
    ORDER BY e.path, e.line;
CREATE OR REPLACE TEMP MACRO call_chain(q, max_depth) AS TABLE
    WITH RECURSIVE walk(depth, src_id, dst_id, path, line, resolution, trail, cycle) AS (
        SELECT 1, e.src_id, e.dst_id, e.path, e.line, e.resolution, [e.src_id, e.dst_id], e.src_id = e.dst_id
        FROM edges e JOIN symbols s ON s.symbol_id = e.src_id AND s.qualname = q
        WHERE e.kind = 'calls' AND e.dst_id IS NOT NULL
        UNION ALL
        SELECT w.depth + 1, e.src_id, e.dst_id, e.path, e.line, e.resolution,
               list_append(w.trail, e.dst_id), list_contains(w.trail, e.dst_id)
        FROM walk w JOIN edges e ON e.src_id = w.dst_id
        WHERE e.kind = 'calls' AND e.dst_id IS NOT NULL AND NOT w.cycle AND w.depth < max_depth
    )
    SELECT w.depth, a.qualname AS caller, b.qualname AS callee, w.path, w.line, w.resolution, w.cycle
    FROM walk w JOIN symbols a ON a.symbol_id = w.src_id JOIN symbols b ON b.symbol_id = w.dst_id
    ORDER BY w.depth, w.path, w.line;
CREATE OR REPLACE TEMP MACRO call_chain_up(q, max_depth) AS TABLE
    WITH RECURSIVE walk(depth, src_id, dst_id, path, line, resolution, trail, cycle) AS (
        SELECT 1, e.src_id, e.dst_id, e.path, e.line, e.resolution, [e.dst_id, e.src_id], e.src_id = e.dst_id
        FROM edges e JOIN symbols s ON s.symbol_id = e.dst_id AND s.qualname = q
        WHERE e.kind = 'calls'
        UNION ALL
        SELECT w.depth + 1, e.src_id, e.dst_id, e.path, e.line, e.resolution,
               list_append(w.trail, e.src_id), list_contains(w.trail, e.src_id)
        FROM walk w JOIN edges e ON e.dst_id = w.src_id
        WHERE e.kind = 'calls' AND NOT w.cycle AND w.depth < max_depth
    )
    SELECT w.depth, a.qualname AS caller, b.qualname AS callee, w.path, w.line, w.resolution, w.cycle
    FROM walk w JOIN symbols a ON a.symbol_id = w.src_id JOIN symbols b ON b.symbol_id = w.dst_id
    ORDER BY w.depth, w.path, w.line;
"""


def install_sql(con, persistent: bool = False) -> None:
    """Create the call-graph view and table macros. In a writable database they are stored
    in the file (`persistent`), so cursors, other connections and jupysql see them too; a
    read-only connection gets temporary ones."""
    for stmt in SQL_MACROS.split(";\n"):
        if stmt.strip():
            store.run(con, stmt if not persistent else stmt.replace(" TEMP ", " ", 1))


__all__ = ["find_definition", "resolve_symbol", "find_callers", "find_callees", "trace_call_chain",
           "get_architecture_overview", "entry_points", "impact", "install_sql", "Definition",
           "CallSite", "ChainEdge", "Architecture", "Unit", "Dependency", "EntryPoint", "Impacted",
           "SymbolNotFound", "AmbiguousSymbol"]
