"""Child shapes (`@shape.<kind>` patterns, workbench/shapes.py): Python's call arguments are
tested argument by argument in Python instead of by a query pattern per shape started at
every call. The rows must be those of the same shapes run as query patterns, row for row
and in order (rows of one anchor come in the order their matches completed)."""
from __future__ import annotations

import re
import sysconfig
from pathlib import Path

import pytest
from tree_sitter import Query

from workbench import compiled_queries
from workbench.compiled_queries import compiled, split_patterns
from workbench.extract import extract_file
from workbench.languages import SPECS, grammar
from workbench.shapes import compile_shapes

ROOT = Path(__file__).resolve().parent.parent

# arguments of every shape and of none, beside rows of other patterns anchored at the same
# call (`append`, `update`, `setdefault(..).append`, `heappush`, `extend`) or at a node
# starting where the call starts (chained calls, `with`, a lambda's body, `f(a).x = v`)
SNIPPET = b'''import heapq
def g(cb, xs, d, q):
    f(a, b.c, k=lambda: 1, *xs, **opts)
    f([ # first item a comment
      a], [b], (c.d, 1), ["s", e], {"k": [x]}, {  # c
      "k": y}, {**o, "k": z}, **{"z": y}, key=[h], kd={"k": cb}, kt=(u,), ks=v[0])
    f(x for x in xs)
    f(# c
      a, b, # c
      c)
    xs.append(h)
    xs.append([h])
    xs.insert(0, cb)
    d.setdefault(k, []).append(f)
    d.setdefault(k, [cb]).append(lambda: cb)
    d[k].append(g)
    d.update({"a": f, "b": g})
    d.update({"a": [f], "b": g})
    d.update(a=f)
    heapq.heappush(q, (t, f))
    heapq.heappush(q, f)
    xs.extend([f, g])
    xs.extend(ys)
    m(a)(b)(c)
    super().close(a)
    with open(p) as fh, closing(g(h)) as gh:
        pass
    r = lambda: f(a)(b)
    f(a).x = v
    f(a)[k] = v
    self.cb = cb or (lambda: f(a))
    return f(a, *b)
'''


def _as_patterns(spec) -> compiled_queries._Compiled:
    """The compiled queries of `spec` with its shapes run as query patterns, a pattern per
    shape on the call: `(argument_list X) @shape.arg` is `(call function: (_) @bind.target
    arguments: (argument_list X)) @bind.arg`, and the call pattern captures the callee only."""
    c = compiled(spec)
    text = c._text
    shapes = [re.sub(r"(?m)^\s*;.*\n", "", p).strip() for p in split_patterns(text)]
    shapes = [p for p in shapes if p.endswith("@shape.arg")]
    assert shapes
    for p in shapes:
        assert p in text
        body = p[len("(argument_list"):p.rindex(")")]
        text = text.replace(p, f"(call function: (_) @bind.target arguments: (argument_list{body})) @bind.arg")
    call = "(call function: (_) @reference.call @bind.target arguments: (_) @bind.args) @bind.arg"
    assert call in text
    text = text.replace(call, "(call function: (_) @reference.call)")
    one = compiled_queries._Compiled(spec, text=text)
    assert not one.shapes
    return one


_PATTERNS: dict = {}


def _both(monkeypatch, path: str, data: bytes, spec):
    shaped = extract_file(path, data, spec)
    one = _PATTERNS.get(spec.name) or _PATTERNS.setdefault(spec.name, _as_patterns(spec))
    with monkeypatch.context() as m:
        m.setitem(compiled_queries._COMPILED, spec.name, one)
        patterns = extract_file(path, data, spec)
    return shaped, patterns


def test_python_arguments_are_shapes_not_patterns():
    c = compiled(SPECS["python"])
    assert set(c.shapes) == {"argument_list"} and c.shapes["argument_list"].kind == "arg"
    tree = c.parser.parse(SNIPPET)
    found = c.matches(tree.root_node)
    assert found and not [caps for _, caps in found if "shape.arg" in caps]   # not run as patterns


def test_rows_equal_those_of_the_shapes_run_as_patterns(monkeypatch):
    spec = SPECS["python"]
    shaped, patterns = _both(monkeypatch, "pkg/m.py", SNIPPET, spec)
    assert shaped == patterns
    args = [b for b in shaped.bindings if b[1] == "arg"]
    assert len(args) > 40                        # the snippet's arguments make rows
    assert ("arg", "f#**", '{"z": y}') in [b[1:4] for b in args]
    assert not [b for b in args if b[3] in ('"s"', "x for x in xs")]


def test_rows_equal_those_of_the_shapes_run_as_patterns_on_the_standard_library(monkeypatch):
    spec = SPECS["python"]
    lib = Path(sysconfig.get_paths()["stdlib"])
    names = ["argparse.py", "asyncio/base_events.py", "heapq.py", "sched.py", "unittest/suite.py",
             "logging/config.py", "dataclasses.py", "functools.py"]
    seen = 0
    for n in names:
        p = lib / n
        if not p.is_file():
            continue
        shaped, patterns = _both(monkeypatch, n, p.read_bytes(), spec)
        assert shaped == patterns, n
        seen += 1
    assert seen >= 4


def _shapes(text: str):
    return compile_shapes([text])


def test_a_shape_is_a_node_type_and_a_child_pattern():
    s = _shapes('(argument_list [(identifier) (call)] @bind.value) @shape.arg')["argument_list"]
    assert s.kind == "arg" and set(s.by_type) == {"identifier", "call"}
    s = _shapes('(arguments (_) @bind.value) @shape.arg')["arguments"]
    assert len(s.any) == 1 and not s.by_type


@pytest.mark.parametrize("text", [
    '(argument_list (identifier)? @bind.value) @shape.arg',          # quantifier
    '(argument_list (identifier) @bind.value (#eq? @bind.value "x")) @shape.arg',  # predicate
    '(argument_list (call !arguments) @bind.value) @shape.arg',      # negated field
    '(argument_list (list (identifier) .) @bind.value) @shape.arg',  # anchor after a child
    '(argument_list (identifier) @bind.value)',                      # no @shape.kind
    '(argument_list) @shape.arg',                                    # no child pattern
    '(argument_list "," @bind.key) @shape.arg',                      # an anonymous node
    '(argument_list [(identifier) @bind.value (call)]) @shape.arg',  # a row without a value
])
def test_what_shapes_do_not_read_is_an_error(text):
    with pytest.raises(ValueError):
        _shapes(text)


def test_shape_captures_anchors_and_literals():
    spec = SPECS["python"]
    c = compiled(spec)
    s = compile_shapes([
        '(argument_list (list . (identifier)) @bind.value) @shape.arg',
        '(argument_list (dictionary_splat "**" @bind.key (identifier) @bind.value)) @shape.arg',
        '(argument_list (keyword_argument name: (identifier) @bind.key value: (call) @bind.value)) @shape.arg',
    ])["argument_list"]
    tree = c.parser.parse(b"f([a, 1], [1, a], [ # c\n a], **o, k=g(x), k2=y)\n")
    args = tree.root_node.named_children[0].child_by_field_name("arguments")
    got = [(v.text, k.text if k is not None else None, last.text) for v, k, last in s.rows(args)]
    assert got == [(b"[a, 1]", None, b"a"), (b"o", b"**", b"o"), (b"g(x)", b"k", b"g(x)")]
