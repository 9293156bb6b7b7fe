"""Rule comparison: one agent tool call rendered under two rule sets, side by side, with a
line diff and the token and cost delta.

    >>> from workbench.widgets import RuleComparison
    >>> rc = RuleComparison(wb, "read_outline", {"path": "shop/orders.py"},
    ...                     right=Rules(docs=False, private=False, max_children=15))
    >>> rc.right_rules.value = "format=tags"; rc.comparison.delta

A thin shell over `workbench.views.compare` (both texts are exactly what the agent
receives) and `Response.cost` (the pricing table).
"""
from __future__ import annotations

import html
import json

import ipywidgets as W

from ..views import Rules
from ..views.pricing import default_pricing
from ..views import TOOLS, compare
from ..views.compare import diff_html as diff_block
from ..views.compare import diff_lines
from ..views.registry import parse_tool_args
from . import _common as C


def rules_text(rules: Rules) -> str:
    """A rule set as the `name=value` lines that differ from the defaults."""
    return "\n".join(f"{k}={'none' if b is None else b}" for k, (_, b) in Rules().diff(rules).items())


def parse_rules(text: str) -> Rules:
    """`name=value` lines (or comma-separated) -> Rules; blank lines and '#' comments ignored."""
    items = [s.strip() for line in text.splitlines() for s in line.split(",")]
    return Rules.parse_assignments([s for s in items if s and not s.startswith("#")])


def parse_args(text: str) -> dict:
    """Tool arguments as JSON (`{"path": "a.py"}`) or `name=value` pairs separated by spaces
    or commas (the tool converts numbers to its schema's types)."""
    text = text.strip()
    if not text:
        return {}
    if text.startswith("{"):
        return json.loads(text)
    return parse_tool_args(text.replace(",", " ").split())


def diff_html(a: str, b: str, name_a: str = "left", name_b: str = "right") -> str:
    """The line diff of two texts (`views.compare.diff_html`) in the widgets' frame."""
    return C.CSS + "<div class='wb-pre wb-diff'>" + diff_block(
        diff_lines(a, b, name_a, name_b)) + "</div>"


class RuleComparison(W.VBox):
    def __init__(self, wb, tool: str = "read_outline", args: dict | None = None,
                 left: Rules | None = None, right: Rules | None = None, model: str | None = None, **kw):
        self.wb = wb
        pricing = default_pricing()
        if args is None:
            files = C.source_files(wb)
            args = {"path": files[0]} if files else {}
        self.tool = W.Dropdown(options=list(TOOLS), value=tool, description="tool")
        self.tool.add_class("wb-tool")
        self.args = W.Text(value=json.dumps(args), description="args", continuous_update=False,
                           layout=C.layout(width="520px"))
        self.left_rules = W.Textarea(value=rules_text(left or Rules()), placeholder="defaults",
                                     continuous_update=False, layout=C.layout(width="98%", height="90px"))
        self.right_rules = W.Textarea(value=rules_text(right or Rules(docs=False, private=False)),
                                      placeholder="defaults", continuous_update=False,
                                      layout=C.layout(width="98%", height="90px"))
        self.left_rules.add_class("wb-rules-left")
        self.right_rules.add_class("wb-rules-right")
        self.model = W.Dropdown(options=list(pricing.models), value=model or pricing.default_model,
                                description="model")
        self.summary = W.HTML()
        self.left_view = W.HTML()
        self.right_view = W.HTML()
        self.diff_view = W.HTML()
        self.error = W.HTML()
        self.comparison = None
        self.exporter = C.RulesExport({"A": lambda: parse_rules(self.left_rules.value),
                                       "B": lambda: parse_rules(self.right_rules.value)})
        for w in (self.tool, self.args, self.left_rules, self.right_rules, self.model):
            w.observe(lambda _c: self.refresh(), "value")
        col = lambda title, rules, view: W.VBox(  # noqa: E731
            [W.HTML(f"<b>{title}</b> rules (<code>name=value</code> per line; empty = defaults)"),
             rules, view], layout=C.layout(width="50%"))
        super().__init__([
            W.HBox([self.tool, self.model]), self.args,
            W.HBox([col("A", self.left_rules, self.left_view), col("B", self.right_rules, self.right_view)]),
            self.summary, self.exporter.box, W.HTML("<b>diff A → B</b>"), self.diff_view, self.error], **kw)
        self.add_class("wb-rule-comparison")
        self.refresh()

    def export_rules(self, side: str = "B", path: str | None = None) -> str:
        """Write rule set A or B to a rule profile file (the "export rules" buttons);
        `workbench tool DB TOOL ... --rules FILE` then prints that side's text."""
        return self.exporter.export(side, path)

    def refresh(self):
        try:
            ra, rb = parse_rules(self.left_rules.value), parse_rules(self.right_rules.value)
            args = parse_args(self.args.value)
        except (ValueError, TypeError) as exc:
            self.error.value = f"<span class='wb-over'>{html.escape(str(exc))}</span>"
            return
        self.error.value = ""
        self.comparison = cmp = compare(self.wb, self.tool.value, args, ra, rb)
        model = self.model.value
        ca, cb = cmp.a.cost(model), cmp.b.cost(model)
        for view, resp, cost, cls in ((self.left_view, cmp.a, ca, "wb-text-a"),
                                      (self.right_view, cmp.b, cb, "wb-text-b")):
            view.value = (C.pre(resp.text, cls) + f"<span class='wb-badge'><b>{resp.tokens:,}</b> tokens · "
                          f"{resp.chars:,} chars · ${cost:.6f} as input ({html.escape(model)})</span>")
        pct = f" ({cmp.delta / cmp.a.tokens:+.0%})" if cmp.a.tokens else ""
        changed = ", ".join(f"{k}: {va!r} → {vb!r}" for k, (va, vb) in ra.diff(rb).items()) or "identical rules"
        self.summary.value = (f"<span class='wb-badge wb-delta'>{html.escape(self.tool.value)}: "
                              f"B − A = <b>{cmp.delta:+,}</b> tokens{pct}, <b>${cb - ca:+.6f}</b> per call "
                              f"· {html.escape(changed)}</span>")
        self.diff_view.value = diff_html(cmp.a.text, cmp.b.text, "A", "B")
