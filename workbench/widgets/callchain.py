"""Call chain explorer: pick a symbol (with completion), a direction (callers, callees,
both) and a depth, and see the chain as an interactive plotly graph laid out with networkx,
nodes coloured by file or module, unresolved calls drawn as such, plus a table of the call
sites (file:line). Choosing a node shows its source region as the agent would read it.

    >>> from workbench.widgets import CallChainExplorer
    >>> cc = CallChainExplorer(wb, "shop.orders.place_order", direction="down", depth=3)
    >>> cc.direction.value = "up"; cc.edges; cc.figure

A thin shell over `workbench.graph` (trace_call_chain, find_callees, find_definition) for
the structure and the agent tools (`trace_call_chain`, `read_region`) for the texts.
"""
from __future__ import annotations

import html
import posixpath

import ipywidgets as W

from .. import graph
from ..views import Rules, call
from ..views.source import all_files
from ..vocab import CLASS_KINDS, FUNCTION_KINDS
from . import _common as C

DIRECTIONS = [("callees", "down"), ("callers", "up"), ("both", "both")]
PALETTE = ["#1f77b4", "#ff7f0e", "#2ca02c", "#9467bd", "#8c564b", "#e377c2", "#17becf",
           "#bcbd22", "#7f7f7f", "#393b79", "#637939", "#8c6d31", "#843c39", "#7b4173"]
UNRESOLVED_COLOUR = "#d62728"
MAX_UNRESOLVED_PER_NODE = 6


def symbol_choices(wb, limit: int = 5000) -> list[str]:
    """Qualified names of callables and classes, the most called first (for completion)."""
    return [s.qualname for s in graph.search_symbols(C.con_of(wb), kinds=(FUNCTION_KINDS | CLASS_KINDS),
                                                     definitions_only=True, limit=limit)]


class CallChainExplorer(W.VBox):
    def __init__(self, wb, symbol: str | None = None, direction: str = "down", depth: int = 2,
                 colour_by: str = "file", show_unresolved: bool = True, rules: Rules | None = None, **kw):
        self.wb = wb
        self.rules = rules or Rules()
        choices = symbol_choices(wb)
        self.symbol = W.Combobox(value=symbol or (choices[0] if choices else ""), options=choices,
                                 placeholder="symbol (type for completion)", ensure_option=False,
                                 description="symbol", continuous_update=False,
                                 layout=C.layout(width="460px"))
        self.symbol.add_class("wb-symbol-picker")
        self.direction = W.ToggleButtons(options=DIRECTIONS, value=direction, description="show")
        self.direction.add_class("wb-direction")
        self.depth = W.IntSlider(value=depth, min=1, max=6, description="depth")
        self.depth.add_class("wb-depth")
        self.colour_by = W.Dropdown(options=[("file", "file"), ("module / directory", "module")],
                                    value=colour_by, description="colour by")
        self.show_unresolved = W.Checkbox(value=show_unresolved, description="unresolved calls",
                                          indent=False)
        self.node = W.Dropdown(options=[], description="node", layout=C.layout(width="560px"))
        self.node.add_class("wb-node")
        self.message = W.HTML()
        self.chart = W.Output()
        self.table = W.HTML()
        self.agent_text = W.HTML()
        self.region_view = W.HTML()
        self.edges: list = []            # graph.ChainEdge rows of the current chain
        self.unresolved: list = []       # graph.CallSite rows (callee not resolved) shown
        self.graph = None                # networkx DiGraph drawn
        self.figure = None
        self.root_id: int | None = None
        self.region = None
        for w in (self.symbol, self.direction, self.depth, self.colour_by, self.show_unresolved):
            w.observe(lambda _c: self.refresh(), "value")
        self.node.observe(lambda c: self.show_region(c["new"]), "value")
        super().__init__([
            W.HBox([self.symbol, self.depth]), W.HBox([self.direction]),
            W.HBox([self.colour_by, self.show_unresolved]), self.message, self.chart,
            W.HTML("<b>call sites</b>"), self.table, self.node, self.region_view,
            W.HTML("<b>what the agent receives</b> (<code>trace_call_chain</code>)"), self.agent_text], **kw)
        self.add_class("wb-callchain")
        self.refresh()

    # ------------------------------------------------------------------ data
    def _nodes_info(self, ids) -> dict[int, tuple]:
        return {i: (m.qualname, m.kind, m.path, m.start_line, m.end_line)
                for i, m in graph.symbols_by_id(C.con_of(self.wb), ids).items()}

    def refresh(self):
        con = C.con_of(self.wb)
        name = (self.symbol.value or "").strip()
        self.edges, self.unresolved = [], []
        if not name:
            self.message.value = "<em>type a symbol</em>"
            return
        try:
            sid = graph.symbol_id(con, name)
        except graph.AmbiguousSymbol as exc:
            self.message.value = ("<span class='wb-over'>ambiguous:</span> "
                                  + html.escape(", ".join(m.qualname for m in exc.matches[:12]))
                                  + " (pick a qualified name)")
            self.symbol.options = [m.qualname for m in exc.matches] + list(self.symbol.options)
            return
        except graph.SymbolNotFound as exc:
            self.message.value = f"<span class='wb-over'>{html.escape(str(exc))}</span>"
            return
        self.root_id = sid
        self.edges = graph.trace_call_chain(con, sid, self.depth.value, self.direction.value)
        if self.show_unresolved.value and self.direction.value in ("down", "both"):
            callers = {sid} | {e.dst_id for e in self.edges if e.direction == "down"}
            for cid in sorted(callers):
                sites = [c for c in graph.find_callees(con, cid) if c.callee_id is None
                         and c.resolution in ("unresolved", "ambiguous")]
                self.unresolved += sites[:MAX_UNRESOLVED_PER_NODE]
        self._render()

    # ------------------------------------------------------------------ drawing
    def _render(self):
        import networkx as nx
        g = nx.DiGraph()
        ids = {self.root_id} | {e.src_id for e in self.edges} | {e.dst_id for e in self.edges} | {
            c.caller_id for c in self.unresolved}
        info = self._nodes_info(ids)
        layer = {self.root_id: 0}
        for e in self.edges:                       # callees to the right, callers to the left
            if e.direction == "down":
                layer.setdefault(e.dst_id, e.depth)
            else:
                layer.setdefault(e.src_id, -e.depth)
        for n in ids:
            q, kind, path, a, b = info.get(n, ("?", "?", "?", 0, 0))
            g.add_node(n, layer=layer.get(n, 0), label=q, kind=kind, path=path, lines=(a, b),
                       group=self._group(path), unresolved=False)
        for e in self.edges:
            g.add_edge(e.src_id, e.dst_id, path=e.path, line=e.line, resolution=e.resolution,
                       cycle=e.cycle)
        for i, c in enumerate(self.unresolved):
            u = f"?{i}"
            g.add_node(u, layer=layer.get(c.caller_id, 0) + 0.5, label=f"{c.as_written}  ({c.resolution})",
                       kind="unresolved", path=c.path, lines=(c.line, c.line), group="unresolved",
                       unresolved=True)
            g.add_edge(c.caller_id, u, path=c.path, line=c.line, resolution=c.resolution, cycle=False)
        self.graph = g
        self.figure = self._figure(g)
        C.show_in(self.chart, self.figure)
        n_res = len(self.edges)
        self.message.value = (f"<span class='wb-badge wb-chain-summary'><b>{info[self.root_id][0]}</b>: "
                              f"{g.number_of_nodes()} nodes, {n_res} resolved call edges, "
                              f"{len(self.unresolved)} unresolved calls shown</span>")
        self.table.value = C.html_table(self.call_site_rows(), "wb-call-sites")
        self.node.options = [("(choose a node to read its region)", 0)] + sorted(
            ((f"{d['label']} {d['path']}:{d['lines'][0]}-{d['lines'][1]}", n)
             for n, d in g.nodes(data=True) if not d["unresolved"]), key=lambda t: t[0])
        self.node.value = 0
        self._agent_text()

    def _colour(self, group: str) -> str:
        """A colour per file or directory that stays the same while you explore (the
        position of the group among all of the repository's, round the palette)."""
        if not hasattr(self, "_order"):
            paths = sorted(f.path for f in all_files(C.con_of(self.wb)))
            self._order = {"file": {p: i for i, p in enumerate(paths)},
                           "module": {d: i for i, d in enumerate(sorted({posixpath.dirname(p) or "." for p in paths}))}}
        return PALETTE[self._order[self.colour_by.value].get(group, 0) % len(PALETTE)]

    def _group(self, path: str) -> str:
        if self.colour_by.value == "file":
            return path or "?"
        return posixpath.dirname(path) or "." if path else "?"

    def call_site_rows(self) -> list[dict]:
        rows = [{"direction": "callee" if e.direction == "down" else "caller", "depth": e.depth,
                 "caller": e.src, "callee": e.dst, "call site": f"{e.path}:{e.line}",
                 "resolution": e.resolution + (" (cycle)" if e.cycle else "")} for e in self.edges]
        rows += [{"direction": "callee", "depth": "", "caller": c.caller, "callee": c.as_written,
                  "call site": f"{c.path}:{c.line}", "resolution": c.resolution}
                 for c in self.unresolved]
        return rows

    def _figure(self, g):
        import networkx as nx
        import plotly.graph_objects as go
        pos = nx.multipartite_layout(g, subset_key="layer", align="vertical", scale=1.0) if len(g) > 1 \
            else {n: (0.0, 0.0) for n in g}
        fig = go.Figure()
        for unresolved in (False, True):            # edges: one trace per kind (None breaks lines)
            xs, ys = [], []
            for u, v, d in g.edges(data=True):
                if g.nodes[v]["unresolved"] != unresolved:
                    continue
                xs += [pos[u][0], pos[v][0], None]
                ys += [pos[u][1], pos[v][1], None]
            if xs:
                fig.add_trace(go.Scatter(
                    x=xs, y=ys, mode="lines", hoverinfo="skip",
                    name="unresolved call" if unresolved else "resolved call",
                    line=dict(width=1, color=UNRESOLVED_COLOUR if unresolved else "#999",
                              dash="dot" if unresolved else "solid")))
        if g.number_of_edges() <= 150:               # arrow heads
            for u, v in g.edges():
                fig.add_annotation(x=pos[v][0], y=pos[v][1], ax=pos[u][0], ay=pos[u][1],
                                   xref="x", yref="y", axref="x", ayref="y", showarrow=True,
                                   arrowhead=2, arrowsize=1, arrowwidth=1, standoff=8, text="",
                                   arrowcolor=UNRESOLVED_COLOUR if g.nodes[v]["unresolved"] else "#999")
        groups: dict[str, list] = {}
        for n, d in g.nodes(data=True):
            groups.setdefault(d["group"], []).append(n)
        colours = {grp: self._colour(grp) for grp in groups if grp != "unresolved"}
        for grp, nodes in sorted(groups.items(), key=lambda t: (t[0] == "unresolved", t[0])):
            unresolved = grp == "unresolved"
            fig.add_trace(go.Scatter(
                x=[pos[n][0] for n in nodes], y=[pos[n][1] for n in nodes], mode="markers+text",
                name="unresolved (not bound to a definition)" if unresolved else grp,
                text=[g.nodes[n]["label"].rsplit(".", 1)[-1] if not unresolved else g.nodes[n]["label"]
                      for n in nodes],
                textposition="top center", textfont=dict(size=10),
                customdata=[str(n) for n in nodes],
                hovertext=[f"{g.nodes[n]['label']}<br>{g.nodes[n]['kind']} "
                           f"{g.nodes[n]['path']}:{g.nodes[n]['lines'][0]}-{g.nodes[n]['lines'][1]}"
                           for n in nodes], hoverinfo="text",
                marker=dict(size=[18 if n == self.root_id else 11 for n in nodes],
                            color=UNRESOLVED_COLOUR if unresolved else colours[grp],
                            symbol="x" if unresolved else "circle",
                            line=dict(width=2 if not unresolved else 0, color="white"))))
        labels = {"down": "callees", "up": "callers", "both": "callers ← · → callees"}
        root = g.nodes[self.root_id]["label"]
        xs = [p[0] for p in pos.values()] or [0.0]
        pad = 0.12 * (max(xs) - min(xs) or 1.0)            # room for the labels at both ends
        fig.update_layout(title=f"{labels[self.direction.value]} of {root} (depth {self.depth.value})",
                          showlegend=True, height=480, hovermode="closest",
                          xaxis=dict(visible=False, range=[min(xs) - pad, max(xs) + 2 * pad]),
                          yaxis=dict(visible=False),
                          legend=dict(title=f"colour: {self.colour_by.value}", font=dict(size=10)),
                          margin=dict(t=50, l=10, r=10, b=10), plot_bgcolor="white")
        return fig

    # ------------------------------------------------------------------ texts
    def _agent_text(self):
        dirs = ["down", "up"] if self.direction.value == "both" else [self.direction.value]
        parts = []
        root = self.graph.nodes[self.root_id]["label"]
        for d in dirs:
            r = call(self.wb, "trace_call_chain",
                           {"symbol": root, "depth": self.depth.value, "direction": d}, rules=self.rules)
            parts.append(f"<span class='wb-badge'>trace_call_chain({root!r}, depth={self.depth.value}, "
                         f"direction={d!r}): <b>{r.tokens:,}</b> tokens</span>" + C.pre(r.text, "wb-agent-text"))
        self.agent_text.value = "".join(parts)

    def show_region(self, node):
        if not node:
            self.region = None
            self.region_view.value = ""
            return
        d = self.graph.nodes[node]
        a, b = d["lines"]
        self.region = call(self.wb, "read_region",
                                 {"path": d["path"], "start_line": a, "end_line": b}, rules=self.rules)
        self.region_view.value = (f"<span class='wb-badge'>read_region({d['path']!r}, {a}, {b}): "
                                  f"<b>{self.region.tokens:,}</b> tokens</span>" + C.pre(self.region.text, "wb-region"))
