"""Strategy comparison: what an agent spends, in tokens, to get one function's body.

For every function and method of the repository:

* (a) ``whole_file``: read the whole file (its full text, one uncapped read);
* (b) ``outline_region``: `read_outline(file)` then `read_region(path, start, end)`;
  regions longer than the character cap take several calls (each following the
  continuation note) and all of them are counted;
* (c) ``map_region``: `repo_map(budget)` once, then the region. When the symbol is not on
  the map the agent still has to find its lines, so the outline is added
  (``in_map`` says which case applied; ``map_only_region`` is the bare map + region).

Texts are produced by the same functions the tools use (`outline.render`,
`tools.render_region`, `repo_map.build`), so the counts are of what would be sent.
Returned as a DuckDB relation registered on the workbench connection.
"""
from __future__ import annotations

import time

import pyarrow as pa

from .. import store
from .outline import render as render_outline
from .repo_map import build as build_map
from .rules import Rules
from .source import all_files, read_text
from .tokens import get_tokenizer
from .tools import render_region

KINDS = ("function", "method")


def _outline_positions(data) -> set[tuple[str, int]]:
    out = set()

    def walk(items):
        for d in items or ():
            if "lines" in d:
                out.add((d["name"], d["lines"][0]))
            walk(d.get("children"))
    if isinstance(data, dict):
        walk(data.get("symbols"))
        walk(data.get("module_vars"))
    return out


def strategy_rows(wb, rules: Rules | None = None, *, map_budget: int | None = None,
                  kinds: tuple[str, ...] = KINDS, progress: bool = False) -> tuple[pa.Table, dict]:
    """The comparison as an Arrow table plus run facts (map tokens, seconds)."""
    rules = rules or Rules()
    con = getattr(wb, "con", wb)
    tok = get_tokenizer(rules.tokenizer)
    root = store.get_meta(con, "root")
    t0 = time.perf_counter()
    budget = rules.repo_map_budget if map_budget is None else map_budget
    map_text, map_data = build_map(con, budget, [], rules.tokenizer)
    map_tokens = tok.count(map_text)
    on_map = {s["id"] for s in map_data["symbols"]}
    t_map = time.perf_counter() - t0
    syms: dict[str, list] = {}
    for r in store.run(con, """
            SELECT s.symbol_id, s.path, s.kind, s.qualname, s.start_line, s.end_line, s.name, s.parent_id
            FROM symbols s WHERE list_contains(?, s.kind)
              AND NOT coalesce(s.is_declaration, false) ORDER BY s.path, s.start_line""", [list(kinds)]):
        syms.setdefault(r[1], []).append(r)
    parents: dict[int, int | None] = dict(store.run(con, "SELECT symbol_id, parent_id FROM symbols"))
    cols = {k: [] for k in ("symbol_id", "path", "kind", "qualname", "start_line", "end_line",
                            "body_lines", "file_lines", "whole_file", "outline_tokens",
                            "region_tokens", "region_calls", "map_tokens", "outline_region",
                            "map_region", "map_only_region", "in_outline", "in_map", "stale")}
    files = [f for f in all_files(con) if f.path in syms]
    it = files
    if progress:
        from tqdm.auto import tqdm
        it = tqdm(files, desc="strategies", unit="file", leave=False)
    for info in it:
        try:
            text = read_text(root, info)
        except OSError:
            continue
        whole = "\n".join(text.lines) + ("\n" if text.lines else "")
        outline_text, outline_data, _ = render_outline(con, info.path, rules)
        positions = _outline_positions(outline_data)
        region_texts: list[str] = []
        spans: list[tuple[int, int]] = []
        rows = syms[info.path]
        total = len(text.lines)
        for sid, path, kind, qual, a, b, name, parent in rows:
            first = len(region_texts)
            start, end = a, min(b, total)
            while start <= end:
                t, last = render_region(path, text.lines, start, end, rules)
                region_texts.append(t)
                start = last + 1
            spans.append((first, len(region_texts)))
        counts = tok.count_many([whole, outline_text] + region_texts)
        whole_tokens, outline_tokens, region_counts = counts[0], counts[1], counts[2:]
        for (sid, path, kind, qual, a, b, name, parent), (i, j) in zip(rows, spans):
            reg = sum(region_counts[i:j])
            in_map = sid in on_map
            if not in_map:                      # a method on the map through its class counts
                p = parents.get(sid)
                in_map = p in on_map if p is not None else False
            for k, v in (("symbol_id", sid), ("path", path), ("kind", kind), ("qualname", qual),
                         ("start_line", a), ("end_line", b), ("body_lines", b - a + 1),
                         ("file_lines", info.line_count), ("whole_file", whole_tokens),
                         ("outline_tokens", outline_tokens), ("region_tokens", reg),
                         ("region_calls", j - i), ("map_tokens", map_tokens),
                         ("outline_region", outline_tokens + reg),
                         ("map_region", map_tokens + reg + (0 if in_map else outline_tokens)),
                         ("map_only_region", map_tokens + reg),
                         ("in_outline", (name, a) in positions), ("in_map", in_map),
                         ("stale", text.sha256 != info.sha256)):
                cols[k].append(v)
    facts = {"map_tokens": map_tokens, "map_shown": map_data["shown"], "map_budget": budget,
             "map_seconds": t_map, "seconds": time.perf_counter() - t0, "files": len(files)}
    return pa.table(cols), facts


def strategy_table(wb, rules: Rules | None = None, *, map_budget: int | None = None,
                   kinds: tuple[str, ...] = KINDS, name: str = "strategies", progress: bool = False):
    """The comparison as a DuckDB relation (also registered as view `name` on the
    workbench connection, so SQL can query it)."""
    con = getattr(wb, "con", wb)
    tbl, _facts = strategy_rows(wb, rules, map_budget=map_budget, kinds=kinds, progress=progress)
    con.register(name, tbl)
    return con.table(name)


SUMMARY_SQL = """
SELECT strategy,
       count(*) AS symbols,
       quantile_cont(tokens, 0.25) AS p25,
       median(tokens) AS median,
       quantile_cont(tokens, 0.75) AS p75,
       round(avg(tokens), 1) AS mean
FROM (SELECT 'a whole file' AS strategy, whole_file AS tokens FROM {t}
      UNION ALL SELECT 'b outline + region', outline_region FROM {t}
      UNION ALL SELECT 'c repo map + region', map_region FROM {t})
GROUP BY strategy ORDER BY strategy
"""


def summary(con, name: str = "strategies"):
    """Quartiles per strategy of a registered strategy table."""
    return con.sql(SUMMARY_SQL.format(t=name))
