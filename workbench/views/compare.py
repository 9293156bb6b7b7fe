"""One tool call under two rule sets, side by side: `compare(wb, name, args, a, b)`."""
from __future__ import annotations

import difflib
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

    def diff(self, context: int = 1) -> list[str]:
        """The unified line diff from A's text to B's (empty when the texts are equal)."""
        return diff_lines(self.a.text, self.b.text, "A", "B", context)

    def _repr_html_(self) -> str:
        diff = self.rules_a.diff(self.rules_b)
        d = ", ".join(f"{k}: {va!r} → {vb!r}" for k, (va, vb) in diff.items()) or "identical rules"
        return (f"<div><code>{html.escape(self.tool)}({html.escape(repr(self.args))})</code>: "
                f"{html.escape(d)}; B − A = <b>{self.delta:+,}</b> tokens</div>"
                + two_panes(self.a.text, self.b.text, f"A: {self.a.tokens:,} tokens",
                            f"B: {self.b.tokens:,} tokens")
                + "<div><b>diff A → B</b></div>" + diff_html(self.diff()))

    def __repr__(self) -> str:
        return f"<Comparison {self.tool}: {self.a.tokens} vs {self.b.tokens} tokens ({self.delta:+})>"


_PANE = ("margin:0; padding:6px 8px; text-align:left; white-space:pre-wrap; overflow-wrap:anywhere; "
         "font-family:var(--jp-code-font-family, monospace); font-size:12px; line-height:1.35; "
         "max-height:480px; overflow:auto; border:1px solid var(--jp-border-color2, #ddd); "
         "background:var(--jp-layout-color1, #fafafa)")


def diff_lines(a: str, b: str, name_a: str = "A", name_b: str = "B", context: int = 1) -> list[str]:
    """A unified diff of two texts, line by line."""
    return list(difflib.unified_diff(a.splitlines(), b.splitlines(), name_a, name_b,
                                     lineterm="", n=context))


def two_panes(a: str, b: str, title_a: str, title_b: str) -> str:
    """Two texts side by side, each in a left-aligned monospace pane of half the width."""
    pane = ("<div style='flex:1 1 0; min-width:0'><div><b>{}</b></div>"
            f"<pre style='{_PANE}'>{{}}</pre></div>")
    return ("<div style='display:flex; gap:8px; align-items:flex-start; text-align:left'>"
            + pane.format(html.escape(title_a), html.escape(a))
            + pane.format(html.escape(title_b), html.escape(b)) + "</div>")


def diff_html(lines: list[str]) -> str:
    """A unified diff as a monospace block: added lines green, removed red, hunks grey."""
    if not lines:
        return f"<pre class='wb-diff-text' style='{_PANE}'>(identical texts)</pre>"
    out = []
    for ln in lines:
        colour = ("#e6ffed" if ln.startswith("+") and not ln.startswith("+++") else
                  "#ffeef0" if ln.startswith("-") and not ln.startswith("---") else "")
        cls = ("add" if colour == "#e6ffed" else "del" if colour else
               "hunk" if ln.startswith("@@") else "")
        style = f" style='background:{colour}'" if colour else (" style='color:#6a737d'" if cls else "")
        out.append(f"<span class='{cls}'{style}>{html.escape(ln)}</span>")
    return f"<pre class='wb-diff-text' style='{_PANE}'>" + "\n".join(out) + "</pre>"


def compare(wb, name: str, args: dict, rules_a: Rules, rules_b: Rules) -> Comparison:
    """The same tool call under two rule sets (no session: each stands alone)."""
    return Comparison(name, dict(args), call(wb, name, args, rules=rules_a),
                      call(wb, name, args, rules=rules_b), rules_a, rules_b)
