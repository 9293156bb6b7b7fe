"""C++ in a whole repository: headers named `.h` that hold C++, and definitions written
outside their class (`double geo::Shape::area() const {}`), which are methods when the
class declares them in any file."""
from __future__ import annotations

import os

from conftest import write

import workbench
from workbench.languages import detect, refine

SHAPE_H = """\
#pragma once
namespace geo {

/** A shape with an area. */
class Shape {
public:
    double area() const;
    double perimeter() const;
    static Shape unit();
private:
    double side_;
};

void helper();

}  // namespace geo
"""

SHAPE_CPP = """\
#include "geo/shape.h"

double geo::Shape::area() const {
    return side_ * side_;
}

namespace geo {

double Shape::perimeter() const {
    return 4 * side_;
}

Shape Shape::unit() {
    return Shape();
}

void helper() {}

}  // namespace geo

void geo::helper2() {}
"""

PLAIN_H = """\
#ifndef VEC_H
#define VEC_H
/* a class of vectors, in C */
struct vec { double x, y; };
double vec_len(struct vec v);
#endif
"""


def _repo(root):
    write(root, "include/geo/shape.h", SHAPE_H)
    write(root, "include/vec.h", PLAIN_H)
    write(root, "src/shape.cpp", SHAPE_CPP)


def _kinds(wb, path):
    return {q: k for q, k in wb.sql("SELECT qualname, kind FROM symbols WHERE path = ?",
                                    params=[path]).fetchall()}


def test_a_header_holding_cpp_is_parsed_as_cpp_and_a_c_header_stays_c(tmp_path):
    _repo(tmp_path)
    wb = workbench.index(tmp_path, db=str(tmp_path / "i.duckdb"), progress=False)
    files = {p: (lang, st) for p, lang, st in wb.sql("SELECT path, language, status FROM files").fetchall()}
    assert files["include/geo/shape.h"] == ("cpp", "ok")
    assert files["include/vec.h"] == ("c", "ok")
    k = _kinds(wb, "include/geo/shape.h")
    assert k["include.geo.shape.geo.Shape"] == "class"
    assert k["include.geo.shape.geo.Shape.area"] == "method"
    assert k["include.geo.shape.geo.Shape.side_"] == "field"
    doc = wb.sql("SELECT doc FROM symbols WHERE qualname = 'include.geo.shape.geo.Shape'").fetchall()
    assert doc == [("A shape with an area.",)]
    assert _kinds(wb, "include/vec.h") == {"include.vec": "module", "include.vec.vec": "struct",
                                           "include.vec.vec.x": "field", "include.vec.vec.y": "field",
                                           "include.vec.vec_len": "function"}


def test_refine_by_content():
    h = detect("a/b.h")
    assert h.name == "c"
    assert refine(h, "a/b.h", b"template <typename T>\nT id(T x);\n").name == "cpp"
    assert refine(h, "a/b.h", b"class Foo;\n").name == "cpp"
    assert refine(h, "a/b.h", b"  public:\n").name == "cpp"
    assert refine(h, "a/b.h", b"namespace geo\n{\nint f();\n}\n").name == "cpp"
    assert refine(h, "a/b.h", b"using namespace std;\n").name == "cpp"
    assert refine(h, "a/b.h", b'#ifdef __cplusplus\nextern "C" {\n#endif\nint f(void);\n').name == "c"
    assert refine(h, "a/b.h", b"/* this class of errors */\nint class_count;\n").name == "c"
    c = detect("a/b.c")             # only headers switch: a .c file is C whatever it holds
    assert refine(c, "a/b.c", b"class Foo {};\n").name == "c"
    assert refine(None, "x.unknown", b"class Foo {};") is None


def test_out_of_line_definitions_are_methods_when_a_class_declares_them(tmp_path):
    _repo(tmp_path)
    wb = workbench.index(tmp_path, db=str(tmp_path / "i.duckdb"), progress=False)
    assert _kinds(wb, "src/shape.cpp") == {
        "src.shape": "module", "src.shape.geo": "namespace",
        "src.shape.geo.Shape.area": "method",          # `geo::Shape::area` at file level
        "src.shape.geo.Shape.perimeter": "method",     # `Shape::perimeter` inside `namespace geo`
        "src.shape.geo.Shape.unit": "method",          # static members too
        "src.shape.geo.helper": "function",            # a free function of the namespace
        "src.shape.geo.helper2": "function",           # `geo::helper2`: qualified by a namespace
    }


def test_reindex_follows_the_declaring_header(tmp_path):
    _repo(tmp_path)
    db = str(tmp_path / "i.duckdb")
    header = tmp_path / "include/geo/shape.h"
    workbench.index(tmp_path, db=db, progress=False)
    os.remove(header)                    # the class is gone: the definitions are plain functions
    wb = workbench.index(tmp_path, db=db, progress=False)
    assert _kinds(wb, "src/shape.cpp")["src.shape.geo.Shape.area"] == "function"
    assert _kinds(wb, "src/shape.cpp")["src.shape.geo.Shape.unit"] == "function"
    wb.close()
    write(tmp_path, "include/geo/shape.h", SHAPE_H)
    wb = workbench.index(tmp_path, db=db, progress=False)
    again = _kinds(wb, "src/shape.cpp")
    wb.close()
    fresh = workbench.index(tmp_path, db=str(tmp_path / "fresh.duckdb"), progress=False)
    assert again == _kinds(fresh, "src/shape.cpp")
    assert again["src.shape.geo.Shape.area"] == "method"


def test_reindex_marks_follow_a_header_that_stops_being_cpp_and_ignore_other_languages(tmp_path):
    _repo(tmp_path)
    write(tmp_path, "tools/gen.py", "def main():\n    return 1\n")
    db = str(tmp_path / "i.duckdb")
    workbench.index(tmp_path, db=db, progress=False).close()
    # a change in another language leaves the C++ marks as they are
    write(tmp_path, "tools/gen.py", "def main():\n    return 2\n\n\ndef other():\n    pass\n")
    wb = workbench.index(tmp_path, db=db, progress=False)
    assert wb.report.changed == 1
    assert _kinds(wb, "src/shape.cpp")["src.shape.geo.Shape.area"] == "method"
    wb.close()
    # the same path now holds C: its language changes, the class is gone
    write(tmp_path, "include/geo/shape.h", PLAIN_H)
    wb = workbench.index(tmp_path, db=db, progress=False)
    assert wb.sql("SELECT language FROM files WHERE path = 'include/geo/shape.h'").fetchall() == [("c",)]
    again = _kinds(wb, "src/shape.cpp")
    wb.close()
    fresh = workbench.index(tmp_path, db=str(tmp_path / "fresh.duckdb"), progress=False)
    assert again == _kinds(fresh, "src/shape.cpp")
    assert again["src.shape.geo.Shape.area"] == "function"
    fresh.close()
