"""Repo map: the most important definitions of the repository, ranked by PageRank over the
call / import / inheritance graph (personalised towards focus files or symbols), rendered
as the largest map that fits a token budget, never over it.

Graph: nodes are symbols (modules included, so module-level calls and imports count);
edges are resolved `calls`, `imports`, `inherits`/`implements` edges (`dst_id`), plus
unresolved calls matched by their last name to at most 5 definitions of that name (weight
split between them: this is ranking, not resolution, and the `edges` table is left as it
is), plus a member -> container edge so a used method lends weight to its class.

`to_networkx(build_graph(con))` gives the same graph as a networkx DiGraph. Ranks come
from networkx's PageRank when scipy is installed; otherwise from the same power iteration
written with numpy (same formula, dangling nodes and tolerance as networkx's; a test
checks they agree).
"""
from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from .. import store
from .lookup import lookup_symbols
from .outline import lines_label
from .registry import Answer, Context, ToolError, tool
from .tokens import get_tokenizer

CALL_WEIGHT = 1.0
IMPORT_WEIGHT = 0.5
INHERIT_WEIGHT = 1.0
MEMBER_WEIGHT = 0.5
NAME_MATCH_MAX = 5
RENDER_EXCLUDE = ("module", "field", "variable", "constant", "lambda")


@dataclass
class Graph:
    ids: np.ndarray          # symbol ids, node index -> id
    src: np.ndarray          # node indexes
    dst: np.ndarray
    weight: np.ndarray
    index: dict              # symbol id -> node index

    @property
    def n(self) -> int:
        return len(self.ids)


def build_graph(con) -> Graph:
    ids = np.array([r[0] for r in store.run(con, "SELECT symbol_id FROM symbols ORDER BY symbol_id")],
                   dtype=np.int64)
    index = {int(s): i for i, s in enumerate(ids)}
    rows = store.run(con, f"""
        SELECT src_id, dst_id, CASE kind WHEN 'calls' THEN {CALL_WEIGHT}
                                         WHEN 'imports' THEN {IMPORT_WEIGHT}
                                         ELSE {INHERIT_WEIGHT} END
        FROM edges WHERE dst_id IS NOT NULL AND kind IN ('calls', 'imports', 'inherits', 'implements')
          AND src_id <> dst_id
        UNION ALL
        SELECT u.src_id, c.symbol_id, {CALL_WEIGHT} / c.k
        FROM (SELECT src_id, regexp_extract(dst_name, '([A-Za-z_][A-Za-z0-9_]*)\\s*$', 1) AS nm
              FROM edges WHERE dst_id IS NULL AND kind IN ('calls', 'inherits', 'implements')) u
        JOIN (SELECT name, symbol_id, count(*) OVER (PARTITION BY name) AS k FROM symbols
              WHERE kind NOT IN ('module', 'field', 'variable')) c ON u.nm = c.name
        WHERE c.k <= {NAME_MATCH_MAX} AND u.src_id <> c.symbol_id
        UNION ALL
        SELECT s.symbol_id, s.parent_id, {MEMBER_WEIGHT} FROM symbols s JOIN symbols p
          ON s.parent_id = p.symbol_id WHERE p.kind <> 'module'
        """)
    src, dst, w = [], [], []
    for a, b, wt in rows:
        ia, ib = index.get(a), index.get(b)
        if ia is None or ib is None:
            continue
        src.append(ia)
        dst.append(ib)
        w.append(float(wt))
    return Graph(ids, np.array(src, dtype=np.int64), np.array(dst, dtype=np.int64),
                 np.array(w, dtype=np.float64), index)


def pagerank(g: Graph, personalization: dict | None = None, alpha: float = 0.85,
             max_iter: int = 100, tol: float = 1.0e-6) -> np.ndarray:
    """PageRank of every node (networkx's formula: parallel edges summed, dangling nodes
    redistributed by the personalization vector, stop when L1 change < n * tol)."""
    n = g.n
    if n == 0:
        return np.zeros(0)
    try:
        import scipy  # noqa: F401
        import networkx as nx
        G = to_networkx(g)
        pers = None
        if personalization:
            pers = {int(g.ids[i]): v for i, v in personalization.items()}
        pr = nx.pagerank(G, alpha=alpha, personalization=pers, max_iter=max_iter, tol=tol,
                         weight="weight")
        return np.array([pr[int(s)] for s in g.ids])
    except ImportError:
        pass
    out_w = np.bincount(g.src, weights=g.weight, minlength=n)
    if personalization:
        p = np.zeros(n)
        for i, v in personalization.items():
            p[i] = v
        p /= p.sum()
    else:
        p = np.full(n, 1.0 / n)
    dangling = out_w == 0
    x = np.full(n, 1.0 / n)
    share = np.where(out_w[g.src] > 0, g.weight / np.where(out_w[g.src] > 0, out_w[g.src], 1), 0)
    for _ in range(max_iter):
        xlast = x
        x = alpha * np.bincount(g.dst, weights=xlast[g.src] * share, minlength=n)
        x += (alpha * xlast[dangling].sum()) * p + (1 - alpha) * p
        if np.abs(x - xlast).sum() < n * tol:
            return x
    return x  # networkx raises PowerIterationFailedConvergence; a ranking is still useful


def to_networkx(g: Graph):
    """The graph as a networkx DiGraph (nodes = symbol ids; parallel edges summed)."""
    import networkx as nx
    G = nx.DiGraph()
    G.add_nodes_from(int(s) for s in g.ids)
    for a, b, w in zip(g.src.tolist(), g.dst.tolist(), g.weight.tolist()):
        u, v = int(g.ids[a]), int(g.ids[b])
        if G.has_edge(u, v):
            G[u][v]["weight"] += w
        else:
            G.add_edge(u, v, weight=w)
    return G


# ---------------------------------------------------------------- ranking with focus

_CACHE: dict = {}


def _state(con) -> tuple:
    return tuple(store.one(con, "SELECT (SELECT count(*) FROM symbols), (SELECT max(symbol_id) FROM symbols), "
                                "(SELECT count(*) FROM edges), (SELECT max(edge_id) FROM edges), "
                                "(SELECT count(*) FROM edges WHERE dst_id IS NOT NULL)"))


def focus_nodes(con, g: Graph, focus: list[str]) -> tuple[dict, list[str]]:
    """Personalization weights from focus items (files, directories or symbol names),
    and the items that matched nothing."""
    pers: dict[int, float] = {}
    missing = []
    for item in focus:
        item = item.strip().rstrip("/")
        if not item:
            continue
        rows = store.run(con, "SELECT symbol_id FROM symbols WHERE path = ? OR starts_with(path, ?)",
                         [item, item + "/"])
        if not rows:
            rows = [(r[0],) for r in lookup_symbols(con, item)]
        if not rows:
            missing.append(item)
            continue
        for (sid,) in rows:
            i = g.index.get(sid)
            if i is not None:
                pers[i] = pers.get(i, 0.0) + 1.0 / len(rows)
    return pers, missing


def ranked(con, focus: list[str] | None = None) -> tuple[list[tuple[int, float]], list[str]]:
    """[(symbol_id, rank)] best first, and focus items that matched nothing."""
    focus = [f for f in (focus or []) if f and f.strip()]
    key = (store.get_meta(con, "root"), _state(con), tuple(focus))
    hit = _CACHE.get(key)
    if hit is not None:
        return hit
    gkey = (key[0], key[1])
    g = _CACHE.get(gkey)
    if g is None:
        g = _CACHE[gkey] = build_graph(con)
    pers, missing = focus_nodes(con, g, focus) if focus else ({}, [])
    pr = pagerank(g, pers or None)
    order = np.argsort(-pr, kind="stable")
    out = ([(int(g.ids[i]), float(pr[i])) for i in order], missing)
    if len(_CACHE) > 64:
        _CACHE.clear()
    _CACHE[key] = out
    return out


# ---------------------------------------------------------------- rendering

@dataclass
class _Sym:
    id: int
    path: str
    kind: str
    name: str
    parent: int | None
    start: int
    end: int
    sig: str | None

    def label(self) -> str:
        head = self.sig or f"{self.kind} {self.name}"
        return f"{head} [{lines_label(self, short=True)}]"


def _load_syms(con) -> dict[int, _Sym]:
    return {r[0]: _Sym(*r) for r in store.run(
        con, "SELECT symbol_id, path, kind, name, parent_id, start_line, end_line, signature FROM symbols")}


def render_map(syms: dict[int, _Sym], chosen: list[int], header: str) -> str:
    """Chosen symbols grouped by file (files in order of their best-ranked symbol), each
    shown under its enclosing definitions (kept for context), in source order."""
    files: dict[str, set[int]] = {}
    for sid in chosen:
        s = syms[sid]
        group = files.setdefault(s.path, set())
        group.add(sid)
        p = s.parent
        while p is not None and p in syms and syms[p].kind != "module":
            group.add(p)
            p = syms[p].parent
    out = [header] if header else []
    for path, group in files.items():
        group = {i for i in group if syms[i].kind != "lambda"}
        out.append(f"{path}:")
        for sid in sorted(group, key=lambda i: (syms[i].start, -syms[i].end)):
            depth = 0
            p = syms[sid].parent
            while p is not None and p in syms and syms[p].kind != "module":
                depth += 1
                p = syms[p].parent
            out.append("  " * (depth + 1) + syms[sid].label())
    return "\n".join(out)


def build(con, budget: int, focus: list[str] | None, tokenizer) -> tuple[str, dict]:
    """The largest map within `budget` tokens (binary search over how many of the ranked
    symbols are shown; the result is checked, never over budget)."""
    tok = get_tokenizer(tokenizer)
    order, missing = ranked(con, focus)
    syms = _load_syms(con)
    cand = [sid for sid, _ in order if sid in syms and syms[sid].kind not in RENDER_EXCLUDE]
    total = len(cand)

    def header(n: int) -> str:
        h = f"repo map: {n} of {total} definitions, ranked by PageRank"
        if focus:
            h += f" towards {', '.join(focus)}"
        if missing:
            h += f" (not found: {', '.join(missing)})"
        return h + ":"

    def text_for(n: int) -> str:
        return render_map(syms, cand[:n], header(n)) if n else ""

    # upper bound from characters (a token is at least one character) keeps the search short
    hi, chars = 0, len(header(total))
    while hi < total and chars <= budget * 12:
        chars += len(syms[cand[hi]].label()) + 4
        hi += 1
    lo, best = 0, ""
    while lo < hi:
        mid = (lo + hi + 1) // 2
        t = text_for(mid)
        if tok.count(t) <= budget:
            lo, best = mid, t
        else:
            hi = mid - 1
    n = lo
    best = text_for(n)
    while n > 0 and tok.count(best) > budget:       # token counts are not strictly monotone
        n -= 1
        best = text_for(n)
    if n == 0:
        note = f"repo map: budget of {budget} tokens is too small for any entry"
        best = note if tok.count(note) <= budget else ""
    data = {"budget": budget, "tokens": tok.count(best), "shown": n, "candidates": total,
            "focus": focus or [], "not_found": missing,
            "symbols": [{"id": sid, "path": syms[sid].path, "name": syms[sid].name,
                         "lines": [syms[sid].start, syms[sid].end]} for sid in cand[:n]]}
    return best, data


@tool("A map of the repository's most important definitions (ranked by how much the rest "
      "of the code uses them), as large as fits budget_tokens. Give focus (files, directories "
      "or symbol names) to rank around what you are working on.",
      {"budget_tokens": {"type": "integer", "description": "token budget for the map",
                         "default": 1024},
       "focus": {"type": "array", "items": {"type": "string"},
                 "description": "files, directories or symbols to rank around"}},
      advice="ask for a smaller budget_tokens")
def repo_map(ctx: Context, budget_tokens: int | None = None, focus: list | None = None):
    budget = ctx.rules.repo_map_budget if budget_tokens is None else budget_tokens
    if budget < 0:
        raise ToolError("error: budget_tokens must be >= 0")
    if isinstance(focus, str):
        focus = [focus]
    # never above the answer cap (max_tokens): a larger map would be cut anyway
    text, data = build(ctx.con, min(budget, ctx.budget.tokens), list(focus or []), ctx.rules.tokenizer)
    return Answer(text, data, files=tuple(dict.fromkeys(s["path"] for s in data["symbols"])))
