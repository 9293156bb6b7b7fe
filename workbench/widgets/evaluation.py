"""Evaluation explorer: pick strategies and rule sets of an evaluation, see their token
distributions, hit rates or tokens against hits, and the summary table.

    >>> from workbench.widgets import EvalExplorer
    >>> ex = EvalExplorer(res)            # res = workbench.eval.evaluate(...)
    >>> ex.strategies.value = ("outline_region", "resolve"); ex.view.value = "pareto"

A thin shell over `workbench.plots` (the figures) and `workbench.eval.distribution` (the
table); it filters the results it was given and keeps the figure and table it shows.
"""
from __future__ import annotations

import html

import ipywidgets as W

from .. import plots
from . import _common as C

VIEWS = {"distributions": plots.strategy_distributions, "hit rates": plots.hit_rates,
         "tokens vs hits": plots.pareto}


class EvalExplorer(W.VBox):
    def __init__(self, results, strategies=None, rules=None, view: str = "distributions", **kw):
        self.frame = plots.eval_frame(results)
        all_s = list(dict.fromkeys(self.frame["strategy"]))
        all_r = list(dict.fromkeys(self.frame["rules"]))
        self.strategies = W.SelectMultiple(options=all_s, value=tuple(strategies or all_s),
                                           description="strategies", rows=min(8, len(all_s) or 1))
        self.rules = W.SelectMultiple(options=all_r, value=tuple(rules or all_r), description="rule sets",
                                      rows=min(6, len(all_r) or 1))
        self.view = W.ToggleButtons(options=list(VIEWS), value=view)
        self.out = W.Output()
        self.table = W.HTML()
        self.figure = None
        self.summary = None
        for w in (self.strategies, self.rules, self.view):
            w.observe(lambda _c: self.refresh(), "value")
        super().__init__([W.HBox([self.strategies, self.rules]), self.view, self.out, self.table], **kw)
        self.add_class("wb-eval-explorer")
        self.refresh()

    def selected(self):
        """The results of the chosen strategies and rule sets (a DataFrame)."""
        f = self.frame
        return f[f["strategy"].isin(self.strategies.value) & f["rules"].isin(self.rules.value)]

    def refresh(self):
        df = self.selected()
        if df.empty:
            self.figure, self.summary = None, None
            self.table.value = "<em>pick at least one strategy and one rule set</em>"
            return
        self.figure = VIEWS[self.view.value](df)
        C.show_in(self.out, self.figure)
        rows = []
        for (s, r), g in df.groupby(["strategy", "rules"], sort=False):
            rows.append({"strategy": s, "rules": r, "tasks": len(g),
                         "median tokens": f"{g['tokens'].median():,.0f}",
                         "p90": f"{g['tokens'].quantile(0.9):,.0f}",
                         "median share": f"{g['share'].median():.1%}" if g["share"].notna().any() else "",
                         "hit": int((g["outcome"] == "hit").sum()), "cut": int((g["outcome"] == "cut").sum()),
                         "miss": int((g["outcome"] == "miss").sum())})
        self.summary = rows
        self.table.value = C.html_table(rows, "wb-eval-table")

    def __repr__(self) -> str:
        return f"<EvalExplorer {len(self.selected())} results; view {html.escape(self.view.value)}>"
