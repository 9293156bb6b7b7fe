"""A call chain made readable at any size: the model behind the call-chain explorer.

`build(...)` turns the edges of `graph.trace_call_chain` (plus unresolved call sites) into
a small drawable graph:

* qualified, unique labels (`Console.print`, `Style.__init__`, never a bare `__init__`);
* optional collapsing of the members of a class or of a file into one node, with some
  groups expanded again (`expanded`);
* a node cap: beyond `max_nodes`, the nodes farthest from the start and least connected
  are folded into one "+N more" node per layer, and the view says how many it hid;
* `layered_layout(view)`: a layered drawing of the chain (callers left, callees right,
  one column per call depth, each column ordered by its neighbours to limit crossings).

Plain data (no SQL, no widgets): the explorer widget and tests drive it the same way.
"""
from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass, field

COLLAPSE = ("auto", "none", "class", "file")
ROOT = "root"


@dataclass
class Node:
    key: str
    label: str
    kind: str                    # symbol | class | file | more | unresolved
    layer: float
    path: str = ""
    lines: tuple = (0, 0)
    qualname: str = ""
    symbol_id: int | None = None
    members: list = field(default_factory=list)     # symbol ids folded into a group or "more"
    hover: str = ""

    @property
    def is_group(self) -> bool:
        return self.kind in ("class", "file")


@dataclass
class Edge:
    src: str
    dst: str
    calls: int = 0               # call sites folded into this edge
    resolutions: set = field(default_factory=set)
    cycle: bool = False
    unresolved: bool = False


@dataclass
class ChainView:
    nodes: dict                  # key -> Node
    edges: dict                  # (src, dst) -> Edge
    collapse: str                # what was applied: none | class | file
    hidden_nodes: int = 0        # symbols folded into "+N more" nodes
    groups: dict = field(default_factory=dict)      # collapsed group key -> member count

    def summary(self) -> str:
        n = sum(1 for x in self.nodes.values() if x.kind not in ("more", "unresolved"))
        text = f"{n} nodes"
        if self.collapse != "none":
            text += f" (members collapsed by {self.collapse}: {len(self.groups)} groups)"
        if self.hidden_nodes:
            text += f", {self.hidden_nodes} more not drawn"
        return text


# ---------------------------------------------------------------- labels

def qualified_labels(symbols: dict) -> dict:
    """{id: label}: methods as `Class.method`, other definitions by name, each lengthened
    with more of its qualified name until no two labels of the graph are equal."""
    parts = {i: s.qualname.split(".") for i, s in symbols.items()}
    take = {i: (len(parts[i]) if s.kind == "module" else 2 if s.kind in ("method", "constructor") else 1)
            for i, s in symbols.items()}
    while True:
        labels = {i: ".".join(parts[i][-take[i]:]) for i in symbols}
        seen = defaultdict(list)
        for i, lab in labels.items():
            seen[lab].append(i)
        clash = [i for ids in seen.values() if len(ids) > 1 for i in ids if take[i] < len(parts[i])]
        if not clash:
            return labels
        for i in clash:
            take[i] += 1


def short(label: str, width: int = 28) -> str:
    """A label cut from the left to `width` characters (the end names the definition)."""
    return label if len(label) <= width else "\u2026" + label[-(width - 1):]


# ---------------------------------------------------------------- building

def _layers(edges, root_id) -> dict:
    layer = {root_id: 0}
    for e in edges:                      # breadth first: the first depth seen is the nearest
        if e.direction == "down":
            layer.setdefault(e.dst_id, e.depth)
            layer.setdefault(e.src_id, e.depth - 1)
        else:
            layer.setdefault(e.src_id, -e.depth)
            layer.setdefault(e.dst_id, -(e.depth - 1))
    return layer


def _group_of(sym, collapse: str) -> tuple[str, str] | None:
    """(group key, kind) of a symbol under a collapse mode, or None (drawn alone)."""
    if collapse == "class" and sym.kind in ("method", "constructor") and "." in sym.qualname:
        return "class:" + sym.qualname.rsplit(".", 1)[0], "class"
    if collapse == "file":
        return "file:" + sym.path, "file"
    return None


def build(edges, root_id: int, symbols: dict, unresolved=(), collapse: str = "auto",
          expanded=(), max_nodes: int = 40) -> ChainView:
    """The drawable view of a chain.

    `edges` are `graph.ChainEdge`s, `symbols` maps every id they name to a
    `graph.Symbol`, `unresolved` are `graph.CallSite`s of calls not bound to a definition.
    `collapse` is none, class, file or auto (none when the chain fits in `max_nodes`, else
    class, else file). `expanded` lists group keys (`class:QUALNAME`, `file:PATH`) to
    draw member by member anyway.
    """
    if collapse not in COLLAPSE:
        raise ValueError(f"collapse must be one of {', '.join(COLLAPSE)}, not {collapse!r}")
    layer = _layers(edges, root_id)
    ids = [i for i in layer if i in symbols]
    if collapse == "auto":
        collapse = "none"
        for mode in ("none", "class", "file"):
            collapse = mode
            if len({_key(symbols[i], i, root_id, mode, expanded) for i in ids}) <= max_nodes:
                break
    if collapse != "none":                # a group of one member is drawn as that member
        size = defaultdict(int)
        for i in ids:
            size[_key(symbols[i], i, root_id, collapse, expanded)] += 1
        expanded = set(expanded) | {k for k, n in size.items() if n == 1 and k.startswith(("class:", "file:"))}
    labels = qualified_labels({i: symbols[i] for i in ids})
    nodes: dict[str, Node] = {}
    key_of: dict[int, str] = {}
    groups: dict[str, int] = {}
    for i in ids:
        s = symbols[i]
        k = _key(s, i, root_id, collapse, expanded)
        key_of[i] = k
        if k.startswith(("class:", "file:")):
            g = nodes.get(k)
            if g is None:
                kind = k.split(":", 1)[0]
                name = k.split(":", 1)[1]
                g = nodes[k] = Node(k, "", kind, layer[i], path=s.path, qualname=name)
            g.members.append(i)
            if abs(layer[i]) < abs(g.layer) or (abs(layer[i]) == abs(g.layer) and layer[i] > g.layer):
                g.layer = layer[i]
            continue
        nodes[k] = Node(k, labels[i], "symbol", layer[i], s.path, (s.start_line, s.end_line),
                        s.qualname, i, [i], f"{s.qualname}<br>{s.kind} {s.path}:{s.start_line}-{s.end_line}")
    for k, g in nodes.items():
        if g.is_group:
            groups[k] = len(g.members)   # drawn groups are kept after the cap
            name = g.qualname.rsplit(".", 1)[-1] if g.kind == "class" else g.qualname
            g.label = f"{name} [{len(g.members)}]"
            first = symbols[g.members[0]]
            g.lines = (first.start_line, first.end_line)
            g.hover = (f"{g.kind} {g.qualname}: {len(g.members)} members in the chain<br>"
                       + "<br>".join(labels[m] for m in g.members[:12])
                       + ("<br>..." if len(g.members) > 12 else ""))
    out: dict[tuple, Edge] = {}
    for e in edges:
        a, b = key_of.get(e.src_id), key_of.get(e.dst_id)
        if a is None or b is None or a == b:
            continue
        x = out.setdefault((a, b), Edge(a, b))
        x.calls += 1
        x.resolutions.add(e.resolution)
        x.cycle = x.cycle or e.cycle
    for n, c in enumerate(unresolved):
        a = key_of.get(c.caller_id)
        if a is None:
            continue
        k = f"unresolved:{n}"
        nodes[k] = Node(k, short(f"{c.as_written} ({c.resolution})"), "unresolved",
                        nodes[a].layer + (0.5 if nodes[a].layer >= 0 else -0.5), c.path,
                        (c.line, c.line), c.as_written,
                        hover=f"{c.as_written}: {c.resolution}<br>called at {c.path}:{c.line}")
        out[(a, k)] = Edge(a, k, 1, {c.resolution}, unresolved=True)
    view = ChainView(nodes, out, collapse)
    _cap(view, root_key=key_of[root_id], max_nodes=max_nodes)
    view.groups = {k: n for k, n in groups.items() if k in view.nodes}
    return view


def _key(sym, i: int, root_id: int, collapse: str, expanded) -> str:
    if i == root_id:
        return ROOT
    g = _group_of(sym, collapse)
    if g is None or g[0] in expanded:
        return f"sym:{i}"
    return g[0]


def _cap(view: ChainView, root_key: str, max_nodes: int) -> None:
    """Fold the nodes beyond `max_nodes` (farthest from the start, then least connected)
    into one "+N more" node per layer."""
    if len(view.nodes) <= max_nodes:
        return
    degree = defaultdict(int)
    for (a, b), e in view.edges.items():
        degree[a] += e.calls
        degree[b] += e.calls
    ranked = sorted(view.nodes.values(), key=lambda n: (
        n.key != root_key, n.kind == "unresolved", abs(n.layer), -degree[n.key], n.label))
    keep = {n.key for n in ranked[:max(1, max_nodes - 1)]}
    more: dict[float, Node] = {}
    moved: dict[str, str] = {}
    for n in ranked:
        if n.key in keep:
            continue
        m = more.get(n.layer)
        if m is None:
            m = more[n.layer] = Node(f"more:{n.layer}", "", "more", n.layer)
        m.members += n.members or [n.key]
        moved[n.key] = m.key
        view.hidden_nodes += max(1, len(n.members)) if n.kind != "unresolved" else 1
        del view.nodes[n.key]
    for m in more.values():
        m.label = f"+{len(m.members)} more"
        m.hover = f"{len(m.members)} more at this depth, not drawn (raise the node cap to see them)"
        view.nodes[m.key] = m
    edges: dict[tuple, Edge] = {}
    for (a, b), e in view.edges.items():
        a2, b2 = moved.get(a, a), moved.get(b, b)
        if a2 == b2:
            continue
        x = edges.setdefault((a2, b2), Edge(a2, b2, unresolved=e.unresolved))
        x.calls += e.calls
        x.resolutions |= e.resolutions
        x.cycle = x.cycle or e.cycle
        x.unresolved = x.unresolved and e.unresolved
    view.edges = edges


# ---------------------------------------------------------------- layout

def layered_layout(view: ChainView) -> dict:
    """{node key: (x, y)}: one column per layer (x = layer), each column's nodes spaced
    one unit apart and centred, ordered by the mean position of their neighbours in the
    column nearer the start (a barycentre sweep outwards from the start)."""
    cols: dict[float, list] = defaultdict(list)
    for n in view.nodes.values():
        cols[n.layer].append(n.key)
    nbrs = defaultdict(set)
    for a, b in view.edges:
        nbrs[a].add(b)
        nbrs[b].add(a)
    pos: dict[str, tuple] = {}

    def place(layer: float, order: list) -> None:
        h = len(order)
        for k, key in enumerate(order):
            pos[key] = (layer, (h - 1) / 2 - k)

    def sweep(layers: list) -> None:
        for lay in layers:
            keys = cols[lay]

            def bary(key):
                ys = [pos[o][1] for o in nbrs[key] if o in pos]
                return (-(sum(ys) / len(ys)) if ys else 0.0, view.nodes[key].kind == "more",
                        view.nodes[key].label)
            place(lay, sorted(keys, key=bary))

    zero = [k for k in cols.get(0, [])]
    place(0, sorted(zero, key=lambda k: (k != ROOT, view.nodes[k].label)))
    sweep(sorted(lay for lay in cols if lay > 0))
    sweep(sorted((lay for lay in cols if lay < 0), reverse=True))
    return pos
