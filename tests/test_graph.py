"""Call graph on the sample repositories: resolution, queries, re-indexing."""
from __future__ import annotations

import json
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

import workbench
from workbench import graph, store
from workbench.resolve import RESOLUTIONS, resolve_edges

SAMPLES = Path(__file__).resolve().parent.parent / "sample_repos"


@pytest.fixture(scope="module")
def pyshop(tmp_path_factory):
    db = tmp_path_factory.mktemp("graph") / "pyshop.duckdb"
    wb = workbench.index(SAMPLES / "pyshop", db=str(db), progress=False)
    yield wb
    wb.close()


def _callers(wb, symbol, **kw):
    return {(s.caller, s.path, s.line, s.resolution) for s in wb.find_callers(symbol, **kw)}


# ---------------------------------------------------------------- acceptance on pyshop

def test_caller_through_init_reexport_under_an_alias_is_found(pyshop):
    sites = wb_sites = pyshop.find_callers("shop.pricing.compute_total")
    by_caller = {s.caller: s for s in wb_sites}
    # orders.py: `from shop import compute_total as ct` ... `ct(...)`
    assert by_caller["shop.orders.Order.recalculate"].as_written == "ct"
    assert by_caller["shop.orders.Order.recalculate"].resolution == "reexport"
    # notify/email.py: `from shop.util import total_price` (util re-exports it renamed)
    assert by_caller["shop.notify.email.EmailNotifier.render_body"].as_written == "total_price"
    # the direct caller and the call inside a lambda are there too
    assert "shop.inventory.reserve" in by_caller
    assert "shop.orders.largest_orders.<lambda1>" in by_caller
    assert all(s.path != "shop/util/legacy.py" for s in sites)


def test_same_named_function_in_another_module_is_not_confused(pyshop):
    new = {s.caller for s in pyshop.find_callers("shop.pricing.compute_total")}
    old = {s.caller for s in pyshop.find_callers("shop.util.legacy.compute_total")}
    assert old == {"shop.cli.main", "shop.util.legacy.legacy_invoice",
                   "tests.test_orders.test_legacy_total_is_not_the_new_one"}
    assert not new & old
    with pytest.raises(graph.AmbiguousSymbol) as exc:
        pyshop.find_callers("compute_total")
    assert {m.qualname for m in exc.value.matches} == {"shop.pricing.compute_total",
                                                       "shop.util.legacy.compute_total"}


def test_recursion_cycles_terminate_in_trace_call_chain(pyshop):
    chain = pyshop.trace_call_chain("shop.inventory.flatten_categories", depth=10)
    assert [(e.src, e.dst, e.cycle) for e in chain] == [
        ("shop.inventory.flatten_categories", "shop.inventory.flatten_categories", True)]
    mutual = pyshop.trace_call_chain("shop.pricing.price_of", depth=10)
    cyc = [e for e in mutual if e.cycle]
    assert [(e.src, e.dst) for e in cyc] == [("shop.pricing.bundle_price", "shop.pricing.price_of")]
    assert max(e.depth for e in mutual) <= 4
    up = pyshop.trace_call_chain("shop.pricing.bundle_price", depth=10, direction="up")
    assert any(e.cycle for e in up)
    both = pyshop.trace_call_chain("shop.pricing.bundle_price", depth=2, direction="both")
    assert {e.direction for e in both} == {"down", "up"}


def test_long_chain_from_cli_main(pyshop):
    chain = pyshop.trace_call_chain("shop.cli.main", depth=5)
    reached = {(e.src, e.dst) for e in chain}
    for pair in [("shop.cli.main", "shop.orders.place_order"),
                 ("shop.orders.place_order", "shop.inventory.reserve"),
                 ("shop.inventory.reserve", "shop.pricing.compute_total"),
                 ("shop.pricing.compute_total", "shop.pricing.apply_discount"),
                 ("shop.pricing.apply_discount", "shop.pricing.clamp_rate")]:
        assert pair in reached


def test_unresolved_and_ambiguous_calls_are_reported_as_such(pyshop):
    callees = {s.as_written: s for s in pyshop.find_callees("shop.cli.run_plugin")}
    dyn = callees["getattr(mod, func_name)"]
    assert dyn.resolution == "unresolved" and dyn.callee_id is None
    handler = {s.as_written: s for s in pyshop.find_callees("shop.orders.Order.transition")}["handler"]
    assert handler.resolution == "ambiguous" and handler.callee_id is None
    assert handler.candidates == ["shop.orders._on_cancelled", "shop.orders._on_paid",
                                  "shop.orders._on_shipped"]
    # an ambiguous site is listed among the callers of each candidate, marked as such
    sites = pyshop.find_callers("shop.orders._on_paid")
    assert [(s.caller, s.resolution) for s in sites] == [("shop.orders.Order.transition", "ambiguous")]
    assert pyshop.find_callers("shop.orders._on_paid", include_ambiguous=False) == []
    # no unresolved edge carries a target
    bad = pyshop.sql("""SELECT count(*) FROM edges WHERE kind = 'calls'
                        AND resolution IN ('unresolved', 'ambiguous') AND dst_id IS NOT NULL""").fetchall()
    assert bad == [(0,)]


def test_every_resolution_label_is_documented(pyshop):
    used = {r[0] for r in pyshop.sql("SELECT DISTINCT resolution FROM edges").fetchall()}
    assert used <= set(RESOLUTIONS) | {"local"}


def test_import_edges_and_resolved_paths(pyshop):
    rows = dict(((p, m, n), r) for p, m, n, r in pyshop.sql(
        "SELECT path, module, name, resolved_path FROM imports").fetchall())
    assert rows[("shop/orders.py", "shop", "compute_total")] == "shop/__init__.py"
    assert rows[("shop/orders.py", ".", "inventory")] == "shop/inventory.py"
    assert rows[("shop/orders.py", "asyncio", None)] is None
    imp = dict(((p, d), (q, r)) for p, d, q, r in pyshop.sql(
        "SELECT path, dst_name, dst_qualname, resolution FROM edges WHERE kind = 'imports'").fetchall())
    assert imp[("shop/orders.py", "shop.compute_total")] == ("shop.pricing.compute_total", "reexport")
    assert imp[("shop/orders.py", "functools.partial")] == ("functools.partial", "external")


def test_super_self_and_constructor_edges(pyshop):
    callees = {s.as_written: s for s in pyshop.find_callees("shop.orders.Order.__init__")}
    assert callees["super().__init__"].callee == "shop.models.Entity.__init__"
    assert callees["super().__init__"].resolution == "super"
    assert callees["super"].resolution == "builtin"
    place = {s.as_written: s for s in pyshop.find_callees("shop.orders.place_order")}
    assert place["Order"].callee == "shop.orders.Order.__init__"
    assert place["notifier.order_placed"].callee == "shop.notify.email.EmailNotifier.order_placed"
    # a class's callers include its instantiations
    assert "shop.orders.place_order" in {s.caller for s in pyshop.find_callers("shop.orders.Order")}


def test_find_definition_ranks_exact_then_suffix_then_name(pyshop):
    defs = pyshop.find_definition("pricing.compute_total")
    assert defs[0].qualname == "shop.pricing.compute_total" and defs[0].match == "suffix"
    assert [d.match for d in pyshop.find_definition("shop.pricing.compute_total")][:1] == ["qualname"]
    assert {d.qualname for d in pyshop.find_definition("compute_total")} == {
        "shop.pricing.compute_total", "shop.util.legacy.compute_total"}
    assert pyshop.find_definition("no_such_thing") == []


def test_architecture_overview_and_impact(pyshop):
    arch = pyshop.get_architecture_overview("shop")
    names = {u.name for u in arch.units}
    assert {"shop/orders.py", "shop/util/", "shop/notify/"} <= names
    dep = {(d.src, d.dst): d for d in arch.dependencies}
    assert dep[("shop/orders.py", "shop/pricing.py")].calls >= 1
    assert any(e.qualname == "shop.cli.main" for e in arch.entry_points)
    top = pyshop.get_architecture_overview(".")
    assert {u.name for u in top.units} == {"shop/", "tests/"}
    hit = {i.qualname: i for i in pyshop.impact(["shop/pricing.py"], depth=2)}
    assert hit["shop.orders.Order.recalculate"].depth == 1
    assert hit["shop.orders.place_order"].depth == 2
    assert all(not q.startswith("shop.pricing.") for q in hit)


def test_sql_macros_match_the_python_api(pyshop):
    sql = {(c, p, ln, r) for c, p, ln, _w, r, _t in pyshop.sql(
        "SELECT * FROM find_callers('shop.pricing.compute_total')").fetchall()}
    assert sql == _callers(pyshop, "shop.pricing.compute_total")
    chain = pyshop.sql("SELECT depth, caller, callee, cycle FROM trace_call_chain('shop.pricing.price_of', 5)").fetchall()
    assert (2, "shop.pricing.bundle_price", "shop.pricing.price_of", True) in chain
    up = pyshop.sql("SELECT caller FROM trace_call_chain('shop.pricing.clamp_rate', 1, 'up')").fetchall()
    assert {r[0] for r in up} == {"shop.pricing.apply_discount"}
    both = pyshop.sql("SELECT DISTINCT direction FROM trace_call_chain('shop.pricing.bundle_price', 2, "
                      "direction := 'both')").fetchall()
    assert sorted(both) == [("down",), ("up",)]
    assert pyshop.sql("SELECT count(*) FROM find_callees('shop.orders.place_order')").fetchall()[0][0] >= 3
    assert pyshop.sql("SELECT qualname FROM find_definition('clamp_rate')").fetchall() == [("shop.pricing.clamp_rate",)]
    assert pyshop.sql("SELECT count(*) FROM call_edges").fetchall()[0][0] > 100


def test_cli_twins(tmp_path):
    """Each call-graph command prints exactly the text of the agent tool of the same name."""
    from workbench.views import call
    db = str(tmp_path / "cli.duckdb")
    wb = workbench.index(SAMPLES / "pyshop", db=db, progress=False)

    def run(*args):
        return subprocess.run([sys.executable, "-m", "workbench.cli", *args], capture_output=True,
                              text=True, check=False)
    cases = [("find_callers", ["shop.pricing.compute_total"], {"symbol": "shop.pricing.compute_total"}),
             ("find_callers", ["compute_total"], {"symbol": "compute_total"}),
             ("find_callees", ["shop.orders.place_order"], {"symbol": "shop.orders.place_order"}),
             ("trace_call_chain", ["price_of", "--depth", "5", "--direction", "both"],
              {"symbol": "price_of", "depth": 5, "direction": "both"}),
             ("get_architecture_overview", ["--directory", "shop"], {"directory": "shop"}),
             ("impact", ["shop/pricing.py"], {"paths": ["shop/pricing.py"]}),
             ("find_definition", ["pricing.compute_total"], {"symbol": "pricing.compute_total"})]
    try:
        texts = {name + str(args): call(wb, name, args).text for name, _, args in cases}
    finally:
        wb.close()
    for name, argv, args in cases:
        out = run(name, db, *argv)
        assert out.returncode == 0, out.stderr
        assert out.stdout == texts[name + str(args)] + "\n"
    assert "shop.orders.Order.recalculate" in texts["find_callers" + str(cases[0][2])]
    assert "shop.util.legacy.compute_total" in texts["find_callers" + str(cases[1][2])]
    assert "(recursive)" in texts["trace_call_chain" + str(cases[3][2])]
    assert "shop.orders.Order.recalculate" in texts["impact" + str(cases[5][2])]
    js = run("find_callees", db, "shop.orders.place_order", "--json")
    assert json.loads(js.stdout)["data"]["callees"][0]["line"] > 0
    tool = run("tool", db, "find_callers", "symbol=shop.pricing.compute_total")
    assert tool.stdout == texts["find_callers" + str(cases[0][2])] + "\n"


# ---------------------------------------------------------------- other languages

@pytest.mark.parametrize("repo,caller,callee,how", [
    ("tsapp", "src.bootstrap", "src.utils.format.formatName", "reexport"),          # barrel + rename
    ("tsapp", "src.bootstrap", "src.services.userService.UserService.init", "inferred"),
    ("tsapp", "src.services.userService.UserService.init", "src.services.baseService.BaseService.log", "self"),
    ("tsapp", "src.legacy.server.LegacyServer.log", "src.legacy.config.ConfigStore.get", "inferred"),
    ("javaservice", "com.example.inventory.Application.seed",
     "com.example.inventory.service.ProductService.addProduct", "inferred"),
    ("javaservice", "com.example.inventory.Application.seed",
     "com.example.inventory.model.Category.fromLabel", "import"),
    ("goservice", "internal.api.Handler.GetItem", "internal.store.Store.Get", "inferred"),
    ("goservice", "cmd.server.main", "internal.store.NewStore", "import"),
    ("goservice", "internal.store.Store.Get", "internal.store.Backend.Load", "inferred"),
    # Rust: impl blocks belong to their type, `Self::`, `self.`, module paths, `use`, macros
    ("rustlib", "src.shapes.Circle.unit", "src.shapes.Circle.new", "self"),
    ("rustlib", "src.shapes.Circle.scaled", "src.shapes.Circle.new", "local"),
    ("rustlib", "src.shapes.Shape.compactness", "src.shapes.Shape.area", "self"),
    ("rustlib", "src.lib.total_area", "src.util.sum_by", "local"),
    ("rustlib", "src.lib.biggest_name", "src.util.largest", "import"),
    ("rustlib", "src.shapes.Rect.kind", "src.util.approx_eq", "local"),
])
def test_other_languages_resolve_evident_calls(tmp_path, repo, caller, callee, how):
    wb = workbench.index(SAMPLES / repo, db=str(tmp_path / f"{repo}.duckdb"), progress=False)
    try:
        sites = [s for s in wb.find_callees(caller) if s.callee == callee]
        assert sites, [(s.as_written, s.callee, s.resolution) for s in wb.find_callees(caller)]
        assert sites[0].resolution == how
    finally:
        wb.close()


def test_c_calls_through_included_headers(tmp_path):
    """C links functions by name: a call reaches the one definition (not the header's
    prototype) when the caller includes a header that declares it; libc is builtin."""
    wb = workbench.index(SAMPLES / "cnative", db=str(tmp_path / "c.duckdb"), progress=False)
    try:
        calls = {(r[0], r[1], r[2]): r[3:] for r in wb.sql(
            """SELECT path, dst_name, line, resolution, dst_qualname FROM edges
               WHERE kind = 'calls'""").fetchall()}
        assert calls[("src/main.c", "vec_get", 16)] == ("import", "src.vec.vec_get")
        assert calls[("src/main.c", "VEC_LEN", 15)] == ("import", "include.vec.VEC_LEN")   # a macro
        assert calls[("src/main.c", "printf", 17)] == ("builtin", "printf")
        assert calls[("src/vec.c", "realloc", 10)] == ("builtin", "realloc")
        assert calls[("cpp/geometry.cpp", "std::accumulate", 61)] == ("external", "std.accumulate")
        assert calls[("cpp/geometry.cpp", "max_of", 23)] == ("import", "cpp.geometry.geo.max_of")
    finally:
        wb.close()


def test_rust_macros_prelude_and_imports(tmp_path):
    wb = workbench.index(SAMPLES / "rustlib", db=str(tmp_path / "r.duckdb"), progress=False)
    try:
        calls = {(r[0], r[1]): r[2:] for r in wb.sql(
            """SELECT dst_name, line, resolution, dst_qualname FROM edges
               WHERE kind = 'calls' AND path = 'src/lib.rs'""").fetchall()}
        assert calls[("shapes!", 29)] == ("inferred", "src.util.shapes")     # a macro_rules! of the crate
        assert calls[("assert!", 30)] == ("builtin", "assert!")
        imports = dict(wb.sql("SELECT dst_name, resolution FROM edges WHERE kind = 'imports'").fetchall())
        assert imports["shapes.Circle"] == "import" and imports["util.MAX_SHAPES"] == "import"
        assert imports["std.fmt"] == "external"
        paths = dict(wb.sql("SELECT module || '::' || name, resolved_path FROM imports").fetchall())
        assert paths["shapes::Circle"] == "src/shapes.rs" and paths["std::fmt"] is None
    finally:
        wb.close()


# ---------------------------------------------------------------- re-indexing

def _snapshot(con):
    return store.run(con, """SELECT edge_id, dst_id, dst_qualname, resolution, candidates FROM edges
                             WHERE kind <> 'contains' ORDER BY edge_id""") + store.run(
        con, "SELECT edge_id, qualname, symbol_id, NULL, NULL FROM call_candidates ORDER BY ALL")


def _assert_incremental_equals_full(wb):
    before = _snapshot(wb.con)
    resolve_edges(wb.con, None)                  # everything from scratch
    after = _snapshot(wb.con)
    diff = [(x, y) for x, y in zip(before, after) if x != y]
    assert diff == [], "incremental resolution left rows that a full run changes"


def _no_stale_targets(wb):
    return wb.sql("""SELECT e.path, e.line, e.dst_name FROM edges e LEFT JOIN symbols s ON s.symbol_id = e.dst_id
                     WHERE e.dst_id IS NOT NULL AND s.symbol_id IS NULL""").fetchall()


@pytest.fixture()
def shop_copy(tmp_path):
    root = tmp_path / "pyshop"
    shutil.copytree(SAMPLES / "pyshop", root)
    wb = workbench.index(root, db=str(tmp_path / "copy.duckdb"), progress=False,
                         read_only=False)        # the tests re-resolve through wb.con
    yield root, wb
    wb.close()


def _edit(path: Path, old: str, new: str) -> None:
    text = path.read_text()
    assert old in text
    path.write_text(text.replace(old, new))


def test_reindex_drops_resolution_into_a_renamed_function(shop_copy):
    root, wb = shop_copy
    assert wb.find_callers("shop.pricing.compute_total")
    _edit(root / "shop/pricing.py", "def compute_total(", "def compute_sum(")
    _edit(root / "shop/pricing.py", "    return round_price", "    return round_price")
    report = wb.reindex(progress=False)
    assert report.changed_paths == ["shop/pricing.py"]
    assert _no_stale_targets(wb) == []
    assert wb.find_definition("shop.pricing.compute_total") == []
    ct = [s for s in wb.find_callees("shop.orders.Order.recalculate") if s.as_written == "ct"][0]
    assert ct.callee_id is None and ct.resolution == "unresolved"
    imp = wb.sql("SELECT resolution FROM edges WHERE path = 'shop/orders.py' AND kind = 'imports' "
                 "AND dst_name = 'shop.compute_total'").fetchall()
    assert imp == [("unresolved",)]
    _assert_incremental_equals_full(wb)
    # and back again: the callers come back with their labels
    _edit(root / "shop/pricing.py", "def compute_sum(", "def compute_total(")
    wb.reindex(progress=False)
    assert ("shop.orders.Order.recalculate", "shop/orders.py", 47, "reexport") in _callers(wb, "shop.pricing.compute_total")
    _assert_incremental_equals_full(wb)


def test_reindex_drops_edges_into_a_deleted_file(shop_copy):
    root, wb = shop_copy
    (root / "shop/util/legacy.py").unlink()
    report = wb.reindex(progress=False)
    assert report.removed == 1
    assert _no_stale_targets(wb) == []
    main = {s.as_written: s for s in wb.find_callees("shop.cli.main")}
    assert main["legacy.compute_total"].callee_id is None
    _assert_incremental_equals_full(wb)


def test_reindex_resolves_a_new_definition_and_moved_method(shop_copy):
    root, wb = shop_copy
    # a new module the old code did not import: nothing changes for others
    (root / "shop/extra.py").write_text("def clamp_rate(x):\n    return x\n")
    # a base class gains a method that a subclass's self-call now reaches through the MRO
    _edit(root / "shop/notify/__init__.py", "    def order_shipped(self, order):",
          "    def log(self, text):\n        return text\n\n    def order_shipped(self, order):")
    _edit(root / "shop/notify/email.py", "        return self.send(order.customer.email, f\"Order #{order.id} shipped\"",
          "        self.log('x')\n        return self.send(order.customer.email, f\"Order #{order.id} shipped\"")
    wb.reindex(progress=False)
    log = [s for s in wb.find_callees("shop.notify.email.EmailNotifier.order_shipped") if s.as_written == "self.log"]
    assert log[0].callee == "shop.notify.Notifier.log" and log[0].resolution == "self"
    # apply_discount still calls its own module's clamp_rate, not the new same-named one
    assert {s.callee for s in wb.find_callees("shop.pricing.apply_discount")} == {"shop.pricing.clamp_rate"}
    _assert_incremental_equals_full(wb)
    # the base method moves out of the base class: the subclass's call must not keep it
    _edit(root / "shop/notify/__init__.py", "    def log(self, text):\n        return text\n\n", "")
    wb.reindex(progress=False)
    log = [s for s in wb.find_callees("shop.notify.email.EmailNotifier.order_shipped") if s.as_written == "self.log"]
    assert log[0].callee_id is None
    assert _no_stale_targets(wb) == []
    _assert_incremental_equals_full(wb)


def test_unchanged_reindex_does_not_resolve_again(shop_copy):
    root, wb = shop_copy
    report = wb.reindex(progress=False)
    assert report.changed_paths == []
    assert resolve_edges(wb.con, []).edges == 0


# ---------------------------------------------------------------- cycles, bounded

def test_import_cycles_are_components_largest_first_however_many_simple_cycles(tmp_path):
    """Twelve modules importing each other hold billions of simple cycles (what a path-walking
    query or nx.simple_cycles enumerates); as strongly connected components they are one."""
    from workbench.graph import call_cycles, import_cycles, strongly_connected
    pkg = tmp_path / "p"
    pkg.mkdir()
    (pkg / "__init__.py").write_text("", encoding="utf-8")
    names = [f"m{i:02d}" for i in range(12)]
    for n in names:
        others = "".join(f"from p import {o}\n" for o in names if o != n)
        (pkg / f"{n}.py").write_text(others + f"\n\ndef f_{n}():\n    return 1\n", encoding="utf-8")
    ring = ["a", "b", "c"]                      # a -> b -> c -> a
    for i, n in enumerate(ring):
        (pkg / f"{n}.py").write_text(f"from p import {ring[(i + 1) % 3]}\n\n\ndef go(k):\n"
                                     f"    return {ring[(i + 1) % 3]}.go(k - 1) if k else 0\n", encoding="utf-8")
    (pkg / "leaf.py").write_text("from p import a\n", encoding="utf-8")          # on no cycle
    (pkg / "rec.py").write_text("def down(n):\n    return down(n - 1) if n else 0\n", encoding="utf-8")
    with workbench.index(tmp_path, db=str(tmp_path / "c.duckdb"), progress=False, jobs=1) as wb:
        page = import_cycles(wb.con)
        assert page.total == 2 and [c.size for c in page] == [12, 3]
        assert page[0].members == [f"p/{n}.py" for n in names] and page[0].edges == 12 * 11
        assert page[1].members == ["p/a.py", "p/b.py", "p/c.py"]
        assert "p/leaf.py" not in {m for c in page for m in c.members}
        one = import_cycles(wb.con, limit=1)
        assert len(one) == 1 and one.total == 2 and one.rest == 1
        calls = {tuple(c.members) for c in call_cycles(wb.con)}
        assert ("p.a.go", "p.b.go", "p.c.go") in calls and ("p.rec.down",) in calls
    assert strongly_connected([(1, 2), (2, 3)]) == []
    big = [(i, j) for i in range(300) for j in range(300) if i != j]       # 89,700 edges, one component
    assert [len(c) for c in strongly_connected(big)] == [300]
