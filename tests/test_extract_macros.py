"""C and C++ written with macros the parser cannot expand (workbench/languages/macro_repair.py),
and the C typedef, enumerator, field and macro shapes ctags finds in real headers. Every
file here is our own, written after patterns read in real libraries."""
from __future__ import annotations

from extract_expect import snippet

CPP_EXPORTS = """\
#include <string>
LIB_BEGIN_NAMESPACE
namespace detail {

LIB_FUNC void assert_fail(const char* file, int line) {
  report(file, line);
}

// A helper that streams messages to an assertion.
class LIB_API AssertHelper {
 public:
  AssertHelper(int type);
  Result last_result_;
 private:
  int count_ LIB_GUARDED_BY(mutex_);
};

LIB_CONSTEXPR inline auto to_unsigned(int value) -> unsigned { return value; }

template <typename T, LIB_ENABLE_IF(is_integral<T>::value)>
LIB_CONSTEXPR auto twice(T v) -> T { return v + v; }

}  // namespace detail
LIB_END_NAMESPACE
"""


def test_cpp_export_and_namespace_macros_keep_every_definition():
    ex = snippet("lib/core.h", CPP_EXPORTS, "cpp")
    assert ex.rows.status == "ok" and ex.rows.error_count == 0
    kinds = {s["qualname"]: s["kind"] for s in ex.symbols}
    assert kinds == {
        "lib.core": "module",
        "lib.core.detail": "namespace",
        "lib.core.detail.assert_fail": "function",
        "lib.core.detail.AssertHelper": "class",
        "lib.core.detail.AssertHelper.AssertHelper": "method",
        "lib.core.detail.AssertHelper.last_result_": "field",
        "lib.core.detail.AssertHelper.count_": "field",
        "lib.core.detail.to_unsigned": "function",
        "lib.core.detail.twice": "function",
    }


def test_repaired_ranges_and_text_are_the_original_ones():
    ex = snippet("lib/core.h", CPP_EXPORTS, "cpp")
    helper = ex.find("lib.core.detail.AssertHelper")
    assert (helper["start_line"], helper["end_line"]) == (10, 16)
    assert helper["signature"] == "class LIB_API AssertHelper"      # read from the source
    assert helper["doc"] == "A helper that streams messages to an assertion."
    assert ex.find("lib.core.detail.AssertHelper.count_")["signature"] == (
        "int count_ LIB_GUARDED_BY(mutex_)")
    assert ex.calls("lib.core.detail.assert_fail") == ["report"]


def test_export_macro_class_that_parses_without_an_error():
    # `class EXPORT Name {...}` parses cleanly as a function `Name` returning `class EXPORT`
    ex = snippet("re.h", """\
class PORT_API RE {
 public:
  RE(const char* regex) { Init(regex); }
  ~RE();
 private:
  bool is_valid_;
};
""", "cpp")
    assert [(s["kind"], s["qualname"]) for s in ex.symbols[1:]] == [
        ("class", "re.RE"), ("method", "re.RE.RE"), ("method", "re.RE.~RE"),
        ("field", "re.RE.is_valid_")]


def test_macro_bodies_are_never_blanked():
    ex = snippet("check.h", """\
#define EXPECT_OK(statement) \\
  CHECK_IMPL_(statement, FAIL_NONFATAL_)
#define ASSERT_OK(statement) \\
  CHECK_IMPL_(statement, FAIL_FATAL_)
class CHECK_API Checker {
 public:
  int run() CHECK_LOCKS_EXCLUDED_(mu_);
};
""", "cpp")
    assert [(s["kind"], s["name"], s["start_line"], s["end_line"]) for s in ex.symbols[1:3]] == [
        ("macro", "EXPECT_OK", 1, 2), ("macro", "ASSERT_OK", 3, 4)]
    assert ex.find("check.Checker.run")["kind"] == "method"


def test_c_annotation_macros_on_structs_fields_and_functions():
    ex = snippet("lib/mutex.h", """\
struct OVS_LOCKABLE ovs_mutex {
    pthread_mutex_t lock;
    const char *where OVS_GUARDED;
};

enum OVS_PACKED_ENUM tcp_state {
    TCPS_CLOSED,
    TCPS_LISTEN,
};

void ovs_mutex_lock(const struct ovs_mutex *mutex) OVS_ACQUIRES(mutex);
""", "c")
    kinds = {s["qualname"]: s["kind"] for s in ex.symbols}
    assert kinds["lib.mutex.ovs_mutex"] == "struct"
    assert kinds["lib.mutex.ovs_mutex.where"] == "field"
    assert kinds["lib.mutex.tcp_state"] == "enum"
    assert kinds["lib.mutex.tcp_state.TCPS_LISTEN"] == "enum_member"
    assert kinds["lib.mutex.ovs_mutex_lock"] == "function"


def test_c_sal_annotations():
    ex = snippet("driver/event.c", """\
_Use_decl_annotations_
NTSTATUS
OvsInitEvent(_In_ PVOID context, _Out_writes_(len) PCHAR buffer, ULONG len)
{
    return Setup(context, buffer, len);
}

_IRQL_requires_max_(DISPATCH_LEVEL)
VOID
OvsReleaseLock(_Inout_ PLOCK_STATE state)
{
    Release(state);
}
""", "c")
    assert ex.rows.status == "ok"
    rows = [(s["kind"], s["name"], s["start_line"], s["end_line"]) for s in ex.symbols[1:]]
    assert rows == [("function", "OvsInitEvent", 2, 6), ("function", "OvsReleaseLock", 9, 13)]


def test_c_typedef_names():
    ex = snippet("net/types.h", """\
typedef struct _ArpKey {
    int op;
} ArpKey, *PArpKey;

typedef struct Point {
    int x;
} Point;

typedef struct {
    int y;
} Anon, *PAnon;

typedef enum color { RED, GREEN = 2 } color_t;
typedef int (*cb_t)(int);
typedef int fn_t(int);
typedef char name_t[16];
typedef NTSTATUS(Handler)(void *ctx);
""", "c")
    got = [(s["kind"], s["qualname"]) for s in ex.symbols[1:]]
    assert got == [
        ("type", "net.types.ArpKey"), ("type", "net.types.PArpKey"), ("struct", "net.types._ArpKey"),
        ("field", "net.types._ArpKey.op"),
        ("struct", "net.types.Point"), ("field", "net.types.Point.x"),
        ("type", "net.types.PAnon"), ("struct", "net.types.Anon"), ("field", "net.types.Anon.y"),
        ("type", "net.types.color_t"), ("enum", "net.types.color"),
        ("enum_member", "net.types.color.RED"), ("enum_member", "net.types.color.GREEN"),
        ("type", "net.types.cb_t"), ("type", "net.types.fn_t"), ("type", "net.types.name_t"),
        ("type", "net.types.Handler")]
    # the typedef names span the whole typedef, their struct is their sibling
    assert ex.parent_of("net.types.ArpKey") == "net.types"
    assert (ex.find("net.types.ArpKey")["start_line"], ex.find("net.types.ArpKey")["end_line"]) == (1, 3)


def test_c_macros_fields_and_enumerators_in_conditional_blocks():
    ex = snippet("lib/conf.h", """\
#ifndef LIB_CONF_H
#define LIB_CONF_H

#define LIB_EXPORT
#ifndef LIB_HAVE_ATOMICS
#define LIB_HAVE_ATOMICS
#endif

struct latch {
#ifndef _WIN32
    int fds[2];
#else
    HANDLE wevent;
#endif
    struct dp_packet *bufs[4];
    struct netdev *(*alloc)(void);
    uint8_t cos:3,
            en:2;
};

enum reg_id {
    REG0,
#if REG_COUNT > 1
    REG1,
#endif
};

#endif
""", "c")
    names = {s["qualname"]: s["kind"] for s in ex.symbols}
    assert "lib.conf.LIB_CONF_H" not in names                     # the include guard
    assert names["lib.conf.LIB_EXPORT"] == "macro"
    assert names["lib.conf.LIB_HAVE_ATOMICS"] == "macro"
    for f in ("fds", "wevent", "bufs", "alloc", "cos", "en"):
        assert names[f"lib.conf.latch.{f}"] == "field", f
    assert names["lib.conf.reg_id.REG1"] == "enum_member"


def test_cpp_typedefs_and_reference_members():
    ex = snippet("util/bits.hpp", """\
template <typename RawType>
class FloatingPoint {
 public:
  typedef typename TypeWithSize<sizeof(RawType)>::UInt Bits;
  typedef std::ostream& (*Manip)(std::ostream&);
 private:
  Container& container_;
  const Bits& mask_;
};
""", "cpp")
    names = {s["qualname"]: s["kind"] for s in ex.symbols}
    assert names["util.bits.FloatingPoint.Bits"] == "type"
    assert names["util.bits.FloatingPoint.Manip"] == "type"
    assert names["util.bits.FloatingPoint.container_"] == "field"
    assert names["util.bits.FloatingPoint.mask_"] == "field"


def test_an_upper_case_class_name_is_no_macro():
    ex = snippet("codes.h", """\
class ERROR_CODE final : public Base {
  int value_;
};
enum STATUS_KIND : int { OK_STATUS };
""", "cpp")
    names = {s["qualname"]: s["kind"] for s in ex.symbols}
    assert names["codes.ERROR_CODE"] == "class"
    assert names["codes.ERROR_CODE.value_"] == "field"
    assert names["codes.STATUS_KIND"] == "enum"


def test_cpp_conversion_operators_are_named_by_their_type():
    ex = snippet("view.hpp", """\
struct View {
  explicit operator bool() const { return size_ != 0; }
  operator std::string_view() const;
  template <typename T> operator Matcher<T>() const { return Matcher<T>(); }
};
""", "cpp")
    rows = [(s["kind"], s["qualname"], s["start_line"], s["is_declaration"]) for s in ex.symbols[2:]]
    assert rows == [("method", "view.View.operator bool", 2, False),
                    ("method", "view.View.operator std.string_view", 3, True),
                    ("method", "view.View.operator Matcher<T>", 4, False)]


def test_cpp_conditional_inside_a_class_head_or_an_initializer_list():
    # a base clause only some compilers get, between `class Name` and its `{`, and the
    # same guard in the constructor's member initializers
    ex = snippet("store.h", """\
namespace kv {
template <typename Ctx, typename... Args>
class arg_pack
#if LEGACY_COMPILER && LEGACY_COMPILER < 500
    // older compilers need the base
    : public arg_view<Ctx>
#endif
{
 private:
  static const int size = sizeof...(Args);
  using slot_type = int;
  slot_type slots_[size];

 public:
  template <typename... T>
  arg_pack(T&&... args)
      :
#if LEGACY_COMPILER && LEGACY_COMPILER < 500
        arg_view<Ctx>(*this),
#endif
        slots_{args...} {}
};

class picker
#ifdef USE_FAST
    : public fast_base
#else
    : public slow_base
#endif
{
  int pick_;
};

#if HAVE_WIDE
int wide_len(const wchar_t* s);
#else
int narrow_len(const char* s);
#endif
}
""", "cpp")
    rows = {(s["kind"], s["qualname"], s["start_line"]) for s in ex.symbols}
    assert {("class", "store.kv.arg_pack", 2), ("field", "store.kv.arg_pack.size", 10),
            ("type", "store.kv.arg_pack.slot_type", 11), ("field", "store.kv.arg_pack.slots_", 12),
            ("method", "store.kv.arg_pack.arg_pack", 15), ("class", "store.kv.picker", 24),
            ("field", "store.kv.picker.pick_", 31)} <= rows
    # a conditional between whole declarations keeps both branches
    assert {("function", "store.kv.wide_len", 35), ("function", "store.kv.narrow_len", 37)} <= rows
    # the first branch's base class is kept; lines and text are the original file's
    assert ex.rows.status == "ok"
    assert ex.find("store.kv.picker")["signature"].startswith("class picker")
