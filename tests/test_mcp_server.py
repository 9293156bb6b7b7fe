"""`workbench serve` driven by the official MCP SDK's own client, over stdio and over
streamable HTTP on 127.0.0.1: the tools and their schemas, the bytes of every tool's answer
against `workbench tool ... --rules FILE`, paging, path escapes, separate sessions, stale
files (and `--refresh`), the call log."""
from __future__ import annotations

import json
import os
import re
import subprocess
import sys
import time
from contextlib import contextmanager

import anyio
import pytest

pytest.importorskip("mcp")
from mcp.client.client import Client  # noqa: E402
from mcp.client.stdio import StdioServerParameters  # noqa: E402

from conftest import write  # noqa: E402
from workbench.calllog import load  # noqa: E402
from workbench.cli import main  # noqa: E402
from workbench.indexer import index  # noqa: E402
from workbench.views import TOOLS, Rules  # noqa: E402
from workbench.views.profile import save  # noqa: E402

# one call of every tool on the pyshop sample (the test fails when a tool is missing here)
CALLS = [
    ("list_files", {}),
    ("list_files", {"path": "shop", "max_depth": 1}),
    ("file_index", {"path": "shop/orders.py"}),
    ("read_outline", {"path": "shop/orders.py"}),
    ("read_outline", {"path": "shop"}),
    ("read_region", {"path": "shop/orders.py", "start_line": 94, "end_line": 106}),
    ("resolve_symbol", {"name": "Order.add_item"}),
    ("search_symbols", {"query": "order"}),
    ("find_definition", {"symbol": "compute_total"}),
    ("find_callers", {"symbol": "shop.pricing.compute_total"}),
    ("find_callees", {"symbol": "place_order"}),
    ("trace_call_chain", {"symbol": "place_order", "depth": 2}),
    ("get_architecture_overview", {"directory": "shop"}),
    ("impact", {"paths": ["shop/pricing.py"]}),
    ("repo_overview", {}),
    ("repo_map", {"budget_tokens": 256}),
    ("context_pack", {"task": "fix-bug", "target": "shop.pricing.compute_total", "budget_tokens": 800}),
]
LEAN = Rules(docs=False, max_children=10, max_chars=3000)
NEXT = re.compile(r"next page: (\w+)\((.*)\)\]$")


def _cli_text(db: str, rules_file: str, name: str, args: dict, capsys) -> str:
    argv = ["tool", db, name] + [f"{k}={json.dumps(v) if isinstance(v, list) else v}"
                                 for k, v in args.items()] + ["--rules", rules_file]
    capsys.readouterr()
    main(argv)
    return capsys.readouterr().out


def _stdio(db: str, *extra: str) -> StdioServerParameters:
    return StdioServerParameters(command=sys.executable,
                                 args=["-m", "workbench.cli", "serve", db, *extra],
                                 env=dict(os.environ))


def _text(result) -> str:
    assert len(result.content) == 1 and result.content[0].type == "text"
    return result.content[0].text


@contextmanager
def http_server(db: str, *extra: str):
    """`workbench serve DB --transport http --port 0` in a subprocess; yields its URL."""
    proc = subprocess.Popen([sys.executable, "-m", "workbench.cli", "serve", db, "--transport", "http",
                             "--port", "0", *extra], stderr=subprocess.PIPE, text=True)
    try:
        url, seen, deadline = None, [], time.monotonic() + 120
        while url is None and time.monotonic() < deadline:
            line = proc.stderr.readline()
            if not line and proc.poll() is not None:
                break
            seen.append(line)
            m = re.search(r"listening on (http://127\.0\.0\.1:\d+/mcp)", line)
            url = m.group(1) if m else None
        assert url, "the server did not say where it listens:\n" + "".join(seen)
        yield url
    finally:
        proc.terminate()
        try:
            proc.wait(30)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait()


@pytest.fixture(scope="module")
def shop(tmp_path_factory):
    """The pyshop sample indexed (a copy, never edited), with a rule profile file."""
    import shutil
    from conftest import SAMPLES
    base = tmp_path_factory.mktemp("mcp_shop")
    repo = base / "pyshop"
    shutil.copytree(SAMPLES / "pyshop", repo)
    db = str(base / "shop.duckdb")
    index(repo, db, progress=False, jobs=1)
    rules = save(base / "lean.toml", LEAN)
    return db, rules, base


def test_stdio_serves_every_tool_with_the_cli_bytes_and_logs_each_call(shop, capsys, tmp_path):
    db, rules, _ = shop
    log = str(tmp_path / "calls.duckdb")
    assert {name for name, _ in CALLS} == set(TOOLS), "add a call of every tool to CALLS"

    async def session():
        async with Client(_stdio(db, "--rules", rules, "--log", log)) as c:
            listed = (await c.list_tools()).tools
            answers = [await c.call_tool(name, args) for name, args in CALLS]
            escape = await c.call_tool("read_region", {"path": "../../etc/passwd", "start_line": 1,
                                                       "end_line": 5})
            absolute = await c.call_tool("read_outline", {"path": "/etc/passwd"})
            return listed, answers, escape, absolute
    listed, answers, escape, absolute = anyio.run(session)

    assert {t.name: t.input_schema for t in listed} == {n: t.parameters for n, t in TOOLS.items()}
    assert {t.name: t.description for t in listed} == {n: t.description for n, t in TOOLS.items()}
    for (name, args), got in zip(CALLS, answers):
        assert not got.is_error, (name, _text(got))
        assert _text(got) + "\n" == _cli_text(db, rules, name, args, capsys), (name, args)
        assert len(_text(got)) <= LEAN.max_chars
    # path escapes: an error and no content
    for r in (escape, absolute):
        assert r.is_error and _text(r).startswith("error:") and "root:" not in _text(r)

    rows = load(log)
    assert list(rows["tool"]) == [n for n, _ in CALLS] + ["read_region", "read_outline"]
    assert rows["session"].nunique() == 1 and list(rows["turn"]) == list(range(1, len(CALLS) + 3))
    assert list(rows["answer"]) == [_text(a) for a in answers] + [_text(escape), _text(absolute)]
    assert (rows["chars"] == rows["answer"].str.len()).all()
    assert (rows["tokens"] > 0).all() and (rows["elapsed_ms"] > 0).all()
    assert list(rows["error"])[-2:] == [True, True] and not rows["error"][:-2].any()
    assert rows["transport"].unique().tolist() == ["stdio"] and rows["rules"].iloc[0] == rules
    callers = rows[rows["tool"] == "find_callers"].iloc[0]
    assert "shop/pricing.py" in list(callers["files"])
    assert json.loads(callers["source_versions"])["shop/pricing.py"]


def _crowd(root) -> None:
    """One function called from 30 files (twice each), plus 5 calls of a callable held in a
    local variable of the same name (unresolved: they may or may not call it)."""
    write(root, "pkg/__init__.py", "")
    write(root, "pkg/target.py", "def target(x):\n    return x\n")
    for i in range(30):
        write(root, f"pkg/m{i:02}.py", "from .target import target\n\n\n"
              f"def use_{i}(v):\n    a = target(v)\n    return target(a)\n")
    for i in range(5):
        write(root, f"other/o{i}.py", f"def far_{i}(handler):\n    target = handler.pick()\n"
              f"    return target({i})\n")


def _page_through(c, name: str, args: dict) -> list[str]:
    """Every answer of a paged list, following the notes."""
    async def run():
        texts, call = [], (name, args)
        while call is not None:
            r = await c.call_tool(*call)
            assert not r.is_error, _text(r)
            texts.append(_text(r))
            m = NEXT.search(texts[-1])
            if m:
                nxt = json.loads("{" + re.sub(r"(\w+)=", r'"\1":', m.group(2)) + "}")
                call = (m.group(1), nxt)
            else:
                call = None
        return texts
    return run


def test_paging_over_mcp_returns_every_row_exactly_once(tmp_path):
    root = tmp_path / "crowd"
    _crowd(root)
    db = str(tmp_path / "crowd.duckdb")
    index(root, db, progress=False, jobs=1)
    rules = save(tmp_path / "small.toml", Rules(max_rows=7, max_chars=700, list_max_entries=9))

    async def session():
        async with Client(_stdio(db, "--rules", rules)) as c:
            callers = await _page_through(c, "find_callers", {"symbol": "pkg.target.target"})()
            listing = await _page_through(c, "list_files", {"max_depth": 3})()
            outline = await _page_through(c, "read_outline", {"path": "pkg"})()
            defs = await _page_through(c, "find_definition", {"symbol": "target"})()
            return callers, listing, outline, defs
    callers, listing, outline, defs = anyio.run(session)

    sites = [ln.strip() for t in callers for ln in t.splitlines() if re.match(r"\s+pkg\.m\d\d\.use_", ln)]
    assert len(callers) > 3 and all(len(t) <= 700 for t in callers)
    assert len(sites) == 60 and len(set(sites)) == 60            # each call site once
    unresolved = [ln for t in callers for ln in t.splitlines() if re.search(r"o\d\.py:3 calls target$", ln)]
    assert len(unresolved) == 5 and len(set(unresolved)) == 5
    files = [ln for t in listing for ln in t.splitlines() if ln.endswith(".py")]
    assert sorted(files) == sorted(set(files)) and len(files) == 37
    heads = [ln for t in outline for ln in t.splitlines() if ln.startswith("## ")]
    assert len(heads) == 32 and len(set(heads)) == 32             # every file's outline once
    assert all(len(t) <= 700 for t in outline) and len(outline) > 1
    assert len(defs) == 1 and "pkg.target.target" in defs[0]


def test_two_http_clients_keep_separate_sessions_and_get_the_cli_bytes(shop, capsys):
    db, rules, _ = shop

    async def clients(url):
        async with Client(url, mode="legacy") as a, Client(url, mode="legacy") as b:
            a1 = _text(await a.call_tool("resolve_symbol", {"name": "place_order"}))
            a2 = _text(await a.call_tool("resolve_symbol", {"name": "place_order"}))
            b1 = _text(await b.call_tool("resolve_symbol", {"name": "place_order"}))
            many = [(n, args, _text(await b.call_tool(n, args))) for n, args in CALLS[:5]]
        async with Client(url) as m:                    # the SDK's default: the newest protocol
            modern = _text(await m.call_tool("find_callers", {"symbol": "shop.pricing.compute_total"}))
        return a1, a2, b1, many, modern
    with http_server(db, "--rules", rules) as url:
        a1, a2, b1, many, modern = anyio.run(clients, url)
    assert "def place_order(" in a1 and a1 == b1               # b's first call is sent in full
    assert "already provided above (turn 1)" in a2
    for name, args, text in many:
        assert text + "\n" == _cli_text(db, rules, name, args, capsys), (name, args)
    assert modern + "\n" == _cli_text(db, rules, "find_callers",
                                      {"symbol": "shop.pricing.compute_total"}, capsys)


def test_http_refuses_a_foreign_origin(shop):
    import httpx
    db, _, _ = shop
    with http_server(db) as url:
        r = httpx.post(url, json={"jsonrpc": "2.0", "id": 1, "method": "tools/list"},
                       headers={"Origin": "http://evil.example", "Accept": "application/json, text/event-stream",
                                "Content-Type": "application/json"})
    assert r.status_code in (400, 403, 421)


def test_a_file_edited_after_indexing_is_named_stale(sample_copy, tmp_path):
    repo = sample_copy("pyshop")
    db = str(tmp_path / "p.duckdb")
    index(repo, db, progress=False, jobs=1)
    target = repo / "shop" / "pricing.py"
    before = len(target.read_text().splitlines())
    with open(target, "a", encoding="utf-8") as fh:
        fh.write("\n\ndef added_later(x):\n    return x\n")

    async def session():
        async with Client(_stdio(db)) as c:
            card = _text(await c.call_tool("file_index", {"path": "shop/pricing.py"}))
            callers = _text(await c.call_tool("find_callers", {"symbol": "shop.pricing.compute_total"}))
            other = _text(await c.call_tool("file_index", {"path": "shop/models.py"}))
            return card, callers, other
    card, callers, other = anyio.run(session)
    warning = "warning: 1 file this answer uses changed on disk since it was indexed: shop/pricing.py (changed)"
    assert card.startswith(warning) and f"lines: {before} " in card
    assert callers.startswith(warning)
    assert not other.startswith("warning")
