"""Rust extraction (workbench/languages/rust.scm) on sample_repos/rustlib: expected rows
checked by hand against the source. impl blocks are named by their type, so methods read
`<module>.Circle.area`; `#[...]` attributes belong to the item below them."""
from __future__ import annotations

import pytest

from extract_expect import sample, snippet

LIB = "src/lib.rs"
SHAPES = "src/shapes.rs"
UTIL = "src/util.rs"


def rs(path):
    return sample("rustlib", path, "rust")


# (file, kind, qualname, start_line, end_line, signature, doc)
EXPECTED = [
    (SHAPES, "trait", "src.shapes.Shape", 7, 28, "pub trait Shape", "Anything that has an area and a perimeter."),
    (SHAPES, "method", "src.shapes.Shape.area", 9, 9, "fn area(&self) -> f64",
     "Returns the area enclosed by the shape."),
    (SHAPES, "method", "src.shapes.Shape.name", 15, 17, "fn name(&self) -> String",
     "Returns a human readable name; implementors may override it."),
    (SHAPES, "enum", "src.shapes.ShapeKind", 31, 37, "pub enum ShapeKind",
     "The kinds of shape this crate knows about."),
    (SHAPES, "struct", "src.shapes.Circle", 40, 45, "pub struct Circle",
     "A circle given by its centre and radius."),
    (SHAPES, "field", "src.shapes.Circle.radius", 44, 44, "pub radius: f64", None),
    (SHAPES, "method", "src.shapes.Circle.new", 49, 51, "pub fn new(x: f64, y: f64, radius: f64) -> Self",
     "Creates a circle; a negative radius is clamped to zero."),
    (SHAPES, "method", "src.shapes.Circle.area", 64, 66, "fn area(&self) -> f64", None),
    (SHAPES, "method", "src.shapes.Rect.fmt", 116, 118,
     "fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result", None),
    (UTIL, "constant", "src.util.MAX_SHAPES", 4, 4, "pub const MAX_SHAPES: usize = 1024",
     "Upper bound on the number of shapes a single scene may hold."),
    (UTIL, "variable", "src.util.EPSILON", 7, 7, "pub static EPSILON: f64 = 1e-9",
     "Relative tolerance used by [`approx_eq`]."),
    (UTIL, "macro", "src.util.shapes", 16, 21, "macro_rules! shapes",
     "Builds a `Vec<Box<dyn Shape>>` from a comma separated list of shapes."),
    (UTIL, "function", "src.util.largest", 31, 45,
     "pub fn largest<T, K, F>(items: &[T], key: F) -> Option<&T> where F: Fn(&T) -> K, K: PartialOrd,",
     "Returns the item with the largest key, or `None` for an empty slice."),
    (UTIL, "function", "src.util.clamp", 52, 60, "pub fn clamp<T: PartialOrd>(value: T, lo: T, hi: T) -> T",
     None),
    (LIB, "module", "src.lib.shapes", 6, 6, "pub mod shapes", None),
    (LIB, "function", "src.lib.total_area", 13, 15, "pub fn total_area(shapes: &[Box<dyn Shape>]) -> f64",
     "Sums the areas of a mixed collection of shapes."),
    (LIB, "module", "src.lib.tests", 22, 43, "mod tests", None),
    (LIB, "function", "src.lib.tests.square_kind", 39, 42, "fn square_kind()", None),
]


@pytest.mark.parametrize("path,kind,qualname,start,end,sig,doc", EXPECTED,
                         ids=[e[2] for e in EXPECTED])
def test_symbol_rows(path, kind, qualname, start, end, sig, doc):
    assert rs(path).row(qualname, start) == (kind, qualname, start, end, sig, doc)


def test_impl_blocks_are_named_by_their_type():
    sh = rs(SHAPES)
    assert sh.row("src.shapes.Circle", 47) == ("impl", "src.shapes.Circle", 47, 61, "impl Circle", None)
    assert sh.row("src.shapes.Circle", 63) == (
        "impl", "src.shapes.Circle", 63, 75, "impl Shape for Circle", None)
    assert sh.parent_of("src.shapes.Circle.area") == "src.shapes.Circle"
    assert sh.find("src.shapes.Circle.area")["parent_local"] == sh.find("src.shapes.Circle", 63)["local_id"]
    assert sh.bases("src.shapes.Circle", "implements", 63) == ["Shape"]
    assert sh.bases("src.shapes.Rect", "implements", 115) == ["fmt::Display"]


def test_trait_signatures_are_declarations_default_bodies_are_methods():
    sh = rs(SHAPES)
    assert sh.find("src.shapes.Shape.perimeter")["is_declaration"] is True
    assert sh.find("src.shapes.Shape.compactness")["is_declaration"] is False


def test_attributes_are_kept_with_their_item():
    sh = rs(SHAPES)
    assert sh.find("src.shapes.ShapeKind")["decorators"] == ["#[derive(Debug, Clone, Copy, PartialEq, Eq)]"]
    assert rs(UTIL).find("src.util.shapes")["decorators"] == ["#[macro_export]"]
    lib = rs(LIB)
    assert lib.find("src.lib.tests")["decorators"] == ["#[cfg(test)]"]
    t = lib.find("src.lib.tests.total_area_of_mixed_shapes")
    assert (t["start_line"], t["end_line"], t["decorators"]) == (27, 31, ["#[test]"])


def test_several_attributes_in_a_row_all_belong_to_the_item():
    ex = snippet("src/m.rs", """\
/// A unit of length.
#[derive(Debug)]
#[repr(transparent)]
pub struct Meters(pub f64);
""", "rust")
    m = ex.find("src.m.Meters")
    assert (m["kind"], m["start_line"], m["end_line"], m["signature"], m["doc"], m["decorators"]) == (
        "struct", 2, 4, "pub struct Meters(pub f64)", "A unit of length.",
        ["#[derive(Debug)]", "#[repr(transparent)]"])


def test_calls():
    sh = rs(SHAPES)
    assert sh.call_edges("src.shapes.Shape.compactness") == [
        ("self.perimeter", "src.shapes.Shape.perimeter", "self", 21),
        ("self.area", "src.shapes.Shape.area", "self", 25),
    ]
    assert sh.calls("src.shapes.Circle.scaled") == ["Circle::new"]
    assert sh.calls("src.shapes.Circle.unit") == ["Self::new"]
    assert sh.calls("src.shapes.Rect.fmt") == ["write!"]            # macro invocations keep the `!`
    assert rs(LIB).calls("src.lib.total_area") == ["util::sum_by"]
    assert rs(LIB).calls("src.lib.total_area.<lambda1>") == ["s.area"]    # `|s| s.area()`
    # calls written as a macro's arguments count (the outermost ones: `total_area` inside
    # `approx_eq(...)` stays a token)
    assert rs(LIB).calls("src.lib.tests.total_area_of_mixed_shapes") == [
        "shapes!", "Circle::unit", "Rect::new", "assert!", "approx_eq"]
    assert rs(UTIL).calls("src.util.sum_by") == ["items.iter", "map", "sum"]


def test_use_declarations():
    assert rs(SHAPES).import_rows() == [("std::f64::consts", "PI", None, 3), ("std", "fmt", None, 4)]
    lib = rs(LIB)
    assert lib.import_rows() == [
        ("shapes", "Circle", None, 9), ("shapes", "Rect", None, 9), ("shapes", "Shape", None, 9),
        ("shapes", "ShapeKind", None, 9), ("util", "largest", None, 10), ("util", "MAX_SHAPES", None, 10),
    ]
    assert lib.import_rows("src.lib.tests") == [("super", "*", None, 24), ("crate::util", "approx_eq", None, 25)]


def test_use_forms_generic_impls_and_supertraits_inline():
    ex = snippet("src/k.rs", """\
use std::collections::HashMap as Map;
use std::io::{self, Write as W};
pub trait Named: Clone + std::fmt::Debug {}
impl<T: Clone> Named for Wrapper<T> {}
type Id = u64;
""", "rust")
    assert ex.import_rows() == [
        ("std::collections", "HashMap", "Map", 1),
        ("std::io", "self", None, 2),
        ("std::io", "Write", "W", 2),
    ]
    assert ex.bases("src.k.Named") == ["Clone", "std::fmt::Debug"]
    assert ex.row("src.k.Wrapper") == ("impl", "src.k.Wrapper", 4, 4, "impl<T: Clone> Named for Wrapper<T>", None)
    assert ex.bases("src.k.Wrapper", "implements") == ["Named"]
    assert ex.row("src.k.Id") == ("type", "src.k.Id", 5, 5, "type Id = u64", None)


def test_trait_items_and_trait_impl_methods_are_public():
    ex = snippet("src/m.rs", """pub trait Area {
    fn area(&self) -> f64;
}

pub struct Sq(f64);

impl Sq {
    fn helper(&self) -> f64 { self.0 }
    pub fn side(&self) -> f64 { self.0 }
}

impl Area for Sq {
    fn area(&self) -> f64 { self.helper() * self.0 }
}
""", "rust")
    vis = {(s["qualname"], s["start_line"]): s["visibility"] for s in ex.symbols}
    assert vis[("src.m.Area.area", 2)] == "public"       # trait item
    assert vis[("src.m.Sq.helper", 8)] == "private"      # no `pub` in an inherent impl
    assert vis[("src.m.Sq.side", 9)] == "public"
    assert vis[("src.m.Sq.area", 13)] == "public"        # in `impl Area for Sq`


def test_enum_variants_belong_to_their_enum():
    got = [(s["qualname"], s["start_line"], s["doc"]) for s in rs(SHAPES).symbols
           if s["kind"] == "enum_member"]
    assert got == [("src.shapes.ShapeKind.Circle", 33, None), ("src.shapes.ShapeKind.Rect", 34, None),
                   ("src.shapes.ShapeKind.Square", 36, "A rectangle whose sides are equal.")]
