"""Rule profiles as files: TOML round trip, clear errors, the widgets' "export rules"
buttons read back by the CLI with the same text, and the compact rules a session switches
to past `compress_at` (saying so in the answer)."""
from __future__ import annotations

import pytest

import workbench
from workbench.cli import main
from workbench.notebooks import sample_repo
from workbench.views import Rules, call
from workbench.views.profile import COMPACT, default_compact, dumps, load, loads, save
from workbench.views.session import Session
from workbench.widgets import OutlineBrowser, RuleComparison


@pytest.fixture(scope="module")
def wb(tmp_path_factory):
    db = tmp_path_factory.mktemp("profiles") / "pyshop.duckdb"
    workbench.index(sample_repo("pyshop"), db=str(db), progress=False).close()
    w = workbench.open(str(db), read_only=True)        # as the CLI opens it, in this process too
    yield w
    w.close()


@pytest.mark.parametrize("rules", [
    Rules(),
    Rules(docs=False, private=False, max_children=15, format="tags"),
    Rules(max_children=None, max_depth=None, json_indent=2, format="json", model="gpt-4o"),
    Rules(max_chars=900, max_tokens=300, max_rows=5, compress_at=0.5, context_window=32_000),
])
def test_a_profile_file_reads_back_the_same_rules(rules, tmp_path):
    p = load(save(tmp_path / "r.toml", rules))
    assert p.rules == rules and p.compact == default_compact(rules)
    assert loads(dumps(rules, False)).compact is None
    tight = rules.replace(max_chars=1000, docs=False)
    assert loads(dumps(rules, tight)).compact == tight


def test_a_partial_profile_keeps_the_defaults_and_compact_only_lowers_caps():
    p = loads('docs = false\n[compact]\nmax_children = 5\n')
    assert p.rules == Rules(docs=False) and p.compact == Rules(docs=False, max_children=5)
    c = default_compact(Rules(max_children=None, max_chars=1000))
    assert c.max_children == COMPACT["max_children"] and c.max_chars == 1000   # never raised
    assert default_compact(Rules(docs=False)).docs is False


@pytest.mark.parametrize("text,message", [
    ("colour = 'red'", "unknown rule colour"),
    ("docs = 'maybe'", "rule docs: expected true/false"),
    ("max_children = 1.5", "max_children must be an integer or \"none\""),
    ("max_chars = 10", "max_chars must be an integer >= 200"),
    ("format = 'yaml'", "unknown outline format"),
    ("[colours]\nred = 1", "unknown table [colours]"),
    ("[compact]\ncontext_window = 10", "belong to the session"),
    ("docs = ", "not valid TOML"),
])
def test_a_bad_profile_is_a_clear_error_naming_the_file(text, message):
    with pytest.raises(ValueError, match=r"^team\.toml") as err:
        loads(text, "team.toml")
    assert message in str(err.value)


def test_outline_lab_export_gives_the_cli_the_same_outline(wb, tmp_path, capsys):
    ob = OutlineBrowser(wb, "shop/orders.py")
    ob.format.value = "tags"
    ob.flags["docs"].value = False
    ob.max_children.value = 3
    path = ob.export_rules(str(tmp_path / "lab.toml"))
    assert "wrote" in ob.exporter.status.value
    capsys.readouterr()
    assert main(["outline", wb.db, "shop/orders.py", "--rules", path]) == 0
    assert capsys.readouterr().out == ob.text + "\n"
    assert main(["tool", wb.db, "read_outline", "path=shop/orders.py", "--rules", path]) == 0
    assert capsys.readouterr().out == ob.text + "\n"


def test_rule_comparison_export_gives_the_cli_each_side(wb, tmp_path, capsys):
    rc = RuleComparison(wb, "find_callers", {"symbol": "shop.pricing.compute_total"})
    rc.right_rules.value = "max_rows=2\nmax_chars=400"
    for side, resp in (("A", rc.comparison.a), ("B", rc.comparison.b)):
        path = rc.export_rules(side, str(tmp_path / f"{side}.toml"))
        capsys.readouterr()
        main(["find_callers", wb.db, "shop.pricing.compute_total", "--rules", path])
        assert capsys.readouterr().out == resp.text + "\n"
    assert "next page" in rc.comparison.b.text and "next page" not in rc.comparison.a.text


def test_a_session_past_compress_at_switches_to_its_compact_rules_and_says_so(wb):
    s = Session(wb, Rules(context_window=800), compact=Rules(context_window=800, docs=False,
                                                              format="tags"))
    first = s.call("read_outline", path="shop/orders.py")
    assert first.tokens > 0.6 * 800 and not s.compact            # the first answer passes 60%
    second = s.call("read_outline", path="shop/pricing.py")
    assert second.text.startswith("note: this session holds ")
    assert "answers from here on follow the compact rules: format tags, docs off" in second.text
    assert "[FILE:shop/pricing.py" in second.text and s.compact and s.compact_since == 2
    third = s.call("read_outline", path="shop/models.py")
    assert third.text.startswith("[FILE:shop/models.py")         # said once
    never = Session(wb, Rules(context_window=800), compact=False)
    never.call("read_outline", path="shop/orders.py")
    assert not never.call("read_outline", path="shop/pricing.py").text.startswith("note:")


def test_two_sessions_keep_separate_memories(wb):
    a, b = Session(wb), Session(wb)
    assert "def place_order(" in a.call("resolve_symbol", name="place_order").text
    assert "already provided" in a.call("resolve_symbol", name="place_order").text
    b1 = b.call("resolve_symbol", name="place_order")
    assert b1.text == call(wb, "resolve_symbol", {"name": "place_order"}).text   # as if stateless
