"""The notebook widgets, driven from code: set values, fire events, check what they render.

No browser: ipywidgets run fine without a front end, and each widget keeps the view results
it shows as attributes (`.response`, `.comparison`, `.edges`, `.session`, `.figure`).
"""
from __future__ import annotations

import pytest

import workbench
from workbench import plots
from workbench.notebooks import sample_repo
from workbench.views import Rules, outline
from workbench.views.session import Session
from workbench.widgets import CallChainExplorer, OutlineBrowser, RuleComparison, SessionPreview
from workbench.widgets.session import parse_call


@pytest.fixture(scope="module")
def wb(tmp_path_factory):
    db = tmp_path_factory.mktemp("widgets") / "pyshop.duckdb"
    w = workbench.index(sample_repo("pyshop"), db=str(db), progress=False)
    yield w
    w.close()


# ---------------------------------------------------------------- outline browser

def test_outline_browser_shows_the_view_text_and_both_token_counts(wb):
    ob = OutlineBrowser(wb, "shop/orders.py")
    expected = outline(wb, "shop/orders.py", Rules())
    assert ob.text == expected.text                     # the view's text, not a re-rendering
    assert "class Order(Entity)" in ob.outline_view.value
    assert f"<b>{expected.tokens:,}</b> tokens" in ob.badge.value
    assert "whole file" in ob.badge.value and "shop/orders.py" in ob.badge.value


def test_outline_browser_format_and_rule_controls_change_the_outline(wb):
    ob = OutlineBrowser(wb, "shop/orders.py")
    before_html, before_tokens = ob.outline_view.value, ob.response.tokens
    ob.format.value = "tags"
    assert ob.outline_view.value != before_html
    assert "[CLS:Order" in ob.text and ob.text == outline(wb, "shop/orders.py", format="tags").text
    ob.format.value = "markdown"
    assert ob.outline_view.value == before_html
    ob.flags["docs"].value = False
    assert ob.response.tokens < before_tokens
    assert "Order lifecycle" not in ob.text
    ob.max_children.value = 2
    assert ob.rules.max_children == 2 and "more" in ob.text


def test_outline_browser_file_choice_search_and_symbol_region(wb):
    ob = OutlineBrowser(wb, "shop/orders.py")
    ob.file.value = "shop/pricing.py"
    assert "compute_total" in ob.text and "shop/pricing.py" in ob.badge.value
    ob.search.value = "flatten_categories"            # a symbol name, not a path
    assert ob.file.value == "shop/inventory.py" and "shop/orders.py" not in ob.file.options
    assert ob.region is not None and "def flatten_categories" in ob.region.text
    assert "wb-region" in ob.region_view.value
    ob.search.value = ""
    assert len(ob.file.options) > 5
    ob.symbol.value = 0
    assert ob.region is None and ob.region_view.value == ""


# ---------------------------------------------------------------- rule comparison

def test_rule_comparison_renders_both_texts_a_diff_and_the_delta(wb):
    rc = RuleComparison(wb, "read_outline", {"path": "shop/orders.py"},
                        left=Rules(), right=Rules(docs=False))
    cmp = rc.comparison
    assert cmp.a.tokens > cmp.b.tokens and cmp.delta < 0
    assert "Order lifecycle" in rc.left_view.value and "Order lifecycle" not in rc.right_view.value
    assert f"<b>{cmp.delta:+,}</b> tokens" in rc.summary.value and "$" in rc.summary.value
    assert "class='del'" in rc.diff_view.value


def test_rule_comparison_reacts_to_rules_tool_and_args(wb):
    rc = RuleComparison(wb, "read_outline", {"path": "shop/orders.py"})
    summary = rc.summary.value
    rc.right_rules.value = "format=tags"
    assert rc.comparison.rules_b.format == "tags" and rc.summary.value != summary
    assert "[CLS:" in rc.right_view.value
    rc.right_rules.value = ""                            # identical rules -> no diff, zero delta
    assert rc.comparison.delta == 0 and "identical" in rc.diff_view.value
    rc.left_rules.value = "max_chars=400"
    rc.tool.value = "read_region"
    rc.args.value = "path=shop/orders.py start_line=1 end_line=129"
    assert rc.comparison.a.tokens < rc.comparison.b.tokens      # A is cut at 400 chars
    rc.left_rules.value = "no_such_rule=1"
    assert "unknown rule" in rc.error.value


# ---------------------------------------------------------------- call chain explorer

def test_call_chain_explorer_draws_the_chain_and_lists_call_sites(wb):
    cc = CallChainExplorer(wb, "shop.orders.place_order", direction="down", depth=1)
    callees = {e.dst for e in cc.edges}
    assert "shop.inventory.reserve" in callees
    assert all(e.direction == "down" and e.depth == 1 for e in cc.edges)
    assert "shop/orders.py:" in cc.table.value
    names = [t.name for t in cc.figure.data]
    assert "resolved call" in names
    assert cc.graph.has_edge(cc.root_id, next(e.dst_id for e in cc.edges if e.dst == "shop.inventory.reserve"))
    assert "trace_call_chain" in cc.agent_text.value and "shop.inventory.reserve" in cc.agent_text.value


def test_call_chain_explorer_depth_direction_and_unresolved(wb):
    cc = CallChainExplorer(wb, "shop.orders.place_order", direction="down", depth=1)
    n1 = cc.graph.number_of_nodes()
    cc.depth.value = 4       # place_order -> reserve -> compute_total -> apply_discount -> clamp_rate
    assert cc.graph.number_of_nodes() > n1 and "shop.pricing.clamp_rate" in {e.dst for e in cc.edges}
    cc.direction.value = "up"
    assert {e.src for e in cc.edges} >= {"shop.cli.main"}
    assert all(e.direction == "up" for e in cc.edges)
    # dynamic calls (getattr) stay unresolved and are drawn as such
    cc.symbol.value = "shop.cli.run_plugin"
    cc.direction.value = "down"
    assert cc.unresolved and all(c.callee_id is None for c in cc.unresolved)
    assert any(t.name.startswith("unresolved") for t in cc.figure.data)
    assert "unresolved" in cc.table.value


def test_call_chain_explorer_colours_node_choice_and_errors(wb):
    cc = CallChainExplorer(wb, "shop.pricing.compute_total", direction="up", depth=2)
    by_file = {t.name for t in cc.figure.data if t.mode == "markers+text"}
    cc.colour_by.value = "module"
    by_module = {t.name for t in cc.figure.data if t.mode == "markers+text"}
    assert "shop/pricing.py" in by_file and "shop" in by_module and by_file != by_module
    node = next(v for label, v in cc.node.options if v and "shop.inventory.reserve" in label)
    cc.node.value = node
    assert "def reserve" in cc.region.text and "wb-region" in cc.region_view.value
    cc.symbol.value = "compute_total"                    # two definitions share the name
    assert "ambiguous" in cc.message.value and "shop.util.legacy.compute_total" in cc.message.value
    cc.symbol.value = "no_such_function_xyz"
    assert "no definition" in cc.message.value


# ---------------------------------------------------------------- session preview

CALLS = ["read_outline path=shop/orders.py",
         "resolve_symbol name=shop.orders.place_order",
         "resolve_symbol name=shop.orders.place_order",
         "read_region path=shop/orders.py start_line=1 end_line=129",
         "read_region path=shop/orders.py start_line=1 end_line=129"]


def test_session_preview_matches_the_session_view_and_shows_the_cache_saving(wb):
    sp = SessionPreview(wb, CALLS, context_window=8_000)
    direct = Session(wb, Rules(context_window=8_000))
    for line in CALLS:
        tool, args = parse_call(line)
        direct.call(tool, **args)
    assert [r.cumulative for r in sp.session.records] == [r.cumulative for r in direct.records]
    assert sp.session.records[2].repeat_of == 2 and sp.session.records[4].repeat_of == 4
    assert sp.uncached.total_tokens > sp.session.total_tokens       # repeats re-sent in full
    saved = sp.uncached.total_tokens - sp.session.total_tokens
    assert f"<b>{saved:,}</b> tokens" in sp.summary.value
    assert "already provided" in sp.responses[2].text
    ys = [list(t.y) for t in sp.figure.data]
    assert ys[0][-1] == sp.uncached.total_tokens and ys[1][-1] == sp.session.total_tokens
    top = sp.figure.layout.yaxis.range[1]                # scaled to the data, not to the window
    assert top == pytest.approx(max(ys[0]) * 1.15)
    shapes = [s.y0 for s in sp.figure.layout.shapes]
    notes = " ".join(a.text or "" for a in sp.figure.layout.annotations)
    for y, name in ((8_000, "context window 8,000"), (4_800, "compress at 60%")):
        assert (y in shapes) if y <= top else (f"{name}" in notes and "above this chart" in notes)


def test_session_preview_editing_window_threshold_and_response_view(wb):
    sp = SessionPreview(wb, CALLS[:1], context_window=8_000)
    table = sp.table.value
    sp.add_call("find_callers", "symbol=shop.pricing.compute_total")
    assert len(sp.session.records) == 2 and sp.table.value != table
    assert "callers of shop.pricing.compute_total" in sp.response_view.value
    sp.turn.value = 1
    assert "wb-response" in sp.response_view.value and "class Order" in sp.response_view.value
    sp.add_call("read_region", {"path": "shop/orders.py", "start_line": 1, "end_line": 129})
    assert "below the 60% compression point" in sp.summary.value
    sp.compress_at.value = 0.1                            # 10% of 8k = 800 tokens: crossed at call 3
    assert sp.session.records[1].cumulative < 800 <= sp.session.records[2].cumulative
    assert "compression starts at call 3" in sp.summary.value
    sp.window.value = "1M"
    assert "below the" in sp.summary.value and sp.session.context_window == 1_000_000
    sp.calls.value = "read_outline path=shop/orders.py\nno_such_tool"
    assert "no tool &#x27;no_such_tool&#x27;" in sp.error.value
    sp.calls.value = "read_outline path=shop/no_such_file.py"
    assert sp.error.value == "" and sp.session.records[-1].error     # the tool's own error text
    sp.calls.value = "read_outline path"
    assert "expected name=value" in sp.error.value


# ---------------------------------------------------------------- plots

def test_plots_token_treemap_and_outline_ratio(wb):
    df = plots.file_tokens(wb)
    fig = plots.token_treemap(df)
    tm = fig.data[0]
    values = dict(zip(tm.ids, tm.values))
    assert values["repository"] == df["tokens"].sum()
    assert values["repository/shop"] == df[df["path"].str.startswith("shop/")]["tokens"].sum()
    ratios = plots.outline_vs_file(wb, paths=["shop/orders.py", "shop/pricing.py"])
    assert list(ratios["outline_tokens"]) == [outline(wb, p).tokens for p in ratios["path"]]
    assert plots.outline_ratio(ratios).data[0].y.tolist() == ratios["ratio"].tolist()


def test_plots_over_eval_results(wb):
    from workbench import eval as ev
    from workbench import tasks
    from workbench.views import Rules
    rows, _ = tasks.from_symbols(wb.con, ["shop.orders.place_order", "shop.pricing.compute_total",
                                          "shop.orders.Order.add_item"])
    res = ev.evaluate(wb, rows, ["whole_file", "outline_region", "first_n:5"],
                      {"default": Rules(), "full": Rules(outline_budget=None)})
    fig = plots.strategy_distributions(res)
    assert {t.name for t in fig.data} == {"default", "full"}
    shares = plots.outcome_shares(res).set_index(["strategy", "rules"])
    assert shares.loc[("whole_file", "default"), "hit"] == 1.0
    assert shares.loc[("first_n:5", "default"), "miss"] == 1.0
    pts = plots.pareto_points(res).set_index(["strategy", "rules"])
    assert pts.loc[("outline_region", "default"), "pareto"]          # cheaper than the file, always hits
    assert len(plots.hit_rates(res).data) == 3 and plots.pareto(res).data[-1].name == "Pareto front"
    from workbench.widgets import EvalExplorer
    ex = EvalExplorer(res)
    assert {r["strategy"] for r in ex.summary} == {"whole_file", "outline_region", "first_n:5"}
    ex.strategies.value = ("outline_region",)
    ex.rules.value = ("full",)
    assert [(r["strategy"], r["rules"], r["tasks"], r["hit"]) for r in ex.summary] == [("outline_region", "full", 3, 3)]
    ex.view.value = "tokens vs hits"
    assert ex.figure.data[-1].name == "Pareto front"
    ex.rules.value = ()
    assert ex.figure is None and "pick at least one" in ex.table.value


def test_cumulative_chart_is_scaled_to_the_data_with_the_window_marked(wb):
    s = Session(wb, Rules(context_window=8_000))
    for _ in range(3):
        s.call("read_region", path="shop/orders.py", start_line=1, end_line=129)
    small = plots.cumulative_tokens({"s": s}, 1_000_000, 0.6)
    assert small.layout.yaxis.range[1] == pytest.approx(s.total_tokens * 1.15)
    assert not small.layout.shapes and "above this chart" in small.layout.annotations[0].text
    window = s.total_tokens - 10                                 # the data passes the window
    crossing = plots.cumulative_tokens({"s": s}, window, 0.6)
    assert sorted(sh.y0 for sh in crossing.layout.shapes) == [pytest.approx(window * 0.6), window]


# ---------------------------------------------------------------- call chains at scale

@pytest.fixture(scope="module")
def wide(tmp_path_factory):
    """A function calling the 50 methods of one class, each calling a helper of its own."""
    root = tmp_path_factory.mktemp("wide")
    (root / "pkg").mkdir()
    (root / "pkg" / "__init__.py").write_text("", encoding="utf-8")
    (root / "pkg" / "helpers.py").write_text(
        "".join(f"def helper{i}():\n    return {i}\n\n\n" for i in range(50)), encoding="utf-8")
    methods = "".join(f"    def m{i}(self):\n        return helpers.helper{i}()\n\n" for i in range(50))
    calls = "".join(f"    b.m{i}()\n" for i in range(50))
    (root / "pkg" / "big.py").write_text(
        "from pkg import helpers\n\n\nclass Big:\n" + methods + "\n\ndef main():\n    b = Big()\n" + calls,
        encoding="utf-8")
    w = workbench.index(root, db=str(root / "wide.duckdb"), progress=False, jobs=1)
    yield w
    w.close()


def test_call_chain_explorer_collapses_caps_and_expands_on_click(wide):
    cc = CallChainExplorer(wide, "pkg.big.main", direction="down", depth=2)
    assert len(cc.edges) >= 100                                # 50 methods, 50 helpers
    # by class, the 50 helpers alone pass the cap of 40: auto collapses by file
    assert cc.view.collapse == "file" and set(cc.view.groups) == {"file:pkg/big.py", "file:pkg/helpers.py"}
    cc.collapse.value = "class"
    assert cc.view.collapse == "class" and "class:pkg.big.Big" in cc.view.groups
    drawn = {t.name: list(t.text) for t in cc.figure.data if t.mode == "markers+text"}
    labels = [x for texts in drawn.values() for x in texts]
    assert "Big [50]" in labels and len(labels) <= cc.max_nodes.value
    assert "collapsed by class" in cc.message.value
    button = next(b for b in cc.groups_box.children if "expand Big (50)" in b.description)
    button.click()                                             # expand on click
    assert "class:pkg.big.Big" in cc.expanded and "class:pkg.big.Big" not in cc.view.groups
    labels = [x for t in cc.figure.data if t.mode == "markers+text" for x in t.text]
    assert "Big.m0" in labels                                  # qualified labels, not bare names
    assert any(lab.endswith(" more") for lab in labels)        # the cap: "+N more"
    assert "more not drawn" in cc.message.value
    more = next(b for b in cc.groups_box.children if b.description.startswith("draw more"))
    before = cc.view.hidden_nodes
    more.click()
    assert cc.max_nodes.value == 60 and cc.view.hidden_nodes < before
    assert "wb-fit" in cc.table.value                          # the table wraps to the widget
