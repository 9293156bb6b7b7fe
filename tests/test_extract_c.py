"""C extraction (workbench/languages/c.scm) on sample_repos/cnative: expected rows checked
by hand against the source."""
from __future__ import annotations

import pytest

from extract_expect import sample, snippet

HEADER = "include/vec.h"
VEC = "src/vec.c"
MAIN = "src/main.c"


def c(path):
    return sample("cnative", path, "c")


# (file, kind, qualname, start_line, end_line, signature, doc)
EXPECTED = [
    (HEADER, "macro", "include.vec.VEC_MIN_CAPACITY", 7, 7, "#define VEC_MIN_CAPACITY 4",
     "Smallest capacity allocated by vec_push on the first append."),
    (HEADER, "macro", "include.vec.VEC_LEN", 10, 10, "#define VEC_LEN(v)",
     "Number of elements currently stored in a vector."),
    # `typedef struct Point {..} Point;` is one struct symbol spanning the typedef
    (HEADER, "struct", "include.vec.Point", 13, 16, "typedef struct Point", "A point in the plane."),
    (HEADER, "struct", "include.vec.PointVec", 19, 23, "struct PointVec",
     "A growable array of points that owns its storage."),
    (HEADER, "field", "include.vec.PointVec.data", 20, 20, "Point *data", None),
    (HEADER, "type", "include.vec.point_cmp_fn", 28, 28,
     "typedef int (*point_cmp_fn)(const Point *a, const Point *b)",
     "Comparison callback used by vec_sort; returns <0, 0 or >0 like strcmp."),
    # prototypes
    (HEADER, "function", "include.vec.vec_init", 34, 34, "void vec_init(PointVec *v)",
     "Initialises an empty vector without allocating."),
    (HEADER, "function", "include.vec.vec_get", 46, 46, "Point *vec_get(const PointVec *v, size_t i)",
     "Returns a pointer to element i, or NULL when i is out of range."),
    (HEADER, "function", "include.vec.point_distance", 54, 54, "double point_distance(Point a, Point b)", None),
    # definitions (pointer declarators too)
    (VEC, "function", "src.vec.vec_grow", 7, 17, "static int vec_grow(PointVec *v)",
     "Doubles the capacity of v (or allocates VEC_MIN_CAPACITY slots)."),
    (VEC, "function", "src.vec.vec_get", 41, 44, "Point *vec_get(const PointVec *v, size_t i)", None),
    (VEC, "function", "src.vec.vec_sort", 47, 58, "void vec_sort(PointVec *v, point_cmp_fn cmp)",
     "Insertion sort: the vectors in this program are tiny and often nearly sorted."),
    (MAIN, "function", "src.main.parse_point", 7, 11, "static int parse_point(const char *text, Point *out)",
     'Parses "x,y" into *out; returns 1 on success and 0 on malformed input.'),
    (MAIN, "function", "src.main.main", 21, 48, "int main(int argc, char **argv)", None),
]


@pytest.mark.parametrize("path,kind,qualname,start,end,sig,doc", EXPECTED,
                         ids=[e[2] for e in EXPECTED])
def test_symbol_rows(path, kind, qualname, start, end, sig, doc):
    assert c(path).row(qualname, start) == (kind, qualname, start, end, sig, doc)


def test_typedef_of_a_named_struct_is_a_type():
    assert c(HEADER).row("include.vec.PointVec", 25) == (
        "type", "include.vec.PointVec", 25, 25, "typedef struct PointVec PointVec", None)


def test_prototypes_are_declarations_definitions_are_not():
    assert c(HEADER).find("include.vec.vec_init")["is_declaration"] is True
    assert c(VEC).find("src.vec.vec_init")["is_declaration"] is False


def test_header_guards_and_locals_are_no_symbols():
    assert "include.vec.CNATIVE_VEC_H" not in c(HEADER).qualnames()
    # locals stay out of the outline
    assert [s["qualname"] for s in c(VEC).symbols if s["qualname"].startswith("src.vec.vec_grow.")] == []


def test_calls():
    v = c(VEC)
    assert v.call_edges("src.vec.vec_free") == [
        ("free", None, "unresolved", 28), ("vec_init", "src.vec.vec_init", "local", 29)]
    assert v.call_edges("src.vec.vec_push") == [("vec_grow", "src.vec.vec_grow", "local", 34)]
    assert v.calls("src.vec.vec_centroid") == ["VEC_LEN"]                 # macro calls too
    assert v.calls("src.vec.point_cmp_by_norm") == ["point_distance", "point_distance"]
    assert c(MAIN).calls("src.main.main") == [
        "vec_init", "parse_point", "fprintf", "vec_push", "fprintf", "vec_free", "vec_sort",
        "printf", "VEC_LEN", "print_points", "vec_centroid", "printf", "vec_free"]


def test_includes_are_imports():
    assert c(VEC).import_rows() == [("vec.h", None, None, 1), ("math.h", None, None, 3),
                                    ("stdlib.h", None, None, 4)]
    assert c(HEADER).import_rows() == [("stddef.h", None, None, 4)]


def test_globals_unions_enums_and_anonymous_typedefs_inline():
    ex = snippet("src/g.c", """\
#include "g.h"

int counter = 0;
static const char *names[] = {"a", "b"};
extern int verbose;

typedef struct {
    int id;
    char *name;
} Item;

union Value { int i; double d; };

enum Color { RED, GREEN };

struct ops { int (*run)(int); };

int apply(struct ops *o, int x) { return o->run(x) + helper()->run(x); }
""", "c")
    assert ex.row("src.g.counter") == ("variable", "src.g.counter", 3, 3, "int counter = 0", None)
    assert ex.row("src.g.names")[:4] == ("constant", "src.g.names", 4, 4)
    assert ex.row("src.g.verbose")[:4] == ("variable", "src.g.verbose", 5, 5)
    assert ex.row("src.g.Item") == ("struct", "src.g.Item", 7, 10, "typedef struct", None)
    assert ex.row("src.g.Item.name") == ("field", "src.g.Item.name", 9, 9, "char *name", None)
    assert ex.row("src.g.Value") == ("union", "src.g.Value", 12, 12, "union Value", None)
    assert ex.row("src.g.Color") == ("enum", "src.g.Color", 14, 14, "enum Color", None)
    assert ex.row("src.g.ops.run") == ("field", "src.g.ops.run", 16, 16, "int (*run)(int)", None)
    assert ex.calls("src.g.apply") == ["o->run", "helper", "run"]


def test_static_functions_are_file_local():
    vis = {s["qualname"]: s["visibility"] for s in c(VEC).symbols}
    assert vis["src.vec.vec_grow"] == "private"      # static: file-local
    assert vis["src.vec.vec_push"] == "public"
