"""Calls Python makes without a call expression: the dunder methods an operator, a
subscript, a `with`, a `for` or a builtin (`len(x)`, `str(x)`) runs, the `__post_init__`
a dataclass's generated `__init__` runs, and a module's PEP 562 `__getattr__` run for a
name the module does not define.

The sites are bindings rows: kind `implicit` (the query file's operator, subscript and
`with` captures: the operand, named by the operator as written), `iter` / `iter_unpack`
(`for x in v`: `v.__iter__`), and the argument rows of a call of a builtin (`len#0`);
and, whatever the setting, kind `raise`: a class raised without a call (`raise E`) is
instantiated, its `__init__` runs (`raised_inits`).
A site gives an edge only when its operand evaluates to an instance of a class of the
repository whose MRO defines the method before any class outside the repository does
(`Resolver.mro_lookup`): `i + 1` on an int, or a class inheriting `__eq__` from `dict`,
gives nothing. Each edge is (text, line, target): the text is the operand and the method,
`p.__truediv__`, as a call of it would be written.
"""
from __future__ import annotations

from ..exprs import parse_chain, split_top
from ..kinds import CLASS_KINDS, FUNCTION_KINDS
from ..values import BUILTIN, INST, SYM, ordered

#: operator as written (the `implicit` rows' name) -> the methods it runs on the operand, in
#: the order Python tries them (`!=` falls back to `__eq__`); `iter`: a `for`'s iterable
OPERATORS: dict[str, tuple] = {
    "+": ("__add__",), "-": ("__sub__",), "*": ("__mul__",), "@": ("__matmul__",),
    "/": ("__truediv__",), "//": ("__floordiv__",), "%": ("__mod__",), "**": ("__pow__",),
    "<<": ("__lshift__",), ">>": ("__rshift__",), "&": ("__and__",), "|": ("__or__",),
    "^": ("__xor__",),
    "==": ("__eq__",), "!=": ("__ne__", "__eq__"), "<": ("__lt__",), "<=": ("__le__",),
    ">": ("__gt__",), ">=": ("__ge__",),
    "in": ("__contains__",),
    "[": ("__getitem__",), "=": ("__setitem__",), "del": ("__delitem__",),
    "iter": ("__iter__",),
}
#: statements running two methods, each an edge (`with` / `async with`)
STATEMENTS: dict[str, tuple] = {"with": ("__enter__", "__exit__"), "async": ("__aenter__", "__aexit__")}
#: a builtin called with one operand -> the methods it runs on it, in the order tried
BUILTIN_CALLS: dict[str, tuple] = {
    "len": ("__len__",), "str": ("__str__", "__repr__"), "repr": ("__repr__",),
    "iter": ("__iter__",), "next": ("__next__",), "bool": ("__bool__", "__len__"),
    "hash": ("__hash__",), "abs": ("__abs__",), "reversed": ("__reversed__",),
    "format": ("__format__",), "bytes": ("__bytes__",), "int": ("__int__",),
    "float": ("__float__",), "complex": ("__complex__",), "round": ("__round__",),
    "dir": ("__dir__",),
}
_NO: dict = {}
_NEXT = ("__next__",)
#: subscript rows consumed by an assignment or a `del` of the same subscript (the query
#: captures `d[k]` there as a read too)
_STORES = ("=", "del")
#: decorators that generate an `__init__` calling `__post_init__`
_DATACLASS = ("dataclass", "dataclasses.dataclass")


def scope_sites(ev, scope: int, sites) -> list[tuple[str, int, tuple]]:
    """The edges of the implicit sites `sites` of `scope` (`bindings.IMPLICIT_SITES`: flat,
    operator, operand and line a site), in order: (operand and method as written, line,
    target). A site whose methods no class of the repository defines (`defined`) is left
    out before its operand is evaluated: it could give no edge."""
    stores: dict = {}
    asyncs = set()
    for i in range(0, len(sites), 3):
        name = sites[i]
        if name in _STORES:
            key = (sites[i + 2], sites[i + 1])
            stores[key] = stores.get(key, 0) + 1
        elif name == "async":
            asyncs.add((sites[i + 2], sites[i + 1]))
    out: list = []
    for i in range(0, len(sites), 3):
        name, value, line = sites[i], sites[i + 1], sites[i + 2]
        if not value:
            continue
        if name == "raise":
            out.extend((f"{value}.__init__"[:200], line, t) for t in raised_inits(ev, scope, value))
            continue
        if name in STATEMENTS:
            if name == "with" and (line, value) in asyncs:
                continue                # (the `async with` row says it)
            methods = tuple((m,) for m in STATEMENTS[name])
        elif name == "[" and stores.get((line, value)):
            stores[(line, value)] -= 1  # the target of `d[k] = v` / `del d[k]`
            continue
        else:
            got = OPERATORS.get(name)
            if got is None:
                continue
            methods = (got,)
        for tried in methods:
            if not can_run(ev, tried):
                continue
            for t in instance_methods(ev, scope, value, tried, 0):
                out.append((f"{value}.{ev.m.name[t[1]]}"[:200], line, t))
                if name == "iter" and can_run(ev, _NEXT):
                    # the loop then runs the `__next__` of the iterator `__iter__` returns
                    for n in _found(ev, ev.returns_of(t[1], 1), _NEXT):
                        out.append((f"{value}.__next__"[:200], line, n))
    return out


def raised_inits(ev, scope: int, text: str) -> list[tuple]:
    """`raise E`, a class raised without a call: Python instantiates it, running the
    `__init__` its MRO gives (`Python.constructor`: a function of the repository found
    before any class outside it), as `E()` would: [(SYM, id)] for each class `text`
    evaluates to in `scope`. An instance raised (`raise exc`, `except E as e: raise e`),
    a builtin exception, a class whose `__init__` is outside the repository or one that
    is no exception (an `Enum` raised is a `TypeError`, never instantiated): none."""
    m = ev.m
    out: list = []
    for v in ordered(ev.eval_text(scope, text, depth=1)[0]):
        if v[0] != SYM or m.kind.get(v[1]) not in CLASS_KINDS or not _exception_class(ev, v[1]):
            continue
        ctor = ev.rules(m.fam.get(v[1])).constructor(ev, v[1])
        if ctor is not None and (SYM, ctor) not in out:
            out.append((SYM, ctor))
    return out


#: how the names of exception classes outside the repository end (`Exception`, `OSError`,
#: `StopIteration`, `KeyboardInterrupt`, `ExceptionGroup`, `requests.HTTPError`)
_EXCEPTION_ENDINGS = ("Exception", "Error", "Warning", "Exit", "Interrupt", "Iteration", "ExceptionGroup")


def _exception_class(ev, cls: int) -> bool:
    """Whether class `cls` is an exception: its MRO holds a class outside the repository
    named as one (`_EXCEPTION_ENDINGS`)."""
    return any(b[0] != SYM and b[1].rpartition(".")[2].endswith(_EXCEPTION_ENDINGS) for b in ev.mro(cls))


def defined(ev) -> frozenset:
    """The dunder names of the repository's Python functions (a site's method is a function
    of the repository named so, or no edge): worked out once per run from the symbols."""
    got = ev.lang_cache.get("python.implicit.defined")
    if got is None:
        m = ev.m
        kind, fam = m.kind, m.fam
        got = frozenset(n for s, n in m.name.items()
                        if n[:2] == "__" and kind.get(s) in FUNCTION_KINDS and fam.get(s) == "python")
        ev.lang_cache["python.implicit.defined"] = got
    return got


def can_run(ev, tried) -> bool:
    """Whether some function of the repository is named like one of the methods `tried`
    (`defined`), so that evaluating the operand may give an edge. The evaluation reads
    their names (the token a file defining such a function provides, `deps`): a file that
    gains or loses one has the sites that depend on it evaluated again, as a fresh run
    would."""
    for d in tried:
        ev.read_name("b:python:" + d)
    return not defined(ev).isdisjoint(tried)


def instance_methods(ev, scope: int, text: str, tried: tuple, depth: int) -> list[tuple]:
    """(SYM, method) for each instance of a repository class `text` evaluates to in
    `scope` whose MRO gives one of the methods `tried` (the first it has, looked up in that
    order) as a method of the repository."""
    out: list = []
    for t in _found(ev, ev.eval_text(scope, text, depth=depth + 1)[0], tried):
        if t not in out:
            out.append(t)
    return out


def _found(ev, vals, tried: tuple):
    """(SYM, method) for each instance in `vals` whose MRO gives one of the methods
    `tried` (the first it has, looked up in that order) as a function of the repository."""
    m = ev.m
    for v in ordered(vals):
        if v[0] != INST:
            continue
        for d in tried:
            t = ev.mro_lookup(v[1], d)
            if t is None:
                continue
            if t[0] == SYM and m.kind.get(t[1]) in FUNCTION_KINDS:
                yield t
            break                       # found, in the repository or outside it


def call_sites(ev, scope: int, path: str | None, text: str, line, targets: list) -> list[tuple]:
    """The implicit edges of a call written `text` at `line` whose targets are `targets`:
    a builtin of `BUILTIN_CALLS` (`len(p)` -> `p.__len__`), a dataclass instantiated
    (`__post_init__`), a missing name of a module with a `__getattr__`."""
    out: list = []
    m = ev.m
    for t in targets:
        if t[0] == BUILTIN:
            if t[1] != text or text not in BUILTIN_CALLS or line is None:
                continue
            rows = _first_args(ev, path, text).get((scope, line), ())
            if not rows or not can_run(ev, BUILTIN_CALLS[text]):
                continue
            for row in rows:
                for f in instance_methods(ev, scope, row[3], BUILTIN_CALLS[text], 0):
                    out.append((f"{row[3]}.{m.name[f[1]]}"[:200], line, f))
        elif t[0] == SYM and m.kind.get(t[1]) in CLASS_KINDS:
            out.extend(((what if what != "__post_init__" else f"{text}.{what}")[:200], line, f)
                       for what, f in _generated_init(ev, t[1]))
    got = _module_getattr(ev, scope, text)
    if got is not None:
        out.append((f"{text.rpartition('.')[0]}.__getattr__"[:200], line, got))
    return out


def _first_args(ev, path: str | None, text: str) -> dict:
    """The first-argument rows of the calls of builtin `text` (`len#0`) among those
    `Model.arg_rows_in` gives for `path`, by (scope, line): grouped once per list of rows
    (a full run's list holds every file's), not searched per call."""
    rows = ev.m.arg_rows_in(path, text)
    cache = ev.lang_cache.setdefault("python.implicit.args", {})
    got = cache.get(text)
    if got is None or got[0] is not rows or got[1] != len(rows):
        slot = f"{text}#0"
        index: dict = {}
        for row in rows:
            if row[2] == slot and row[3]:
                index.setdefault((row[0], row[6]), []).append(row)
        got = cache[text] = (rows, len(rows), index)
    return got[2]


def _generated_init(ev, cls: int) -> list[tuple]:
    """What the `__init__` a dataclass decorator generates calls, for a class instantiated
    without an `__init__` of the repository (`call_target` gives the class) when the class
    or a base is a dataclass: the `default_factory` functions of its fields
    (`field(default_factory=new_tags)`, each dataclass along the MRO) and `__post_init__`:
    [(what, (SYM, id))]."""
    m = ev.m
    classes = []
    for base in ev.mro(cls):
        if base[0] != SYM:
            break
        if any(d.lstrip("@").split("(", 1)[0].strip() in _DATACLASS for d in m.decos.get(base[1]) or ()):
            classes.append(base[1])
    if not classes:
        return []
    out: list = []
    for c in reversed(classes):        # fields in definition order, bases first
        for row in m.arg_rows_in(m.path.get(c), "field"):
            if row[0] != c or not row[2].endswith("#default_factory"):
                continue
            for v in ordered(ev.binding_values(row, 1)):
                if v[0] == SYM and m.kind.get(v[1]) in FUNCTION_KINDS and (row[3], v) not in out:
                    out.append((row[3], v))
    t = ev.mro_lookup(cls, "__post_init__")
    if t is not None and t[0] == SYM and m.kind.get(t[1]) in FUNCTION_KINDS:
        out.append(("__post_init__", t))
    return out


def _not_star_imported(ev, rules, mid: int, name: str) -> bool:
    """Whether no star import of module `mid` gives `name`: each imports a module of the
    repository that does not define it (a star import of an outside module may give any
    name: `sqlite3` star-imports `_sqlite3` through `sqlite3.dbapi2`)."""
    m = ev.m
    for row in m.star_imports.get(mid, ()):
        src = rules.module_of_row(m, row)
        if src is None:
            return False
        if m.star_imports.get(src) and not _not_star_imported(ev, rules, src, name):
            return False
        got, _ = rules.import_member(ev, row, name, 1)
        if got:
            return False
    return True


def _module_getattr(ev, scope: int, text: str) -> tuple | None:
    """PEP 562: `mod.name` where `mod` is a module of the repository that neither defines,
    assigns nor imports `name` but defines `__getattr__`: that function."""
    head, dot, _ = text.partition(".")
    if not dot:
        return None
    m = ev.m
    # only a chain starting with a name an import binds (`import lazy`; `self.x.y` reads no
    # module): a property of this file's own scopes, looked up without evaluating anything
    s = scope
    while s is not None and head not in m.imports_by_scope.get(s, _NO):
        s = m.ns(m.parent.get(s))
    if s is None:
        return None
    parsed = parse_chain(text)
    if parsed is None or len(parsed[0]) < 2 or parsed[0][-1][0] != "attr" or parsed[0][0][0] != "name":
        return None
    name = parsed[0][-1][1]
    if name.startswith("__") or not can_run(ev, ("__getattr__",)):
        return None
    vals, _ = ev.eval_text(scope, text.rpartition(".")[0], depth=1)
    for v in ordered(vals):
        if v[0] != SYM or m.kind.get(v[1]) != "module":
            continue
        mid = v[1]
        kids = m.children.get(mid, {})
        fns = [c for c in kids.get("__getattr__", ()) if m.kind.get(c) in FUNCTION_KINDS]
        rules = ev.rules(m.fam.get(mid))
        if not fns or name in kids or m.binds.get(mid, _NO).get(name) \
                or name in m.imports_by_scope.get(mid, _NO) \
                or rules.module(m, f"{m.qual[mid]}.{name}") is not None:
            continue
        ev.memo.read(mid)
        if not _not_star_imported(ev, rules, mid, name):
            continue
        return (SYM, fns[-1])
    return None


#: binary operators written with a space on each side, from the lowest precedence up
_PRECEDENCE = ((" | ",), (" ^ ",), (" & ",), (" << ", " >> "), (" + ", " - "),
               (" * ", " @ ", " / ", " // ", " % "), (" ** ",))


def operator_values(ev, scope: int, text: str, depth: int) -> set:
    """What a binary operation written `text` evaluates to when its left operand is an
    instance of a repository class whose MRO gives the operator's method in the
    repository: what that method returns (`Path("usr") / "lib"` -> `Path.__truediv__`'s
    return values). The operation split at the last operator of the lowest precedence
    written with spaces around it (left-associative; `**` aside); empty when unknown."""
    if depth > ev.MAX_DEPTH:
        return set()
    for seps in _PRECEDENCE:
        best = None
        for sep in seps:
            parts = split_top(text, (sep,))
            if len(parts) > 1 and (best is None or len(parts[-1]) < len(best[1])):
                best = (sep, parts[-1])
        if best is None:
            continue
        sep, last = best
        body = text.rstrip()
        if not body.endswith(last):
            return set()
        left = body[:len(body) - len(last)].rstrip()
        if not left.endswith(sep.strip()):
            return set()
        left = left[:-len(sep.strip())].strip()
        tried = OPERATORS[sep.strip()]
        if not can_run(ev, tried):      # no method of the repository to run
            return set()
        if sep == " ** ":               # right-associative: the first operand
            left = split_top(text, (sep,))[0]
        return _applied(ev, scope, left, tried, depth)
    return set()


def _applied(ev, scope: int, left: str, tried: tuple, depth: int) -> set:
    """What the method `tried` of the values of `left` returns (see `operator_values`)."""
    vals = operator_values(ev, scope, left, depth + 1)
    if not vals:
        vals = ev.eval_text(scope, left, depth=depth + 1)[0]
    out: set = set()
    for t in _found(ev, vals, tried):
        out |= ev.returns_of(t[1], depth + 1)
    return out
