"""The package's imports go one way: no module imports a higher layer, and no modules import
each other in a cycle (lazy imports inside functions count too: they are dependencies)."""
from __future__ import annotations

import ast
from pathlib import Path

PACKAGE = Path(__file__).resolve().parent.parent / "workbench"

# Lowest first. A module belongs to the first layer with a prefix matching its dotted name
# (a package's prefix covers its submodules). A module may import its own layer or lower.
LAYERS = [
    ("data", ["workbench.languages", "workbench.schema", "workbench.gcpause", "workbench.versions",
              "workbench.locations", "workbench.safeio"]),
    ("vocabulary and parsing", ["workbench.vocab", "workbench.exprs", "workbench.scan",
                                "workbench.shapes", "workbench.compiled_queries", "workbench.bindrows",
                                "workbench.extract"]),
    ("store", ["workbench.store", "workbench.snapshot", "workbench.attach", "workbench.calllog",
               "workbench.rowcache", "workbench.insert"]),
    ("resolution", ["workbench.resolve", "workbench.stats"]),
    ("index and queries", ["workbench.indexer", "workbench.readahead", "workbench.callgraph",
                           "workbench.graph"]),
    ("views", ["workbench.views"]),
    ("tasks and evaluation", ["workbench.tasks", "workbench.eval"]),
    ("api", ["workbench.api", "workbench.corpus"]),
    ("faces", ["workbench.widgets", "workbench.plots", "workbench.chainview", "workbench.cli",
               "workbench.notebooks", "workbench.server", "workbench"]),
]


def module_name(path: Path, root: Path) -> str:
    rel = path.relative_to(root.parent).with_suffix("")
    parts = list(rel.parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def modules(root: Path) -> dict[str, Path]:
    return {module_name(p, root): p for p in sorted(root.rglob("*.py"))}


def imports_of(name: str, path: Path, known: set[str], pkg: str) -> set[str]:
    """The package's modules `name` imports anywhere in its code."""
    is_pkg = path.name == "__init__.py"
    out = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            targets = [a.name for a in node.names]
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = name.split(".") if is_pkg else name.split(".")[:-1]
                base = base[:len(base) - (node.level - 1)]
                mod = ".".join(base + ([node.module] if node.module else []))
            else:
                mod = node.module or ""
            targets = [f"{mod}.{a.name}" if f"{mod}.{a.name}" in known else mod for a in node.names]
        else:
            continue
        for t in targets:
            while t and t not in known and "." in t:
                t = t.rsplit(".", 1)[0]
            if t in known and t != name and (t == pkg or t.startswith(pkg + ".")):
                out.add(t)
    return out


def layer_of(name: str, layers=LAYERS) -> int:
    for i, (_, prefixes) in enumerate(layers):
        for p in prefixes:
            if name == p or name.startswith(p + "."):
                return i
    raise AssertionError(f"{name} is in no layer: add it to LAYERS")


def check(root: Path, layers=LAYERS) -> tuple[list[str], list[list[str]]]:
    """(upward imports as 'a -> b' texts, import cycles as module lists)."""
    mods = modules(root)
    pkg = root.name
    graph = {m: imports_of(m, p, set(mods), pkg) for m, p in mods.items()}
    upward = sorted(f"{a} ({layers[layer_of(a, layers)][0]}) -> {b} ({layers[layer_of(b, layers)][0]})"
                    for a, deps in graph.items() for b in deps
                    if layer_of(b, layers) > layer_of(a, layers))
    # every strongly connected component of more than one module is a cycle
    from workbench.graph import strongly_connected
    cycles = sorted(sorted(c) for c in strongly_connected((a, b) for a, deps in graph.items() for b in deps)
                    if len(c) > 1)
    return upward, cycles


def test_no_module_imports_a_higher_layer_and_there_are_no_cycles():
    upward, cycles = check(PACKAGE)
    assert upward == [], "imports against the layer order:\n" + "\n".join(upward)
    assert cycles == [], f"import cycles: {cycles}"


def test_every_module_has_a_layer():
    for name in modules(PACKAGE):
        layer_of(name)


def test_the_check_finds_a_cycle_and_an_upward_import(tmp_path):
    pkg = tmp_path / "workbench"
    (pkg / "views").mkdir(parents=True)
    (pkg / "__init__.py").write_text("")
    (pkg / "store.py").write_text("def connect():\n    from .graph import install_sql\n")
    (pkg / "graph.py").write_text("from . import store\n")
    (pkg / "views" / "__init__.py").write_text("")
    (pkg / "views" / "tools.py").write_text("from .graph_tools import x\n")
    (pkg / "views" / "graph_tools.py").write_text("from .tools import tool\nfrom ..cli import main\n")
    (pkg / "cli.py").write_text("from .views import tools\n")
    layers = [("store", ["workbench.store"]), ("queries", ["workbench.graph"]),
              ("views", ["workbench.views"]), ("faces", ["workbench.cli", "workbench"])]
    upward, cycles = check(pkg, layers)
    assert upward == ["workbench.store (store) -> workbench.graph (queries)",
                      "workbench.views.graph_tools (views) -> workbench.cli (faces)"]
    assert sorted(cycles) == [["workbench.cli", "workbench.views.graph_tools", "workbench.views.tools"],
                              ["workbench.graph", "workbench.store"]]
