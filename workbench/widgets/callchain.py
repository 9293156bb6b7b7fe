"""Call chain explorer: pick a symbol (with completion), a direction (callers, callees,
both) and a depth, and see the chain as an interactive plotly graph in layers (callers
left, callees right, one column per call depth), nodes coloured by file or module and
labelled with qualified names (`Console.print`), unresolved calls drawn as such, plus a
table of the call sites (file:line). A big chain stays readable: the members of a class
or a file collapse into one node (click its button under the graph to expand it) and
beyond the node cap the farthest, least connected nodes fold into "+N more". Choosing a
node shows its source region as the agent would read it.

    >>> from workbench.widgets import CallChainExplorer
    >>> cc = CallChainExplorer(wb, "shop.orders.place_order", direction="down", depth=3)
    >>> cc.direction.value = "up"; cc.edges; cc.figure

A thin shell over `workbench.graph` (trace_call_chain, find_callees, find_definition) for
the structure, `workbench.chainview` for collapsing, capping and the layered layout, and
the agent tools (`trace_call_chain`, `read_region`) for the texts.
"""
from __future__ import annotations

import html
import posixpath

import ipywidgets as W

from .. import chainview, graph
from ..views import Rules, call
from ..views.source import all_files
from ..vocab import CLASS_KINDS, FUNCTION_KINDS
from . import _common as C

DIRECTIONS = [("callees", "down"), ("callers", "up"), ("both", "both")]
PALETTE = ["#1f77b4", "#ff7f0e", "#2ca02c", "#9467bd", "#8c564b", "#e377c2", "#17becf",
           "#bcbd22", "#7f7f7f", "#393b79", "#637939", "#8c6d31", "#843c39", "#7b4173"]
UNRESOLVED_COLOUR = "#d62728"
MAX_UNRESOLVED_PER_NODE = 6
MAX_UNRESOLVED_CALLERS = 30      # nodes whose unresolved calls are looked up (nearest first)
MAX_CHAIN_EDGES = 2000           # call edges fetched per direction
MAX_LEGEND_GROUPS = 12           # colour groups listed in the legend (more: hover a node)
LABEL_WIDTH = 24                 # characters of a node label (the full name is in the hover)


def symbol_choices(wb, limit: int = 5000) -> list[str]:
    """Qualified names of callables and classes, the most called first (for completion)."""
    return [s.qualname for s in graph.search_symbols(C.con_of(wb), kinds=(FUNCTION_KINDS | CLASS_KINDS),
                                                     definitions_only=True, limit=limit)]


class CallChainExplorer(W.VBox):
    def __init__(self, wb, symbol: str | None = None, direction: str = "down", depth: int = 2,
                 colour_by: str = "file", show_unresolved: bool = True, rules: Rules | None = None,
                 collapse: str = "auto", max_nodes: int = 40, **kw):
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
        self.collapse = W.Dropdown(options=[("auto (when over the cap)", "auto"), ("none", "none"),
                                            ("class members", "class"), ("file", "file")],
                                   value=collapse, description="collapse")
        self.collapse.add_class("wb-collapse")
        self.max_nodes = W.IntSlider(value=max_nodes, min=10, max=200, step=10, description="node cap",
                                     style={"description_width": "initial"})
        self.max_nodes.add_class("wb-max-nodes")
        self.show_unresolved = W.Checkbox(value=show_unresolved, description="unresolved calls",
                                          indent=False)
        self.node = W.Dropdown(options=[], description="node", layout=C.layout(width="560px"))
        self.node.add_class("wb-node")
        self.message = W.HTML()
        self.groups_box = W.HBox(layout=C.layout(flex_flow="row wrap"))
        self.groups_box.add_class("wb-groups")
        self.chart = W.Output()
        self.table = W.HTML(layout=C.layout(width="100%"))
        self.agent_text = W.HTML()
        self.region_view = W.HTML()
        self.edges: list = []            # graph.ChainEdge rows of the current chain
        self.unresolved: list = []       # graph.CallSite rows (callee not resolved) shown
        self.expanded: set[str] = set()  # collapsed groups drawn member by member anyway
        self.view = None                 # chainview.ChainView drawn
        self.graph = None                # networkx DiGraph of the symbols (every edge, uncollapsed)
        self.figure = None
        self.root_id: int | None = None
        self.region = None
        for w in (self.symbol, self.direction, self.depth, self.show_unresolved):
            w.observe(lambda _c: self.refresh(), "value")
        self.symbol.observe(lambda _c: self.expanded.clear(), "value")
        for w in (self.colour_by, self.collapse, self.max_nodes):
            w.observe(lambda _c: self._render(), "value")
        self.node.observe(lambda c: self.show_region(c["new"]), "value")
        super().__init__([
            W.HBox([self.symbol, self.depth]), W.HBox([self.direction]),
            W.HBox([self.colour_by, self.show_unresolved]), W.HBox([self.collapse, self.max_nodes]),
            self.message, self.chart, self.groups_box,
            W.HTML("<b>call sites</b>"), self.table, self.node, self.region_view,
            W.HTML("<b>what the agent receives</b> (<code>trace_call_chain</code>)"), self.agent_text],
            layout=C.layout(width="100%", max_width="100%"), **kw)
        self.add_class("wb-callchain")
        self.refresh()

    # ------------------------------------------------------------------ data
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
        self.edges = graph.trace_call_chain(con, sid, self.depth.value, self.direction.value,
                                            limit=MAX_CHAIN_EDGES)
        if self.show_unresolved.value and self.direction.value in ("down", "both"):
            callers = [sid] + sorted({e.dst_id for e in self.edges if e.direction == "down"} - {sid})
            for cid in callers[:MAX_UNRESOLVED_CALLERS]:
                sites = [c for c in graph.find_callees(con, cid) if c.callee_id is None
                         and c.resolution in ("unresolved", "ambiguous")]
                self.unresolved += sites[:MAX_UNRESOLVED_PER_NODE]
        ids = {sid} | {e.src_id for e in self.edges} | {e.dst_id for e in self.edges}
        self.symbols = graph.symbols_by_id(con, ids)
        self._render()

    def expand(self, group: str) -> None:
        """Draw a collapsed group (`class:QUALNAME` or `file:PATH`) member by member."""
        self.expanded.add(group)
        self._render()

    def collapse_again(self, group: str | None = None) -> None:
        """Collapse an expanded group again (every group when None)."""
        if group is None:
            self.expanded.clear()
        else:
            self.expanded.discard(group)
        self._render()

    # ------------------------------------------------------------------ drawing
    def _render(self):
        import networkx as nx
        if self.root_id is None or not hasattr(self, "symbols"):
            return
        self.view = chainview.build(self.edges, self.root_id, self.symbols, self.unresolved,
                                    collapse=self.collapse.value, expanded=self.expanded,
                                    max_nodes=self.max_nodes.value)
        g = nx.DiGraph()                          # every symbol and call edge, uncollapsed
        for i, m in self.symbols.items():
            g.add_node(i, label=m.qualname, kind=m.kind, path=m.path, lines=(m.start_line, m.end_line),
                       unresolved=False)
        for e in self.edges:
            g.add_edge(e.src_id, e.dst_id, path=e.path, line=e.line, resolution=e.resolution, cycle=e.cycle)
        self.graph = g
        self.figure = self._figure(self.view)
        C.show_in(self.chart, self.figure)
        root = self.symbols[self.root_id].qualname
        cut = ""
        if self.edges.rest if hasattr(self.edges, "rest") else False:
            cut = f" (the first {len(self.edges):,} of {self.edges.total:,} call edges)"
        self.message.value = (f"<span class='wb-badge wb-chain-summary'><b>{html.escape(root)}</b>: "
                              f"{html.escape(self.view.summary())}, {len(self.edges)} resolved call edges{cut}, "
                              f"{len(self.unresolved)} unresolved calls shown</span>")
        self._group_buttons()
        self.table.value = C.html_table(self.call_site_rows(), "wb-call-sites", fit=True)
        self.node.options = [("(choose a node to read its region)", 0)] + sorted(
            ((f"{g.nodes[i]['label']} {g.nodes[i]['path']}:{g.nodes[i]['lines'][0]}-{g.nodes[i]['lines'][1]}", i)
             for i in g.nodes), key=lambda t: t[0])
        self.node.value = 0
        self._agent_text()

    def _group_buttons(self):
        """One button per collapsed group (click: expand it) and per expanded one (click:
        collapse it again), plus one to raise the node cap when nodes were folded."""
        buttons = []
        for key, n in sorted(self.view.groups.items(), key=lambda kv: -kv[1]):
            b = W.Button(description=f"expand {key.split(':', 1)[1].rsplit('.', 1)[-1] if key.startswith('class:') else key.split(':', 1)[1]} ({n})",
                         tooltip=key, layout=C.layout(width="auto"))
            b.add_class("wb-expand")
            b.on_click(lambda _b, k=key: self.expand(k))
            buttons.append(b)
        for key in sorted(self.expanded):
            b = W.Button(description=f"collapse {key.split(':', 1)[1]}", tooltip=key,
                         layout=C.layout(width="auto"))
            b.on_click(lambda _b, k=key: self.collapse_again(k))
            buttons.append(b)
        if self.view.hidden_nodes and self.max_nodes.value < self.max_nodes.max:
            b = W.Button(description=f"draw more ({self.view.hidden_nodes} not drawn)",
                         layout=C.layout(width="auto"))
            b.add_class("wb-more")
            b.on_click(lambda _b: setattr(self.max_nodes, "value",
                                          min(self.max_nodes.max, self.max_nodes.value + 20)))
            buttons.append(b)
        self.groups_box.children = tuple(buttons)

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

    def _figure(self, view):
        import plotly.graph_objects as go
        pos = chainview.layered_layout(view)
        nodes = view.nodes
        fig = go.Figure()
        for unresolved in (False, True):            # edges: one trace per kind (None breaks lines)
            xs, ys = [], []
            for (u, v), e in view.edges.items():
                if e.unresolved != unresolved:
                    continue
                xs += [pos[u][0], pos[v][0], None]
                ys += [pos[u][1], pos[v][1], None]
            if xs:
                fig.add_trace(go.Scatter(
                    x=xs, y=ys, mode="lines", hoverinfo="skip",
                    name="unresolved call" if unresolved else "resolved call",
                    line=dict(width=1, color=UNRESOLVED_COLOUR if unresolved else "#999",
                              dash="dot" if unresolved else "solid")))
        arrows = [dict(x=pos[v][0], y=pos[v][1], ax=pos[u][0], ay=pos[u][1], xref="x", yref="y",
                       axref="x", ayref="y", showarrow=True, arrowhead=2, arrowsize=1,
                       arrowwidth=1, standoff=8, text="",
                       arrowcolor=UNRESOLVED_COLOUR if e.unresolved else "#999")
                  for (u, v), e in view.edges.items()] if len(view.edges) <= 300 else []
        traces: dict[str, list] = {}
        for key, n in nodes.items():
            grp = ("unresolved" if n.kind == "unresolved" else "more" if n.kind == "more"
                   else self._group(n.path))
            traces.setdefault(grp, []).append(key)
        colours = {grp: self._colour(grp) for grp in traces if grp not in ("unresolved", "more")}
        symbols = {"symbol": "circle", "class": "square", "file": "diamond", "more": "circle-open",
                   "unresolved": "x"}
        few = sum(1 for g in traces if g not in ("unresolved", "more")) <= MAX_LEGEND_GROUPS
        for grp, keys in sorted(traces.items(), key=lambda t: (t[0] in ("unresolved", "more"), t[0])):
            special = grp in ("unresolved", "more")
            fig.add_trace(go.Scatter(
                x=[pos[k][0] for k in keys], y=[pos[k][1] for k in keys], mode="markers+text",
                name=("unresolved (not bound to a definition)" if grp == "unresolved" else
                      "not drawn (node cap)" if grp == "more" else grp),
                showlegend=special or few,
                # labels point away from the start, into the free space beyond their column
                text=[chainview.short(nodes[k].label, LABEL_WIDTH) for k in keys],
                textposition=["middle left" if pos[k][0] < 0 else "middle right" if pos[k][0] > 0
                              else "top center" for k in keys],
                textfont=dict(size=9), customdata=keys,
                hovertext=[nodes[k].hover or nodes[k].label for k in keys], hoverinfo="text",
                marker=dict(size=[18 if k == chainview.ROOT else 13 if nodes[k].is_group else 10 for k in keys],
                            color=(UNRESOLVED_COLOUR if grp == "unresolved" else "#777" if grp == "more"
                                   else colours[grp]),
                            symbol=[symbols[nodes[k].kind] if k != chainview.ROOT else "circle" for k in keys],
                            line=dict(width=0 if special else 2, color="white"))))
        labels = {"down": "callees", "up": "callers", "both": "callers ← · → callees"}
        root = self.symbols[self.root_id].qualname
        xs = [p[0] for p in pos.values()] or [0.0]
        ys = [p[1] for p in pos.values()] or [0.0]
        tall = max(ys) - min(ys) + 1
        pad = 1.0                                     # a column's width for the outer labels
        note = "" if few else f" · colour: {self.colour_by.value} (hover a node)"
        fig.update_layout(title=dict(text=f"{labels[self.direction.value]} of {root} "
                                          f"(depth {self.depth.value}){note}", font=dict(size=14)),
                          showlegend=True, height=int(min(1400, max(420, 140 + 22 * tall))),
                          hovermode="closest",
                          xaxis=dict(visible=False, range=[min(xs) - (pad if min(xs) < 0 else 0.4),
                                                           max(xs) + (pad if max(xs) > 0 else 0.4)]),
                          yaxis=dict(visible=False, range=[min(ys) - 0.8, max(ys) + 0.8]),
                          legend=dict(title=f"colour: {self.colour_by.value}", font=dict(size=10),
                                      orientation="h", yanchor="top", y=-0.01, x=0),
                          margin=dict(t=50, l=10, r=10, b=10), plot_bgcolor="white",
                          annotations=arrows)          # one assignment: adding one by one is quadratic
        return fig

    # ------------------------------------------------------------------ texts
    def _agent_text(self):
        dirs = ["down", "up"] if self.direction.value == "both" else [self.direction.value]
        parts = []
        root = self.symbols[self.root_id].qualname
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
