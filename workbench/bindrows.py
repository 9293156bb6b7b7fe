"""The `bindings` rows of one file, from its query matches (`emit_bindings`): what each
name, argument or unpacking target is bound to, as `extract.extract_file` collects them.

Split from `extract` to keep each module about one thing; like it, a pure function of
the parsed file (no database, no file system).
"""
from __future__ import annotations

from bisect import bisect_left, bisect_right
from operator import itemgetter


def _merge_shaped(binds: list, shaped: set) -> None:
    """Put the shape rows (sorted by anchor start with the rest) where query patterns' rows
    would be: rows of one anchor start come in the order in which their matches completed,
    each at the last node it matched (the node that starts last; the outer one of two that
    start together), a query pattern's row first at the same node. Only positions holding
    both kinds of rows need it; each kind keeps its own order."""
    for pos in shaped.intersection([b[0] for b in binds if b[6] is None]):
        i = bisect_left(binds, pos, key=_first)
        j = bisect_right(binds, pos, key=_first)
        run = binds[i:j]
        from_query = [b for b in run if b[6] is None]
        if not from_query or len(from_query) == len(run):
            continue
        merged, k = [], 0
        from_shapes = [b for b in run if b[6] is not None]
        for b in from_query:
            at = max(doc_order(n) for n in (b[3], b[4], b[5]) if n is not None)
            while k < len(from_shapes) and doc_order(from_shapes[k][6]) < at:
                merged.append(from_shapes[k])
                k += 1
            merged.append(b)
        merged.extend(from_shapes[k:])
        binds[i:j] = merged


def doc_order(node) -> tuple:
    """Document (pre-)order of a node: by start, an enclosing node before what it holds."""
    return node.start_byte, -node.end_byte
# value node types that define a function whose body may identify it (`x = lambda: ...`)
_FUNCTION_VALUE_WORDS = ("function", "lambda", "closure", "func_literal", "method")


def emit_bindings(data: bytes, source, callees, binds: list, shaped: set, items: list,
                  scopes, rows, max_name: int) -> None:
    """Rows of the `bindings` table from `@bind.<kind>` matches: the enclosing symbol,
    the kind, the name bound (`callee#index` / `callee#keyword` for call arguments), the
    value expression as written, its node type, and the symbol it defines (lambdas).
    `binds` holds (anchor start, kind, anchor, target, value, key, None) per match with a
    value and (..., last node matched) per child shape row (anchor starts in `shaped`);
    `source` and `callees` read expressions as `extract._Callees` says; `items` are the
    file's definitions, `scopes` its `extract._ScopeFinder`, `rows` its `FileRows`, and
    `max_name` the longest name a row keeps."""
    def_at = {(d.node.start_byte, d.node.end_byte): d.idx for d in items}
    for d in items:                     # `x = function () {...}`: the value is the def's body owner
        if d.body is not None:
            def_at.setdefault(("body", d.body.start_byte, d.body.end_byte), d.idx)
    def_starts = {k[0] for k in def_at}     # most values start no definition: one int lookup
    binds.sort(key=_first)
    if shaped:
        _merge_shaped(binds, shaped)
    bounds, inner_idx = scopes.bounds, scopes.inner_idx
    cap = 2 * max_name                  # read no more of an expression than can be kept

    types: dict[int, tuple] = {}       # node kind id -> (type, whether a function value)
    append = rows.bindings.append
    last_target, last_name = None, None
    last_pos, sidx, line = -1, 0, 0
    last_arg, last_slot = None, 0       # the previous positional argument of `last_target`
    for pos, kind, anchor, target, value, key, _ in binds:
        if pos != last_pos:             # binds of one anchor (a call's arguments) in a row:
            sidx = inner_idx[bisect_right(bounds, pos)]     # scope and line depend on its start
            line = anchor.start_point[0] + 1
            last_pos = pos
        if target is None:
            name = None
        elif target == last_target:     # the arguments of one call share its callee
            name = last_name
        else:
            a, b = target.start_byte, target.end_byte
            name = last_name = callees[source[a:b if b - a <= cap else a + cap]]
            last_target, last_arg = target, None
        if kind == "arg":
            if key is not None:
                slot = data[key.start_byte:key.end_byte].decode("utf-8", "replace")
            else:                       # named siblings before it, comments aside; counted
                slot, sib = 0, value.prev_named_sibling     # on from the call's previous one
                while sib is not None:
                    if last_arg is not None and sib == last_arg:
                        slot += last_slot + 1
                        break
                    slot += sib.type != "comment"
                    sib = sib.prev_named_sibling
                last_arg, last_slot = value, slot
            name = f"{name}#{slot}"
        elif kind in ("unpack", "iter_unpack") and target is not None:  # `a, b = f, g`: a is item 0
            name = f"{name}#{unpack_slot(target, anchor)}"
        kid = value.kind_id             # (cheaper than `type`, a new string each time)
        vtype_fn = types.get(kid)
        if vtype_fn is None:
            vtype = value.type
            vtype_fn = types[kid] = (vtype, any(w in vtype for w in _FUNCTION_VALUE_WORDS))
        vtype, fn = vtype_fn
        vs, ve = value.start_byte, value.end_byte
        vid = def_at.get((vs, ve)) if vs in def_starts else None
        if vid is None and fn:
            body = value.child_by_field_name("body")
            if body is not None:
                vid = def_at.get(("body", body.start_byte, body.end_byte))
        append((sidx, kind, name, callees[source[vs:ve if ve - vs <= cap else vs + cap]], vtype, vid, line))


_first = itemgetter(0)


def unpack_slot(target, anchor) -> str:
    """Where an unpacking target sits in what it unpacks, outermost first, one step per
    nesting level joined by `.`: `a, (b, c) = ...` gives b `1.0`. A step after a starred
    sibling counts from the end (`a, *b, c`: c is `-1`), and the starred target itself is
    `first*after` (b is `1*1`: the items from 1 to the last one but 1). Comments do not count."""
    steps = []
    node = target
    parent = node.parent
    while parent is not None and parent != anchor:
        holder = node
        if "splat" in parent.type:      # `*b`: the starred node holds the name
            holder, parent = parent, parent.parent
            if parent is None or parent == anchor:
                break
        before, after, star = 0, 0, False
        sib = holder.prev_named_sibling
        while sib is not None:
            if sib.type != "comment":
                before += 1
                star = star or "splat" in sib.type
            sib = sib.prev_named_sibling
        sib = holder.next_named_sibling
        while sib is not None:
            after += sib.type != "comment"
            sib = sib.next_named_sibling
        if holder is not node:
            steps.append(f"{before}*{after}")
        elif star:
            steps.append(str(-after - 1))
        else:
            steps.append(str(before))
        node, parent = parent, parent.parent
    return ".".join(reversed(steps)) or "0"
