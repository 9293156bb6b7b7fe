"""Agent session preview: an editable sequence of tool calls, each response exactly as the
agent gets it, the cumulative tokens against a context window with the point where a budget
manager would start compressing (60% by default), and what the same calls would cost
without the session cache (repeats re-sent in full).

    >>> from workbench.widgets import SessionPreview
    >>> sp = SessionPreview(wb, ["read_outline path=shop/orders.py",
    ...                          "resolve_symbol name=place_order",
    ...                          "resolve_symbol name=place_order"])
    >>> sp.session.total_tokens, sp.uncached.total_tokens
    >>> sp.calls.value += "\\nread_region path=shop/orders.py start_line=1 end_line=40"

A thin shell over `workbench.views.session.Session` (run twice: with the rules' `dedupe`
and with `dedupe=False`) and the pricing table.
"""
from __future__ import annotations

import html
import json
import shlex

import ipywidgets as W

from ..views import TOOLS, Rules
from ..views.pricing import default_pricing
from ..views.session import Session
from ..views.registry import parse_tool_args
from . import _common as C

WINDOWS = [("8k", 8_000), ("16k", 16_000), ("32k", 32_000), ("128k", 128_000), ("200k", 200_000),
           ("1M", 1_000_000)]


def parse_call(line: str) -> tuple[str, dict]:
    """`tool name=value ...` (shell-style quoting, the CLI's `workbench tool` syntax) or a
    JSON object `{"tool": ..., "args": {...}}` -> (tool, args)."""
    line = line.strip()
    if line.startswith("{"):
        obj = json.loads(line)
        return obj["tool"], dict(obj.get("args", {}))
    parts = shlex.split(line)
    try:
        return parts[0], parse_tool_args(parts[1:])
    except ValueError as exc:
        raise ValueError(f"{exc} in {line!r}") from None


def format_call(tool: str, args: dict) -> str:
    return " ".join([tool] + [f"{k}={shlex.quote(str(v))}" for k, v in args.items()])


def parse_calls(text: str) -> list[tuple[str, dict]]:
    """Every non-blank, non-comment line as (tool, args); unknown tool names are an error."""
    calls = [parse_call(ln) for ln in text.splitlines() if ln.strip() and not ln.strip().startswith("#")]
    for tool, _ in calls:
        if tool not in TOOLS:
            raise ValueError(f"no tool {tool!r}; tools: {', '.join(TOOLS)}")
    return calls


class SessionPreview(W.VBox):
    def __init__(self, wb, calls: list | str | None = None, rules: Rules | None = None,
                 context_window: int = 32_000, compress_at: float | None = None,
                 model: str | None = None, **kw):
        self.wb = wb
        self.base_rules = rules or Rules()
        pricing = default_pricing()
        if calls is None:
            calls = []
        if not isinstance(calls, str):
            calls = "\n".join(c if isinstance(c, str) else format_call(*c) for c in calls)
        self.calls = W.Textarea(value=calls, continuous_update=False,
                                layout=C.layout(width="98%", height="160px"))
        self.calls.add_class("wb-calls-editor")
        self.new_tool = W.Dropdown(options=list(TOOLS), value="read_outline", description="add")
        self.new_args = W.Text(placeholder='path=shop/orders.py   (or JSON)', layout=C.layout(width="360px"))
        self.add_button = W.Button(description="add call", icon="plus")
        self.add_button.on_click(lambda _b: self.add_call(self.new_tool.value, self.new_args.value))
        opts = [lbl for lbl, _ in WINDOWS]
        win = next((lbl for lbl, v in WINDOWS if v == context_window), None)
        if win is None:
            WINDOWS.append((f"{context_window:,}", context_window))
            opts.append(f"{context_window:,}")
            win = opts[-1]
        self.window = W.Dropdown(options=opts, value=win, description="window")
        self.window.add_class("wb-window")
        self.compress_at = W.FloatSlider(value=compress_at or self.base_rules.compress_at, min=0.1,
                                         max=1.0, step=0.05, description="compress at",
                                         readout_format=".0%", style={"description_width": "initial"})
        self.model = W.Dropdown(options=list(pricing.models), value=model or pricing.default_model,
                                description="model")
        self.turn = W.Dropdown(options=[], description="response")
        self.summary = W.HTML()
        self.table = W.HTML()
        self.chart = W.Output()
        self.response_view = W.HTML()
        self.error = W.HTML()
        self.session: Session | None = None
        self.uncached: Session | None = None
        self.responses: list = []
        self.figure = None
        for w in (self.calls, self.window, self.compress_at, self.model):
            w.observe(lambda _c: self.refresh(), "value")
        self.turn.observe(lambda c: self.show_response(c["new"]), "value")
        super().__init__([
            W.HTML("<b>Tool calls</b>, one per line: <code>tool name=value ...</code> "
                   "(<code>#</code> comments a line out)"),
            self.calls, W.HBox([self.new_tool, self.new_args, self.add_button]),
            W.HBox([self.window, self.compress_at, self.model]),
            self.error, self.summary, self.chart, self.table, self.turn, self.response_view], **kw)
        self.add_class("wb-session-preview")
        self.refresh()

    # ------------------------------------------------------------------ editing
    def add_call(self, tool: str, args: str | dict = "") -> None:
        args = args if isinstance(args, dict) else (
            json.loads(args) if args.strip().startswith("{") else parse_call(f"{tool} {args}")[1])
        line = format_call(tool, args)
        self.calls.value = (self.calls.value.rstrip("\n") + "\n" + line).lstrip("\n")

    @property
    def context_window(self) -> int:
        return dict(WINDOWS)[self.window.value]

    @property
    def rules(self) -> Rules:
        return self.base_rules.replace(context_window=self.context_window,
                                       compress_at=round(self.compress_at.value, 4))

    # ------------------------------------------------------------------ running
    def refresh(self):
        try:
            calls = parse_calls(self.calls.value)
        except (ValueError, KeyError, json.JSONDecodeError) as exc:
            self.error.value = f"<span class='wb-over'>{html.escape(str(exc))}</span>"
            return
        self.error.value = ""
        rules = self.rules
        self.session = Session(self.wb, rules)
        self.uncached = Session(self.wb, rules.replace(dedupe=False))
        self.responses = [self.session.call(t, **a) for t, a in calls]
        for t, a in calls:
            self.uncached.call(t, **a)
        self._render()

    def _render(self):
        s, u, model = self.session, self.uncached, self.model.value
        window, limit = s.context_window, s.context_window * s.rules.compress_at
        cross = next((r.turn for r in s.records if r.cumulative >= limit), None)
        cross_u = next((r.turn for r in u.records if r.cumulative >= limit), None)
        saved = u.total_tokens - s.total_tokens
        self.summary.value = (
            "<span class='wb-badge wb-session-summary'>"
            f"{len(s.records)} calls · <b>{s.total_tokens:,}</b> tokens of {window:,} "
            f"(<b>{s.used_share:.1%}</b>) · ${s.cost(model):.4f} · "
            + (f"<span class='wb-over'>compression starts at call {cross}</span>" if cross else
               f"below the {s.rules.compress_at:.0%} compression point")
            + f"<br>without the session cache: <b>{u.total_tokens:,}</b> tokens "
            f"(${u.cost(model):.4f}); repeated reads cost <b>{saved:,}</b> tokens "
            f"(${u.cost(model) - s.cost(model):.4f})"
            + (f"; compression would start at call {cross_u}" if cross_u else "") + "</span>")
        rows = []
        for r, ru in zip(s.records, u.records):
            rows.append({"turn": r.turn, "tool": r.tool,
                         "args": ", ".join(f"{k}={v!r}" for k, v in r.args.items()),
                         "tokens": r.tokens, "cumulative": r.cumulative,
                         "share of window": f"{r.cumulative / window:.1%}",
                         "note": ("error" if r.error else f"repeat of {r.repeat_of}" if r.repeat_of else ""),
                         "without cache": ru.cumulative})
        self.table.value = C.html_table(rows, "wb-session-table")
        self.turn.options = [(f"{r['turn']}: {r['tool']}({r['args']})", r["turn"]) for r in rows]
        self.turn.value = rows[-1]["turn"] if rows else None
        self.show_response(self.turn.value)
        self.figure = self._figure()
        C.show_in(self.chart, self.figure)

    def _figure(self):
        from .. import plots
        s, u = self.session, self.uncached
        hover = [f"{r.tool}: {r.tokens:,} tokens" + (f" (repeat of {r.repeat_of})" if r.repeat_of else "")
                 for r in s.records]
        return plots.cumulative_tokens(
            {"without session cache": u, "with session": s}, s.context_window, s.rules.compress_at,
            styles={"without session cache": dict(line=dict(dash="dot", color="#d62728")),
                    "with session": dict(line=dict(color="#1f77b4"))},
            hover={"with session": [""] + hover})

    def show_response(self, turn):
        if not turn:
            self.response_view.value = ""
            return
        r = self.responses[turn - 1]
        self.response_view.value = (
            f"<span class='wb-badge'>call {turn}: <b>{r.tokens:,}</b> tokens, exactly as sent</span>"
            + C.pre(r.text, "wb-response"))
