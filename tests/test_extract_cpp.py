"""C++ extraction (workbench/languages/cpp.scm on top of c.scm) on sample_repos/cnative/cpp:
expected rows checked by hand against the source."""
from __future__ import annotations

import pytest

from extract_expect import sample, snippet

HPP = "cpp/geometry.hpp"
CPP = "cpp/geometry.cpp"
M = "cpp.geometry."


def cpp(path):
    return sample("cnative", path, "cpp")


# (file, kind, qualname, start_line, end_line, signature, doc)
EXPECTED = [
    (HPP, "namespace", M + "geo", 8, 89, "namespace geo", None),
    (HPP, "class", M + "geo.Shape", 11, 23, "class Shape", "Abstract base class for closed 2D shapes."),
    (HPP, "method", M + "geo.Shape.~Shape", 13, 13, "virtual ~Shape() = default", None),
    (HPP, "method", M + "geo.Shape.area", 16, 16, "virtual double area() const = 0", "Returns the enclosed area."),
    (HPP, "method", M + "geo.Shape.name", 22, 22, "virtual std::string name() const",
     "Returns a name for reports; subclasses usually override it."),
    (HPP, "class", M + "geo.Circle", 26, 38, "class Circle : public Shape", "A circle centred on the origin."),
    (HPP, "method", M + "geo.Circle.Circle", 28, 28, "explicit Circle(double radius)", None),
    (HPP, "method", M + "geo.Circle.area", 30, 30, "double area() const override", None),
    (HPP, "method", M + "geo.Circle.radius", 34, 34, "double radius() const", None),
    (HPP, "field", M + "geo.Circle.radius_", 37, 37, "double radius_", None),
    (HPP, "method", M + "geo.Rectangle.Rectangle", 43, 43,
     "Rectangle(double width, double height) : width_(width), height_(height)", None),
    # template <...> belongs to the class / function it introduces
    (HPP, "class", M + "geo.Box", 55, 71, "template <typename T> class Box",
     "Immutable wrapper around a single value, with a functional map()."),
    (HPP, "method", M + "geo.Box.get", 60, 60, "const T &get() const", None),
    (HPP, "method", M + "geo.Box.map", 63, 67, "template <typename F> auto map(F f) const",
     "Applies f to the wrapped value and boxes the result."),
    (HPP, "function", M + "geo.max_of", 74, 77, "template <typename T> const T &max_of(const T &a, const T &b)",
     "Returns the larger of two values according to operator<."),
    (HPP, "function", M + "geo.total_area", 80, 80,
     "double total_area(const std::vector<std::unique_ptr<Shape>> &shapes)", "Sums the areas of all shapes."),
    (HPP, "namespace", M + "geo.util", 82, 87, "namespace util", None),
    (HPP, "function", M + "geo.util.to_radians", 85, 85, "double to_radians(double degrees)",
     "Converts an angle from degrees to radians."),
    # anonymous namespace: its contents belong to the file
    (CPP, "constant", M + "kPi", 8, 8, "constexpr double kPi = 3.14159265358979323846", None),
    (CPP, "function", M + "fixed2", 11, 17, "std::string fixed2(double value)",
     "Formats a double with two decimals for shape names."),
    # out-of-line definitions: `Circle::area` inside namespace geo, `geo::Rectangle::area` at file level
    (CPP, "function", M + "geo.Circle.area", 25, 27, "double Circle::area() const", None),
    (CPP, "function", M + "geo.Rectangle.area", 47, 49, "double geo::Rectangle::area() const", None),
    (CPP, "function", M + "geo.total_area", 60, 63,
     "double geo::total_area(const std::vector<std::unique_ptr<Shape>> &shapes)",
     "Adds up the area of every shape; an empty list has zero area."),
]


@pytest.mark.parametrize("path,kind,qualname,start,end,sig,doc", EXPECTED,
                         ids=[e[2] for e in EXPECTED])
def test_symbol_rows(path, kind, qualname, start, end, sig, doc):
    assert cpp(path).row(qualname, start) == (kind, qualname, start, end, sig, doc)


def test_out_of_line_definitions_name_and_parent():
    src = cpp(CPP)
    assert src.find(M + "geo.Circle.area")["name"] == "area"
    assert src.parent_of(M + "geo.Circle.area") == M + "geo"
    assert src.find(M + "geo.Rectangle.area")["name"] == "area"
    assert src.parent_of(M + "geo.Rectangle.area") == "cpp.geometry"
    assert src.parent_of(M + "geo.util.to_radians") == M + "geo.util"     # nested namespaces nest


def test_declarations_in_class_bodies():
    h = cpp(HPP)
    assert h.find(M + "geo.Shape.area")["is_declaration"] is True
    assert h.find(M + "geo.Shape.name")["is_declaration"] is False
    assert h.find(M + "geo.Circle.Circle")["is_declaration"] is True


def test_base_classes():
    assert cpp(HPP).bases(M + "geo.Circle") == ["Shape"]
    assert cpp(HPP).bases(M + "geo.Rectangle") == ["Shape"]


def test_calls():
    src = cpp(CPP)
    assert src.call_edges(M + "geo.Circle.name") == [("fixed2", M + "fixed2", "local", 34)]
    assert src.calls(M + "geo.total_area") == ["std::accumulate", "shapes.begin", "shapes.end"]
    assert src.calls(M + "geo.total_area.<lambda1>") == ["s->area"]     # the lambda's own call
    assert src.calls(M + "fixed2") == ["out.setf", "out.precision", "out.str"]
    # `using U = decltype(f(value_));` is local (no symbol), so its call belongs to map
    assert cpp(HPP).call_edges(M + "geo.Box.map") == [
        ("f", None, "unresolved", 65), ("Box", M + "geo.Box.Box", "local", 66), ("f", None, "unresolved", 66)]


def test_includes():
    assert cpp(CPP).import_rows() == [("geometry.hpp", None, None, 1), ("numeric", None, None, 3),
                                      ("sstream", None, None, 4)]


def test_using_operators_new_and_nested_namespace_inline():
    ex = snippet("src/x.cpp", """\
#include <string>
using std::string;
using namespace std;

namespace app::core {
struct Node : Base<int> {
    Node& operator=(const Node&) = delete;
    bool operator==(const Node& o) const { return this->same(o); }
};
using Id = unsigned long;
}

void build() { auto n = new app::core::Node(); auto b = make<int>(1); }
""", "cpp")
    assert ex.import_rows() == [("string", None, None, 1), ("std", "string", None, 2), ("std", "*", None, 3)]
    assert ex.row("src.x.app.core") == ("namespace", "src.x.app.core", 5, 11, "namespace app::core", None)
    assert ex.row("src.x.app.core.Node")[:4] == ("struct", "src.x.app.core.Node", 6, 9)
    assert ex.bases("src.x.app.core.Node") == ["Base"]
    assert ex.row("src.x.app.core.Node.operator=") == (
        "method", "src.x.app.core.Node.operator=", 7, 7, "Node& operator=(const Node&) = delete", None)
    assert ex.calls("src.x.app.core.Node.operator==") == ["this->same"]
    assert ex.row("src.x.app.core.Id") == ("type", "src.x.app.core.Id", 10, 10, "using Id = unsigned long", None)
    assert ex.calls("src.x.build") == ["app::core::Node", "make"]


# shapes of a formatting library's and a test framework's headers: static data members of
# class templates defined after the class, out-of-line members of class templates, and
# explicit specializations of function templates
TEMPLATES = """\
namespace testing {
template <typename T>
class TypeIdHelper {
 public:
  static bool dummy_;
  void reset();
};
template <typename T>
bool TypeIdHelper<T>::dummy_ = false;
template <typename T>
void TypeIdHelper<T>::reset() { dummy_ = false; }

template <typename T> struct data {
  static constexpr uint64_t pow10[] = {1, 10};
};
template <typename T> constexpr uint64_t data<T>::pow10[];
template <typename T> const T* WithParam<T>::parameter_ = nullptr;

template <typename T> constexpr auto num_bits() -> int { return 8; }
template <> constexpr auto num_bits<int128_opt>() -> int { return 128; }
template <> inline void fputs<wchar_t>(const wchar_t* chars, FILE* stream) {
  std::fputws(chars, stream);
}
}
"""


def test_class_template_members_defined_outside_and_explicit_specializations():
    ex = snippet("fmt/format.h", TEMPLATES, "cpp")
    rows = [(s["kind"], s["qualname"].removeprefix("fmt.format.testing."), s["start_line"],
             s["end_line"], s["is_declaration"]) for s in ex.symbols[2:]]
    assert rows == [
        ("class", "TypeIdHelper", 2, 7, False),
        ("field", "TypeIdHelper.dummy_", 5, 5, False),
        ("method", "TypeIdHelper.reset", 6, 6, True),
        # the scope's template arguments are not part of the name
        ("field", "TypeIdHelper.dummy_", 8, 9, False),
        ("function", "TypeIdHelper.reset", 10, 11, False),   # a method once indexed (below)
        ("struct", "data", 13, 15, False),
        ("field", "data.pow10", 14, 14, False),
        ("field", "data.pow10", 16, 16, True),        # no value: the in-class one has it
        ("field", "WithParam.parameter_", 17, 17, False),
        ("function", "num_bits", 19, 19, False),
        ("function", "num_bits", 20, 20, False),      # named after its template
        ("function", "fputs", 21, 23, False),
    ]


def test_out_of_line_members_of_class_templates_are_methods(tmp_path):
    import workbench
    (tmp_path / "fmt").mkdir()
    (tmp_path / "fmt/format.h").write_text(TEMPLATES)
    wb = workbench.index(tmp_path, db=str(tmp_path / "i.duckdb"), progress=False)
    kinds = wb.sql("SELECT kind, start_line FROM symbols WHERE qualname = ? ORDER BY 2",
                   params=["fmt.format.testing.TypeIdHelper.reset"]).fetchall()
    wb.close()
    assert kinds == [("method", 6), ("method", 10)]
