"""Python: the first parameter of a method (`Python.special_param`): the instance, or the
class for a classmethod - the defining class and each subclass the classmethod is evidently
called through (`MyDate.fromordinal(n)` for `date.fromordinal`, `self.f(x)` in a subclass's
method), so that `cls(...)` there runs the subclass's `__init__` too."""
from __future__ import annotations

from ..values import EMPTY, INST, SYM

# a function with no first parameter of its own meaning
_NO_FIRST = (None, None)


def special_param(ev, fn, name, depth):
    """(values, how) of parameter `name` of `fn` when it is a method's first one, else None."""
    firsts = ev.lang_cache.get("py.first")        # (asked ~115,000 times on the standard library)
    if firsts is None:
        firsts = ev.lang_cache["py.first"] = {}
    got = firsts.get(fn)
    if got is None:
        got = firsts[fn] = first_param(ev, fn)
    if got[0] != name:
        return None
    if fn in ev.m.classmeth:
        via = ev.memo(("clsvia", fn), depth, False, EMPTY, subclass_receivers, ev, fn, depth)
        if via:
            return got[1][0] | via, "self"
    return got[1]


def subclass_receivers(ev, fn, depth) -> frozenset:
    """The repository's subclasses a classmethod `fn` is called through at its evident
    call sites (`RichStyle.parse(text)` for `Style.parse`, which it inherits): its
    `cls` is then that subclass too, so `cls(...)` runs the subclass's `__init__`.
    Found among the argument rows of calls named like `fn` (a call passing no
    argument is not seen), up to the parameter-flow cap."""
    m = ev.m
    cls = m.enclosing_class(fn)
    if cls is None:
        return EMPTY
    fname = m.name[fn]
    subs = {s for s in ev.subclasses(cls) if ev.mro_lookup(s, fname) == (SYM, fn)}
    if not subs:
        return EMPTY
    ev.read_name("a:" + fname)
    out: set = set()
    seen: set = set()
    for row in m.arg_rows(fname):
        callee = row[2].rpartition("#")[0]
        recv, dot, attr = callee.rpartition(".")
        if not dot or attr != fname or (row[0], recv) in seen:
            continue
        seen.add((row[0], recv))
        if len(seen) > ev.param_flow_cap:
            break
        own = m.enclosing_class(row[0]) if m.kind.get(row[0]) == "method" else None
        if own is not None and recv == first_param(ev, row[0])[0]:
            # `self.f()` / `cls.f()`: the caller's own class, not the values its own
            # first parameter may take (which would lead back here through `cls`)
            vals = ((SYM, own),)
        else:
            vals = ev.eval_text(row[0], recv, depth=depth + 1)[0]
        for v in vals:
            if v[0] in (SYM, INST) and v[1] in subs:
                out.add((SYM, v[1]))
    return frozenset(out)


def first_param(ev, fn) -> tuple:
    """(name, (values, how)) of method `fn`'s first parameter, or (None, None); the
    values one object per class and kind (`ev.lang_cache`)."""
    m = ev.m
    if m.kind.get(fn) != "method" or fn in m.static:
        return _NO_FIRST
    ps = ev.params(fn)
    cls = m.enclosing_class(fn) if ps else None
    if cls is None:
        return _NO_FIRST
    kind = SYM if fn in m.classmeth or m.name[fn] in ("__new__", "__init_subclass__",
                                                       "__class_getitem__") else INST
    values = ev.lang_cache.setdefault("py.self", {})
    got = values.get((kind, cls))
    if got is None:
        got = values[(kind, cls)] = (frozenset({(kind, cls)}), "self")
    return ps[0].name, got
