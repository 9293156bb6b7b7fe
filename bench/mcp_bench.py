"""Benchmark: the agent tools over MCP on the Python standard library.

For every tool, calls with arguments drawn from the index (files, regions, symbols,
directories; fixed seed) plus the worst cases the index holds (the largest directory, the
most called function, the most common name, the file with the most definitions, ...) go
to `workbench serve DB` over stdio, made by the MCP SDK's own client. Printed per tool:
latency as the client sees it (p50, p95), the same calls answered in process without MCP
(the baseline, same run), and the largest answer (characters, tokens) under the default
rules. Three runs, each with a fresh server process. A server loads the index rows its
lookups keep in memory when it starts (workbench.rowcache); the first call (a warm-up, not
measured) waits for that, so the figures are those of a running server. The in-process
baseline queries the database (no row cache), as the CLI does.

    .venv/bin/python bench/mcp_bench.py [--db FILE] [--calls N] [--runs 3] [--out FILE]

Targets (default rules): p50 < 20 ms for read_outline, read_region and find_callers;
no answer above the caps (max_chars 6,000 characters, max_tokens 2,500 tokens).
"""
from __future__ import annotations

import argparse
import os
import random
import statistics
import sys
import sysconfig
import tempfile
import time
from pathlib import Path

import anyio

HERE = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(HERE))

import workbench  # noqa: E402
from workbench import store  # noqa: E402
from workbench.views import TOOLS, Rules, call  # noqa: E402
from workbench.views.profile import save  # noqa: E402

GOAL_TOOLS = ("read_outline", "read_region", "find_callers")


def _rows(con, sql, params=None):
    return store.run(con, sql, params)


def workload(wb, n: int, seed: int = 7) -> list[tuple[str, dict]]:
    """(tool, args) calls: `n` sampled per tool, then the worst cases."""
    con = wb.con
    rnd = random.Random(seed)
    files = [r[0] for r in _rows(con, "SELECT path FROM files WHERE status IN ('ok', 'partial') "
                                      "AND language = 'python' ORDER BY path")]
    dirs = sorted({p.rsplit("/", 1)[0] for p in files if "/" in p})
    funcs = _rows(con, "SELECT qualname, path, start_line, end_line FROM symbols WHERE kind IN "
                       "('function', 'method') ORDER BY symbol_id")
    called = [r[0] for r in _rows(con, """
        SELECT s.qualname FROM edges e JOIN symbols s ON s.symbol_id = e.dst_id
        WHERE e.kind = 'calls' GROUP BY s.qualname HAVING count(DISTINCT s.symbol_id) = 1
        ORDER BY count(*) DESC, s.qualname LIMIT 2000""")]
    pick = lambda xs, k: rnd.sample(xs, min(k, len(xs)))  # noqa: E731
    out: list[tuple[str, dict]] = []
    for p in pick(files, n):
        out.append(("read_outline", {"path": p}))
        out.append(("file_index", {"path": p}))
    for q, p, a, b in pick(funcs, n):
        out.append(("read_region", {"path": p, "start_line": a, "end_line": b}))
        out.append(("resolve_symbol", {"name": q}))
    for q in pick(called, n):
        out.append(("find_callers", {"symbol": q}))
        out.append(("find_callees", {"symbol": q}))
        out.append(("find_definition", {"symbol": q.rsplit(".", 1)[-1]}))
        out.append(("trace_call_chain", {"symbol": q, "depth": 2}))
        out.append(("search_symbols", {"query": q.rsplit(".", 1)[-1][:5]}))
    for d in pick(dirs, n):
        out.append(("list_files", {"path": d}))
        out.append(("get_architecture_overview", {"directory": d}))
        out.append(("read_outline", {"path": d}))
    for p in pick(files, n):
        out.append(("impact", {"paths": [p]}))
    for b in (256, 1024, 4096):
        out.append(("repo_map", {"budget_tokens": b}))
    out.append(("repo_overview", {}))
    # worst cases
    big_dir = _rows(con, "SELECT split_part(path, '/', 1) AS d, count(*) FROM files WHERE path LIKE '%/%' "
                         "GROUP BY 1 ORDER BY 2 DESC LIMIT 1")[0][0]
    most_defs = _rows(con, "SELECT path FROM symbols GROUP BY 1 ORDER BY count(*) DESC LIMIT 1")[0][0]
    longest = _rows(con, "SELECT path, line_count FROM files WHERE status = 'ok' ORDER BY line_count DESC LIMIT 1")[0]
    imported = _rows(con, "SELECT resolved_path FROM imports WHERE resolved_path IS NOT NULL "
                          "GROUP BY 1 ORDER BY count(*) DESC LIMIT 1")[0][0]
    out += [("read_outline", {"path": big_dir}), ("read_outline", {"path": "."}),
            ("read_outline", {"path": most_defs}), ("file_index", {"path": most_defs}),
            ("read_region", {"path": longest[0], "start_line": 1, "end_line": longest[1]}),
            ("find_callers", {"symbol": called[0]}), ("find_definition", {"symbol": "__init__"}),
            ("find_callees", {"symbol": called[0]}), ("search_symbols", {"query": "e"}),
            ("trace_call_chain", {"symbol": called[0], "depth": 8, "direction": "both"}),
            ("list_files", {"path": ".", "max_depth": 8}), ("get_architecture_overview", {"directory": "."}),
            ("impact", {"paths": [imported], "depth": 5}), ("repo_map", {"budget_tokens": 100_000})]
    return out


async def over_mcp(db: str, rules_file: str, calls) -> list[tuple[float, str]]:
    from mcp.client.client import Client
    from mcp.client.stdio import StdioServerParameters
    server = StdioServerParameters(command=sys.executable, env=dict(os.environ),
                                   args=["-m", "workbench.cli", "serve", db, "--rules", rules_file])
    out = []
    async with Client(server) as c:
        await c.call_tool("list_files", {"max_depth": 1})          # warm up (not measured)
        for name, args in calls:
            t = time.perf_counter()
            r = await c.call_tool(name, args)
            out.append((time.perf_counter() - t, r.content[0].text))
    return out


def in_process(wb, calls, rules) -> list[float]:
    from workbench.views.session import Session
    s = Session(wb, rules, compact=False)
    s.call("list_files", max_depth=1)
    out = []
    for name, args in calls:
        t = time.perf_counter()
        call(wb, name, args, session=s)
        out.append(time.perf_counter() - t)
    return out


def pct(xs, q):
    xs = sorted(xs)
    return xs[min(len(xs) - 1, int(round(q * (len(xs) - 1))))]


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--root", default=sysconfig.get_paths()["stdlib"])
    ap.add_argument("--db", default=os.path.join(tempfile.gettempdir(), "workbench_bench_mcp.duckdb"))
    ap.add_argument("--calls", type=int, default=40, help="sampled calls per tool and kind of argument")
    ap.add_argument("--runs", type=int, default=3)
    ap.add_argument("--out", help="also write the report to this file")
    a = ap.parse_args(argv)
    lines: list[str] = []

    def say(s=""):
        print(s, flush=True)
        lines.append(s)
    load = lambda: open("/proc/loadavg").read().split()[:3] if os.path.exists("/proc/loadavg") else "?"  # noqa: E731
    t0 = time.perf_counter()
    workbench.index(a.root, db=a.db, progress=False).close()
    rules = Rules()
    tmp = tempfile.mkdtemp()
    rules_file = os.path.join(tmp, "defaults.toml")
    save(rules_file, rules, compact=False)         # default rules all along (no compact switch)
    wb = workbench.open(a.db, read_only=True)
    calls = workload(wb, a.calls)
    tok = __import__("workbench.views.tokens", fromlist=["get_tokenizer"]).get_tokenizer()
    say(f"mcp_bench: {a.root} ({store.one(wb.con, 'SELECT count(*) FROM files')[0]:,} files), "
        f"{len(calls)} calls per run, {a.runs} runs; index ready in {time.perf_counter() - t0:.1f}s")
    say(f"default rules: max_chars {rules.max_chars:,}, max_tokens {rules.max_tokens:,}, "
        f"max_rows {rules.max_rows}; load average before: {' '.join(load())}")
    by_tool: dict[str, list] = {}
    largest: dict[str, tuple] = {}
    for run in range(1, a.runs + 1):
        base = in_process(wb, calls, rules)
        t = time.perf_counter()
        got = anyio.run(over_mcp, a.db, rules_file, calls)
        wall = time.perf_counter() - t
        say(f"\nrun {run}: {len(got)} calls over MCP (stdio) in {wall:.1f}s including server start; "
            f"load average {' '.join(load())}")
        say(f"{'tool':<26}{'n':>4}{'p50 ms':>9}{'p95 ms':>9}{'direct p50':>12}{'direct p95':>12}")
        per: dict[str, list] = {}
        for (name, args), (secs, text), b in zip(calls, got, base):
            per.setdefault(name, []).append((secs, b))
            if run == 1:                   # the largest characters and the largest tokens
                c0, a0, t0_ = largest.get(name, (-1, None, -1))
                n_tok = tok.count(text)
                largest[name] = (len(text), args, max(t0_, n_tok)) if len(text) > c0 else (c0, a0, max(t0_, n_tok))
        for name in TOOLS:
            xs = per.get(name, [])
            if not xs:
                continue
            mcp_ms = [x * 1000 for x, _ in xs]
            dir_ms = [y * 1000 for _, y in xs]
            by_tool.setdefault(name, []).append(statistics.median(mcp_ms))
            goal = "  (goal p50 < 20)" if name in GOAL_TOOLS else ""
            say(f"{name:<26}{len(xs):>4}{pct(mcp_ms, .5):>9.1f}{pct(mcp_ms, .95):>9.1f}"
                f"{pct(dir_ms, .5):>12.1f}{pct(dir_ms, .95):>12.1f}{goal}")
    say("\np50 over MCP per run (ms): " + "; ".join(
        f"{n} {'/'.join(f'{v:.1f}' for v in vs)}" for n, vs in by_tool.items() if n in GOAL_TOOLS))
    say(f"\nlargest answer of each tool (default rules; caps {rules.max_chars:,} chars, "
        f"{rules.max_tokens:,} tokens):")
    over = 0
    for name in TOOLS:
        if name in largest:
            c, args, n_tok = largest[name]
            bad = c > rules.max_chars or n_tok > rules.max_tokens
            over += bad
            say(f"  {name:<26}{c:>7,} chars {n_tok:>6,} tokens{'  OVER THE CAP' if bad else ''}   {args}")
    say(f"\n{'no answer above the caps' if not over else f'{over} tools above the caps'}; "
        f"load average after: {' '.join(load())}")
    wb.close()
    if a.out:
        Path(a.out).write_text("\n".join(lines) + "\n", encoding="utf-8")
    return 0 if not over else 1


if __name__ == "__main__":
    raise SystemExit(main())
