"""One tool call under two rule sets, side by side: `compare(wb, name, args, a, b)`."""
from __future__ import annotations

import html
from dataclasses import dataclass

from .registry import call
from .response import Response
from .rules import Rules


@dataclass
class Comparison:
    tool: str
    args: dict
    a: Response
    b: Response
    rules_a: Rules
    rules_b: Rules

    @property
    def delta(self) -> int:
        return self.b.tokens - self.a.tokens

    def _repr_html_(self) -> str:
        diff = self.rules_a.diff(self.rules_b)
        d = ", ".join(f"{k}: {va!r} → {vb!r}" for k, (va, vb) in diff.items()) or "identical rules"
        cell = "<td style='vertical-align:top'><pre style='white-space:pre-wrap'>{}</pre><b>{:,} tokens</b></td>"
        return (f"<div><code>{html.escape(self.tool)}({html.escape(repr(self.args))})</code> — "
                f"{html.escape(d)}; Δ {self.delta:+,} tokens</div><table><tr>"
                + cell.format(html.escape(self.a.text), self.a.tokens)
                + cell.format(html.escape(self.b.text), self.b.tokens) + "</tr></table>")

    def __repr__(self) -> str:
        return f"<Comparison {self.tool}: {self.a.tokens} vs {self.b.tokens} tokens ({self.delta:+})>"


def compare(wb, name: str, args: dict, rules_a: Rules, rules_b: Rules) -> Comparison:
    """The same tool call under two rule sets (no session: each stands alone)."""
    return Comparison(name, dict(args), call(wb, name, args, rules=rules_a),
                      call(wb, name, args, rules=rules_b), rules_a, rules_b)
