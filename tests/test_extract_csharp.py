"""C# extraction (workbench/languages/csharp.scm): rows checked by hand against snippets
written in the shapes of real C# code (interop delegates, expression-bodied members,
operators, `using` aliases)."""
from __future__ import annotations

from extract_expect import snippet

SOURCE = """\
using System;
using Info = Runtime.Maybe<System.Reflection.MethodInfo>;

namespace Demo.Interop
{
    /// <summary>Native entry points.</summary>
    [Serializable]
    public class Handle : Base, IHandle
    {
        public const int Max = 3;
        private readonly int a, b;
        public event EventHandler Closed;
        public int Size { get; set; }
        public int this[int i] => i;

        public Handle(int x) : base(x) { Open(x); this.Check(); }
        ~Handle() { }

        public static bool operator ==(Handle l, Handle r) => l.a == r.a;
        public static bool operator !=(Handle l, Handle r) => !(l == r);
        public static implicit operator int(Handle h) => h.a;

        [UnmanagedFunctionPointer(CallingConvention.Cdecl)]
        public delegate int Callback(IntPtr ob, IntPtr arg);

        internal static IntPtr Get(IntPtr ob) => Native.Get(ob);
        int IHandle.Count() => a;
        public abstract void Reset();
        enum State { Open, Closed = 2 }
    }

    interface IHandle { int Count(); }
    public record Point(int X, int Y);
}
"""


def ex():
    return snippet("src/Handle.cs", SOURCE, "csharp")


def test_symbols_kinds_and_nesting():
    rows = [(s["kind"], s["qualname"].removeprefix("src.Handle."), s["start_line"], s["end_line"])
            for s in ex().symbols[1:]]
    H = "Demo.Interop.Handle."
    assert rows == [
        ("type", "Info", 2, 2),
        ("namespace", "Demo.Interop", 4, 34),
        ("class", "Demo.Interop.Handle", 7, 30),   # from its attribute
        ("field", H + "Max", 10, 10), ("field", H + "a", 11, 11), ("field", H + "b", 11, 11),
        ("field", H + "Closed", 12, 12), ("property", H + "Size", 13, 13),
        ("property", H + "this", 14, 14),
        ("method", H + "Handle", 16, 16), ("method", H + "~Handle", 17, 17),
        ("method", H + "operator ==", 19, 19), ("method", H + "operator !=", 20, 20),
        ("method", H + "operator int", 21, 21),
        ("type", H + "Callback", 23, 24),
        ("method", H + "Get", 26, 26), ("method", H + "Count", 27, 27),
        ("method", H + "Reset", 28, 28),
        ("enum", H + "State", 29, 29), ("enum_member", H + "State.Open", 29, 29),
        ("enum_member", H + "State.Closed", 29, 29),
        ("interface", "Demo.Interop.IHandle", 32, 32), ("method", "Demo.Interop.IHandle.Count", 32, 32),
        ("record", "Demo.Interop.Point", 33, 33),
    ]


def test_signatures_docs_and_declarations():
    e = ex()
    cls = e.find("src.Handle.Demo.Interop.Handle")
    assert cls["signature"] == "public class Handle : Base, IHandle"
    assert cls["doc"] == "<summary>Native entry points.</summary>"
    assert e.find("src.Handle.Demo.Interop.Handle.Get")["signature"] == "internal static IntPtr Get(IntPtr ob)"
    assert e.find("src.Handle.Demo.Interop.Handle.Reset")["is_declaration"]
    assert e.find("src.Handle.Demo.Interop.IHandle.Count")["is_declaration"]
    assert not e.find("src.Handle.Demo.Interop.Handle.Count")["is_declaration"]


def test_heritage_calls_and_imports():
    e = ex()
    assert [(x["kind"], x["dst_name"]) for x in e.edges if x["kind"] == "inherits"] == [
        ("inherits", "Base"), ("inherits", "IHandle")]
    assert e.calls("src.Handle.Demo.Interop.Handle.Handle") == ["Open", "this.Check"]
    assert e.calls("src.Handle.Demo.Interop.Handle.Get") == ["Native.Get"]
    assert [(i["module"], i["name"], i["alias"]) for i in e.imports] == [
        ("System", "*", None), ("Runtime", "Maybe<System.Reflection.MethodInfo>", "Info")]


def test_small_files():
    e = snippet("a.cs", "namespace N {\n  class A {\n    void B() {}\n  }\n}\n", "csharp")
    assert [(s["kind"], s["qualname"], s["start_line"], s["end_line"]) for s in e.symbols[1:]] == [
        ("namespace", "a.N", 1, 5), ("class", "a.N.A", 2, 4), ("method", "a.N.A.B", 3, 3)]
    e = snippet("p.cs", "class A {\n  public int P { get; set; }\n  private int f = 1;\n}\n", "csharp")
    assert [(s["kind"], s["qualname"]) for s in e.symbols[1:]] == [
        ("class", "p.A"), ("property", "p.A.P"), ("field", "p.A.f")]
