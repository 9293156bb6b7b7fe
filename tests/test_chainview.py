"""The call-chain view model: qualified labels, collapsing by class or file with
expansion, the node cap with its "+N more" nodes, and the layered layout."""
from __future__ import annotations

from workbench import chainview
from workbench.graph import ChainEdge, Symbol


def _sym(i, qualname, kind="method", path="pkg/a.py"):
    return Symbol(i, qualname, qualname.rsplit(".", 1)[-1], kind, path, i * 10, i * 10 + 5)


def _fan(n_methods: int = 30, n_funcs: int = 30):
    """A root function calling the methods of one class (depth 1), each calling a function
    in its own file (depth 2)."""
    syms = {1: _sym(1, "pkg.a.main", "function")}
    edges = []
    for k in range(n_methods):
        m = 100 + k
        syms[m] = _sym(m, f"pkg.b.Big.__init__" if k == 0 else f"pkg.b.Big.m{k}", path="pkg/b.py")
        edges.append(ChainEdge("down", 1, 1, "pkg.a.main", m, syms[m].qualname, "pkg/a.py", 3, "self", False))
    for k in range(n_funcs):
        f = 500 + k
        syms[f] = _sym(f, f"pkg.f{k}.helper", "function", path=f"pkg/f{k}.py")
        src = 100 + (k % n_methods)
        edges.append(ChainEdge("down", 2, src, syms[src].qualname, f, syms[f].qualname, "pkg/b.py", 9,
                               "import", False))
    return edges, syms


def test_labels_are_qualified_and_unique():
    syms = {1: _sym(1, "pkg.a.Style.__init__"), 2: _sym(2, "pkg.b.Text.__init__"),
            3: _sym(3, "pkg.a.render", "function"), 4: _sym(4, "pkg.b.render", "function"),
            5: _sym(5, "pkg.c.Style.__init__"), 6: _sym(6, "pkg.live", "module")}
    labels = chainview.qualified_labels(syms)
    assert labels[2] == "Text.__init__"                       # never a bare __init__
    assert labels[3] == "a.render" and labels[4] == "b.render"    # lengthened until unique
    assert labels[1] == "a.Style.__init__" and labels[5] == "c.Style.__init__"
    assert labels[6] == "pkg.live"                            # a module by its full name


def test_small_chain_is_drawn_as_is():
    edges, syms = _fan(3, 3)
    view = chainview.build(edges, 1, syms, max_nodes=40)
    assert view.collapse == "none" and view.hidden_nodes == 0 and not view.groups
    assert len(view.nodes) == 7 and {n.label for n in view.nodes.values()} >= {"Big.__init__", "Big.m1"}


def test_collapse_by_class_and_expand_one_group():
    edges, syms = _fan(30, 5)
    view = chainview.build(edges, 1, syms, collapse="class", max_nodes=40)
    assert view.groups == {"class:pkg.b.Big": 30}
    big = view.nodes["class:pkg.b.Big"]
    assert big.label == "Big [30]" and big.layer == 1 and len(big.members) == 30
    assert ("root", "class:pkg.b.Big") in view.edges and view.edges[("root", "class:pkg.b.Big")].calls == 30
    opened = chainview.build(edges, 1, syms, collapse="class", expanded={"class:pkg.b.Big"}, max_nodes=100)
    assert not opened.groups and len(opened.nodes) == 1 + 30 + 5


def test_auto_collapses_only_when_over_the_cap():
    edges, syms = _fan(30, 30)
    assert chainview.build(edges, 1, syms, max_nodes=100).collapse == "none"
    view = chainview.build(edges, 1, syms, max_nodes=40)
    assert view.collapse == "class" and len(view.nodes) <= 40


def test_node_cap_folds_the_farthest_into_n_more_per_layer():
    edges, syms = _fan(30, 30)
    view = chainview.build(edges, 1, syms, collapse="none", max_nodes=20)
    assert len(view.nodes) <= 20 + 2                          # the kept ones plus one "more" per layer
    more = [n for n in view.nodes.values() if n.kind == "more"]
    assert more and all(n.label == f"+{len(n.members)} more" for n in more)
    assert view.hidden_nodes == sum(len(n.members) for n in more) == 61 - 19
    kept_depth2 = [n for n in view.nodes.values() if n.kind == "symbol" and n.layer == 2]
    assert kept_depth2 == []                                  # nearer nodes are kept first
    assert "more not drawn" in view.summary()
    for (a, b) in view.edges:                                 # every edge ends at a drawn node
        assert a in view.nodes and b in view.nodes


def test_layered_layout_one_column_per_depth_without_overlap():
    edges, syms = _fan(6, 6)
    up = [ChainEdge("up", 1, 900, "pkg.z.caller", 1, "pkg.a.main", "pkg/z.py", 1, "import", False)]
    syms[900] = _sym(900, "pkg.z.caller", "function", "pkg/z.py")
    view = chainview.build(edges + up, 1, syms, max_nodes=40)
    pos = chainview.layered_layout(view)
    assert pos["root"][0] == 0 and pos["sym:900"][0] == -1
    assert {pos[f"sym:{100 + k}"][0] for k in range(6)} == {1}
    assert {pos[f"sym:{500 + k}"][0] for k in range(6)} == {2}
    assert len(set(pos.values())) == len(pos)                 # no two nodes on one point
