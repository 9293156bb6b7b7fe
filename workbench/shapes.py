"""Child shapes: query-file patterns that say which children of a captured node are rows,
tested child by child in Python instead of being run by the query engine.

A pattern whose root carries a `@shape.<kind>` capture, `(argument_list [(identifier)
(attribute)] @bind.value) @shape.arg`, says: each named child of an `argument_list` that a
pattern elsewhere captures as `@bind.args` is a row of kind `<kind>` when it has this shape;
its `@bind.value` / `@bind.key` captures are the row's value and key. Written as query
patterns, such rules start a query state at every call and are tested at every node inside
it; here a call costs one look at each of its arguments.

The syntax is the query language's, a subset of it: node patterns `(type child ...)` and
`(_ ...)`, alternations `[...]`, anonymous nodes `"**"`, fields `name: pattern`, the anchor
`.` before a node's first child pattern (its first named child), captures. A shape pattern
holds one child pattern. Where a node could match in several ways the first is taken (the
first alternative, the first sibling), so alternatives are best written disjoint.
`compile_shapes` raises ValueError for what it does not read (quantifiers, predicates,
negated fields, other anchors).
"""
from __future__ import annotations

import re

# the query language's tokens (`compiled_queries.split_patterns` splits a query file by them too)
TOKEN = re.compile(r'\s+|;[^\n]*|"(?:[^"\\]|\\.)*"|@[\w.-]+|[\w.-]+:|\(|\)|\[|\]|\.|[\w-]+|\S')


class _Node:
    """One node pattern: `types` (None: any named node), or `literal` (an anonymous node of
    that type); child patterns as (field or None, anchored first, pattern); captures."""
    __slots__ = ("types", "literal", "children", "captures")

    def __init__(self, types, literal, children, captures):
        self.types, self.literal, self.children, self.captures = types, literal, children, captures


def _tokens(text: str) -> list[str]:
    return [t for t in TOKEN.findall(text) if t.strip() and not t.startswith(";")]


def _parse(toks: list[str], i: int):
    """The pattern at toks[i] (a node, an alternation or a literal, with its captures):
    (list of alternatives, next index)."""
    t = toks[i]
    if t == "[":
        alts, i = [], i + 1
        while toks[i] != "]":
            got, i = _parse(toks, i)
            alts.extend(got)
        i += 1
    elif t == "(":
        kind = toks[i + 1]
        if kind.startswith(("#", "!")) or kind.endswith(":") or kind in "()[].":
            raise ValueError(f"shape pattern: unsupported {kind!r}")
        i += 2
        children = []
        while toks[i] != ")":
            field, anchored = None, False
            if toks[i] == ".":
                if children:
                    raise ValueError("shape pattern: `.` only before the first child")
                anchored, i = True, i + 1
            if toks[i].endswith(":"):
                field, i = toks[i][:-1], i + 1
            if toks[i] in (")", "."):
                raise ValueError("shape pattern: `.` only before the first child")
            got, i = _parse(toks, i)
            children.append((field, anchored, got))
        i += 1
        alts = [_Node(None if kind == "_" else frozenset([kind]), None, children, [])]
    elif t.startswith('"'):
        alts, i = [_Node(None, t[1:-1], [], [])], i + 1
    else:
        raise ValueError(f"shape pattern: unsupported {t!r}")
    if i < len(toks) and toks[i] in ("?", "*", "+"):
        raise ValueError("shape pattern: quantifiers are not supported")
    while i < len(toks) and toks[i].startswith("@"):
        for a in alts:
            a.captures = a.captures + [toks[i][1:]]
        i += 1
    return alts, i


def _match(node, pat: _Node, caps: dict):
    """Whether `node` (whose type `pat` allows) has the shape `pat`: the last node it
    matched (in document order), its captures added to `caps`; None if it does not."""
    last = node
    after = -1                          # children match in order, each after the one before
    for field, anchored, alts in pat.children:
        if field is not None:
            cands = [node.child_by_field_name(field)]
        elif anchored:
            cands = [node.named_child(0)] if node.named_child_count else []
        else:
            cands = node.children
        got = None
        for ch in cands:
            if ch is None or ch.start_byte < after:
                continue
            named, typ = ch.is_named, ch.type
            for alt in alts:
                if alt.literal is not None:
                    if named or typ != alt.literal:
                        continue
                elif not named or (alt.types is not None and typ not in alt.types):
                    continue
                if alt.children:
                    sub: dict = {}
                    got = _match(ch, alt, sub)
                    if got is None:
                        continue
                    caps.update(sub)
                else:
                    got = ch
                for name in alt.captures:
                    caps[name] = ch
                after = ch.end_byte
                break
            if got is not None:
                break
        if got is None:
            return None
        last = got
    return last


def _captures(pat: _Node, name: str) -> bool:
    """Whether every match of `pat` captures `name` (in it or in a child every alternative
    of which captures it)."""
    return name in pat.captures or any(all(_captures(a, name) for a in alts)
                                       for _, _, alts in pat.children)


class Shapes:
    """The shapes of the children of one node type (the `@bind.args` node), by child type."""

    def __init__(self, kind: str):
        self.kind = kind                # row kind: `arg` for `@shape.arg`
        self.by_type: dict[str, list[_Node]] = {}
        self.any: list[_Node] = []      # `(_ ...)` shapes: tried on every named child
        self._by_kid: dict[int, tuple] = {}   # node kind id -> ((pattern, simple), ...)

    def add(self, alts: list[_Node]) -> None:
        for a in alts:
            if a.literal is not None:
                raise ValueError("shape pattern: a shape is a named node")
            if not _captures(a, "bind.value"):
                raise ValueError("shape pattern: a shape captures its row's @bind.value")
            if a.types is None:
                self.any.append(a)
            else:
                for t in a.types:
                    self.by_type.setdefault(t, []).append(a)

    def rows(self, container) -> list:
        """(value, key or None, last node matched) of each named child of `container` that
        has one of the shapes, in child order (a child with several shapes: a row per shape)."""
        out = []
        by_kid = self._by_kid
        for ch in container.named_children:
            kid = ch.kind_id
            pats = by_kid.get(kid)
            if pats is None:            # a node kind's shapes, looked up by its name once
                pats = by_kid[kid] = tuple((p, _simple(p)) for p in self.by_type.get(ch.type, []) + self.any)
            for pat, simple in pats:
                if simple:              # the common case: a type test only, the child the value
                    out.append((ch, None, ch))
                    continue
                caps = {}
                last = _match(ch, pat, caps)
                if last is not None:
                    for name in pat.captures:
                        caps[name] = ch
                    out.append((caps["bind.value"], caps.get("bind.key"), last))
        return out


def _simple(pat: _Node) -> bool:
    """Whether a pattern tests a node's type only and captures it as the value, no key."""
    return not pat.children and pat.captures == ["bind.value"]


def compile_shapes(patterns: list[str]) -> dict[str, Shapes]:
    """{container node type: its Shapes} from the text of `@shape.<kind>` patterns."""
    out: dict[str, Shapes] = {}
    for text in patterns:
        toks = _tokens(text)
        alts, i = _parse(toks, 0)
        if i != len(toks) or len(alts) != 1:
            raise ValueError(f"shape pattern: one node pattern expected: {text!r}")
        root = alts[0]
        kinds = [c for c in root.captures if c.startswith("shape.")]
        if (root.types is None or len(root.children) != 1 or len(kinds) != 1
                or root.children[0][0] is not None or root.children[0][1]):
            raise ValueError(f"shape pattern: `(type child) @shape.kind` expected: {text!r}")
        kind = kinds[0][len("shape."):]
        for t in root.types:
            s = out.setdefault(t, Shapes(kind))
            if s.kind != kind:
                raise ValueError(f"shape pattern: {t} children hold rows of two kinds")
            s.add(root.children[0][2])
    return out
