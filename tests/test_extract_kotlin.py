"""Kotlin extraction (workbench/languages/kotlin.scm): rows checked by hand against snippets
written in the shapes of real Kotlin code (Android module builders, exception classes with
constructor properties, companion objects, reified generic functions)."""
from __future__ import annotations

from extract_expect import snippet

SOURCE = """\
package expo.demo

/** Raised when an argument cannot be converted. */
internal class CastError(
  argType: KType,
  val index: Int,
  private var count: Int = 0
) : CodedError("cast"), Marker {
  constructor() : this(Any::class, 0)

  companion object {
    const val TAG = "cast"
    fun make(): CastError = CastError()
  }

  inline fun <reified R> AsyncBody(crossinline body: () -> R): Int {
    val local = helper(body)
    for (i in 0..3) { log(i) }
    return list.map { (key, value) -> key }.size
  }

  override fun toString() = "CastError"
}

object Registry : Base() { val items = mutableListOf<Int>() }
enum class Color { RED, GREEN }
interface Shape { fun area(): Double }
fun interface Listener { fun onEvent(name: String) }
typealias Id = String
fun <T> List<T>.second(): T = this[1]
val top = 1
data class Point(val x: Int, val y: Int)
"""


def ex():
    return snippet("src/Cast.kt", SOURCE, "kotlin")


def test_symbols_kinds_and_nesting():
    rows = [(s["kind"], s["qualname"].removeprefix("src.Cast."), s["start_line"], s["end_line"])
            for s in ex().symbols[1:]]
    assert rows == [
        ("class", "CastError", 4, 23),
        ("property", "CastError.index", 6, 6),
        ("property", "CastError.count", 7, 7),
        ("object", "CastError.Companion", 11, 14),
        ("property", "CastError.Companion.TAG", 12, 12),
        ("method", "CastError.Companion.make", 13, 13),
        ("method", "CastError.AsyncBody", 16, 20),      # its locals are no symbols
        ("method", "CastError.toString", 22, 22),
        ("object", "Registry", 25, 25), ("property", "Registry.items", 25, 25),
        ("enum", "Color", 26, 26), ("enum_member", "Color.RED", 26, 26),
        ("enum_member", "Color.GREEN", 26, 26),
        ("interface", "Shape", 27, 27), ("method", "Shape.area", 27, 27),
        ("interface", "Listener", 28, 28), ("method", "Listener.onEvent", 28, 28),
        ("type", "Id", 29, 29),
        ("function", "second", 30, 30),
        ("property", "top", 31, 31),
        ("class", "Point", 32, 32), ("property", "Point.x", 32, 32), ("property", "Point.y", 32, 32),
    ]


def test_declarations_signatures_docs():
    e = ex()
    assert e.find("src.Cast.Shape.area")["is_declaration"]
    assert not e.find("src.Cast.CastError.toString")["is_declaration"]
    body = e.find("src.Cast.CastError.AsyncBody")
    assert body["signature"] == "inline fun <reified R> AsyncBody(crossinline body: () -> R): Int"
    assert e.find("src.Cast.CastError")["doc"] == "Raised when an argument cannot be converted."


def test_heritage_and_calls():
    e = ex()
    assert sorted((x["dst_name"]) for x in e.edges if x["kind"] == "inherits") == [
        "Base", "CodedError", "Marker"]
    assert e.calls("src.Cast.CastError.Companion.make") == ["CastError"]
    assert e.calls("src.Cast.CastError.AsyncBody") == ["helper", "log", "list.map"]


def test_a_named_companion_object_keeps_its_name():
    e = snippet("f.kt", "class A {\n  companion object Factory {\n    fun of() = A()\n  }\n}\n", "kotlin")
    assert [s["qualname"] for s in e.symbols[1:]] == ["f.A", "f.A.Factory", "f.A.Factory.of"]


def test_unnamed_companion_with_a_base():
    e = snippet("g.kt", "class B {\n  companion object : Factory<B>() {\n    fun of() = B()\n  }\n}\n", "kotlin")
    assert [s["qualname"] for s in e.symbols[1:]] == ["g.B", "g.B.Companion", "g.B.Companion.of"]
