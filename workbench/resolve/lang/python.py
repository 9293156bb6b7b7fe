"""Python: modules by dotted path (packages, source roots, relative imports, star imports),
builtins, `super()`, `self` / `cls`, decorators, `__init__` / `__call__`."""
from __future__ import annotations

import builtins as _py_builtins
import posixpath
import re
from collections import defaultdict
from pathlib import Path

from ..carry import carry, since_first
from ..exprs import first_arg, match_bracket, parse_chain, split_top
from ..kinds import CLASS_KINDS, FUNCTION_KINDS
from ..values import (BOUND, BUILTIN, BUILTIN_INST, CONTAINER, ELEMENTS, EXT, INST, LITERAL, SUPER, SYM,
                      Param,
                      annotated_type, declared_type, ordered)
from . import python_fills, python_first, python_globals, python_implicit, python_import_module
from .base import Language
from .python_names import attr_names



def _builtin_names() -> frozenset:
    """The builtins of a plain Python process, from `python_builtins.txt` (never the running
    process's `builtins`, which a notebook kernel or an interactive shell changes)."""
    with open(Path(__file__).with_name("python_builtins.txt"), encoding="utf-8") as fh:
        return frozenset(s for line in fh if (s := line.strip()) and not s.startswith("#"))


def _callback_params() -> dict[str, frozenset[str]]:
    """The builtins and C functions of the standard library that call what they are handed,
    and through which parameters, from `python_callbacks.txt` (`Language.callback_params`)."""
    out: dict[str, frozenset[str]] = {}
    with open(Path(__file__).with_name("python_callbacks.txt"), encoding="utf-8") as fh:
        for line in fh:
            parts = line.split("#", 1)[0].split()
            if len(parts) > 1:
                out[parts[0]] = frozenset(parts[1:])
    return out


PY_BUILTINS = _builtin_names()
PY_CALLBACK_PARAMS = _callback_params()
PY_BUILTIN_TYPES = frozenset(n for n in PY_BUILTINS if isinstance(getattr(_py_builtins, n, None), type))
#: decorators that leave the decorated function callable as it is written
PY_VALUE_DECORATORS = frozenset({"property", "staticmethod", "classmethod", "cached_property",
                                 "functools.cached_property", "abstractmethod", "abc.abstractmethod",
                                 "functools.wraps", "wraps", "dataclass", "dataclasses.dataclass",
                                 "functools.total_ordering", "total_ordering", "overload",
                                 "typing.overload", "override", "typing.override", "final",
                                 "functools.lru_cache", "lru_cache", "functools.cache", "cache",
                                 "contextlib.contextmanager", "contextmanager"})


def _keeps_function(base: str) -> bool:
    """Whether decorator `base` (as written, call arguments cut) is one of the well-known
    decorators that leave the function callable as written (`property`, `contextmanager`),
    or a property's setter / getter / deleter."""
    return base in PY_VALUE_DECORATORS or base.endswith((".setter", ".getter", ".deleter"))


def _repo_named(m, base: str) -> bool:
    """Whether the repository defines a function or class named like decorator `base`."""
    return any(m.kind.get(c) in FUNCTION_KINDS | CLASS_KINDS
               for c in m.by_name.get(("python", base.rsplit(".", 1)[-1]), ()))


#: the names whose definition in the repository turns a well-known decorator into a
#: followed one (`_repo_named`)
_KEEPS_NAMES = frozenset({b.rsplit(".", 1)[-1] for b in PY_VALUE_DECORATORS} | {"setter", "getter", "deleter"})


def _add_flows(m, flows, sid: int) -> None:
    """The decorator flows of symbol `sid` (`Python.decorator_flows`), appended."""
    if m.fam.get(sid) != "python" or m.kind.get(sid) not in FUNCTION_KINDS | CLASS_KINDS:
        return
    scope = m.ns(m.parent.get(sid))
    for dec in m.decos[sid]:
        text = dec.lstrip("@").strip()
        base = text.split("(", 1)[0]
        if _keeps_function(base) and not _repo_named(m, base):
            continue
        row = (scope, "arg", "<decorator>#0", text, "decorator", sid, m.line.get(sid))
        flows[base.rsplit(".", 1)[-1]].append(row)


def _decorator_flows(m) -> dict:
    """Every decorator flow of the model by the decorator's last name (`_add_flows`),
    made on first use and kept in the model (a kept model's refresh patches them)."""
    flows = m.ext.get("python.decorator_flows")
    if flows is None:
        flows = m.ext["python.decorator_flows"] = defaultdict(list)
        for sid in m.decos:
            _add_flows(m, flows, sid)
    return flows


def _defined_here(ev, scope, base: str, depth: int) -> bool:
    """Whether decorator `base`, a well-known name, is the repository's own definition of
    it (a project's own `contextmanager`), which is then followed like any decorator."""
    if base.endswith((".setter", ".getter", ".deleter")) or not _repo_named(ev.m, base):
        return False
    return any(v[0] == SYM for v in ev.eval_text(scope, base, depth=depth + 1)[0])


def _last_call(text: str) -> tuple[str, str] | None:
    """`f(a, b)` -> ("f", "a, b"): the callee and arguments of the call a text ends
    with, or None when it is no call (`new` and other prefixes included)."""
    parsed = parse_chain(text)
    if parsed is None or parsed[1] or len(parsed[0]) < 2 or parsed[0][-1][0] != "call":
        return None
    args = parsed[0][-1][1]
    tail = "(" + args + ")"
    if not text.endswith(tail):
        return None
    callee = text[:-len(tail)].rstrip()
    return (callee, args) if callee else None


_CONSTANTS = ("None", "True", "False", "NotImplemented", "Ellipsis", "__debug__")
# builtins whose call returns (something made of) their first argument
_PASS_FIRST = ("staticmethod", "classmethod", "property", "iter", "reversed", "sorted",
               "list", "tuple", "set", "frozenset", "next")
# calls making a mapping (iterated by its keys: `Python.makes_mapping`)
_MAPPING_CALL = re.compile(r"(?:collections\.)?(?:dict|defaultdict|OrderedDict|Counter)\(")
# `heapq` functions returning an element of their first argument, a heap (what
# `heappush` put in it: the element rows of python.scm)
_HEAP_TAKES = frozenset({"heapq.heappop", "heapq.heapreplace", "heapq.heappushpop"})
_PY_DEF = re.compile(r"^\s*(?:async\s+)?def\s+[\w$]+\s*(?:\[[^\]]*\])?\s*\(")


def py_params(sig: str | None) -> list[Param] | None:
    """Parameters of a Python `def`/`lambda` signature as stored in `symbols.signature`."""
    if not sig:
        return None
    s = sig.strip()
    if s.startswith("lambda"):
        inner = s[6:].strip()
        if inner.endswith(":"):
            inner = inner[:-1]
    else:
        m = _PY_DEF.match(s)
        if not m:
            return None
        i = m.end() - 1
        j = match_bracket(s, i)
        if j < 0:                                   # clipped signature: names only
            return [Param(n) for n in re.findall(r"(?:^|,)\s*\**([A-Za-z_]\w*)", s[i + 1:])]
        inner = s[i + 1:j - 1]
    out: list[Param] = []
    kwonly = False
    for part in split_top(inner, (",",)):
        if part in ("/",):
            continue
        if part == "*":
            kwonly = True
            continue
        kind = "kwonly" if kwonly else "pos"
        if part.startswith("**"):
            kind, part = "varkw", part[2:]
        elif part.startswith("*"):
            kind, part = "var", part[1:]
            kwonly = True
        default = None
        if "=" in part:                             # (most parameters: a bare name)
            bits = split_top(part, ("=",))
            if len(bits) > 1:
                part, default = bits[0], "=".join(bits[1:])
        ann = None
        if ":" in part:
            bits = split_top(part, (":",))
            if len(bits) > 1:
                part, ann = bits[0], bits[1]
        name = part.strip()
        if name.isidentifier():
            out.append(Param(name, ann, default, kind))
    return out


def _last_first(rows) -> list:
    """A module's star imports, the last written first: when several bring in a name, the
    last one run binds it (`if sys.platform == 'win32': from .windows_events import *`
    / `else: from .unix_events import *` gives the second on the platforms we index on)."""
    return sorted(rows, key=lambda r: r["line"] or 0, reverse=True)


class _Modules:
    """Python modules of the repository by dotted name, and the shorter names a module
    is importable under from a source root (`src/`, `tests/`) without `__init__.py`."""

    def __init__(self, m):
        self.by_name: dict[str, int] = {}
        self.alias: dict[str, int | None] = {}
        dirs_with_init = set()
        for path, lang in m.file_lang.items():
            if lang == "python" and posixpath.basename(path).startswith("__init__."):
                dirs_with_init.add(posixpath.dirname(path))
        for path, mid in m.file_module.items():
            if m.file_lang.get(path) != "python":
                continue
            q = m.qual[mid]
            if q not in self.by_name or path.endswith(".py"):
                self.by_name[q] = mid
            parts = q.split(".")
            d = posixpath.dirname(path)
            dirs = []
            while d:
                dirs.append(d)
                d = posixpath.dirname(d)
            dirs.reverse()          # outermost first
            # importable as parts[k:] when the directories below the root are packages
            for k in range(1, len(parts)):
                if not all(x in dirs_with_init for x in dirs[k:]):
                    continue
                if dirs[k - 1] in dirs_with_init and k - 1 >= 0 and all(
                        x in dirs_with_init for x in dirs[k - 1:]):
                    continue        # parent is a package too: not a source root
                alias = ".".join(parts[k:])
                if alias in self.alias and self.alias[alias] != mid:
                    self.alias[alias] = None
                else:
                    self.alias[alias] = mid


# the standard library's enum bases: what a class statement in their subclasses assigns
# is a member, an instance of the class
_ENUM_BASES = frozenset({"enum.Enum", "enum.IntEnum", "enum.Flag", "enum.IntFlag",
                         "enum.StrEnum", "enum.ReprEnum"})


class Python(Language):
    family = "python"
    languages = ("python",)
    builtin_names = PY_BUILTINS
    callback_params = PY_CALLBACK_PARAMS
    function_types = frozenset({"typing.Callable", "collections.abc.Callable"})
    literal_types = {"list": "list", "list_comprehension": "list", "dictionary": "dict",
                     "dictionary_comprehension": "dict", "set": "set", "set_comprehension": "set",
                     "tuple": "tuple", "string": "str", "concatenated_string": "str",
                     "integer": "int", "float": "float", "true": "bool", "false": "bool"}
    string_type = "str"
    class_scope_visible = False
    explicit_self = True
    base_class_is_constructor = False
    unbound_names_raise = True
    special_params_listed = True
    # a module imported by `importlib.import_module` is part of the program without an
    # import statement: the export covers it once a call evidently resolves into it
    export_follows_calls = "evident"
    iterates_mapping_keys = True
    declares_globals = True

    # ---------------------------------------------------------------- the model
    def prepare(self, m) -> None:
        self._mark_decorated(m, m.decos)
        m.ext["python"] = _Modules(m)

    @staticmethod
    def _mark_decorated(m, ids) -> None:
        for i in ids:
            if m.fam.get(i) != "python":
                continue
            for d in m.decos[i]:
                if d.startswith("@staticmethod"):
                    m.static.add(i)
                elif d.startswith("@classmethod"):
                    m.classmeth.add(i)
                elif d.startswith(("@property", "@functools.cached_property", "@cached_property")):
                    m.prop.add(i)

    def refresh(self, m, old_ext, gone, new) -> None:
        """The decorators of the changed files' symbols again; their modules renamed (a
        file keeps its module name, from its path, under a new id)."""
        ids = {g[0] for g in gone}
        for s in (m.static, m.classmeth, m.prop):
            s.difference_update(ids)
        self._mark_decorated(m, [i for i in new if i in m.decos])
        self._refresh_not_implemented(m, old_ext, ids, new)
        python_fills.refresh(m, old_ext, ids, new)
        python_globals.refresh(m, old_ext, ids, new)
        mods = old_ext.get("python")
        moved = {g[0]: m.file_module.get(g[5]) for g in gone if g[3] is None and g[1] == "module"}
        if mods is None or None in moved.values():
            m.ext["python"] = _Modules(m)
            return
        for table in (mods.by_name, mods.alias):
            for key, mid in table.items():
                if mid in moved:
                    table[key] = moved[mid]
        m.ext["python"] = mods
        self._refresh_flows(m, old_ext, gone, new)

    @staticmethod
    def _refresh_flows(m, old_ext, gone, new) -> None:
        """The decorator flows (`decorator_flows`) of the last run, patched: the changed
        files' rows out, theirs now appended in the order `decorator_flows` would take them
        on this model. Built again when the edit defines or removes a function or class
        named like a well-known decorator (the others' flows depend on that)."""
        flows = old_ext.get("python.decorator_flows")
        if flows is None:
            return
        kinds = FUNCTION_KINDS | CLASS_KINDS
        names = {g[2] for g in gone if g[4] == "python" and g[1] in kinds}
        names.update(m.name.get(i) for i in new if m.fam.get(i) == "python" and m.kind.get(i) in kinds)
        if names & _KEEPS_NAMES:
            return
        ids = {g[0] for g in gone}
        for key in list(flows):
            rows = flows[key]
            if any(r[5] in ids for r in rows):
                rows = [r for r in rows if r[5] not in ids]
                if rows:
                    flows[key] = rows
                else:
                    del flows[key]
        for i in new:
            if i in m.decos:
                _add_flows(m, flows, i)
        m.ext["python.decorator_flows"] = flows

    def bound_names(self, row: dict) -> list[str]:
        mod, name, alias = row["module"], row["name"], row["alias"]
        if name == "*":
            return ["*"]
        if name:
            return [alias or name.split(".")[-1]]
        if alias:
            return [alias]
        return [(mod or "").lstrip(".").split(".")[0]] if mod else []

    # ---------------------------------------------------------------- module names
    def module_name(self, m, row: dict) -> str | None:
        """The dotted module an imports row names (relative imports made absolute)."""
        mod = row["module"] or ""
        if not mod.startswith("."):
            return mod
        level = len(mod) - len(mod.lstrip("."))
        rest = mod[level:]
        path = row["path"]
        mid = m.file_module.get(path)
        if mid is None:
            return None
        pkg = m.qual[mid].split(".")
        if not posixpath.basename(path).startswith("__init__."):
            pkg = pkg[:-1]
        if level - 1 > len(pkg):
            return None
        base = pkg[: len(pkg) - (level - 1)]
        parts = base + ([rest] if rest else [])
        return ".".join(p for p in parts if p)

    def module(self, m, dotted: str | None) -> int | None:
        """The module symbol of a dotted name in the repository, or None."""
        if not dotted:
            return None
        mods = m.ext["python"]
        mid = mods.by_name.get(dotted)
        if mid is None:
            mid = mods.alias.get(dotted)
        return mid

    def module_of_row(self, m, row: dict) -> int | None:
        return self.module(m, self.module_name(m, row))

    # ---------------------------------------------------------------- names
    def head(self, ev, scope, steps, callee, depth):
        if steps[0][1] == "super" and len(steps) > 1 and steps[1][0] == "call":
            m = ev.m
            cls = m.enclosing_class(scope)
            args = [a.strip() for a in split_top(steps[1][1], (",",))]
            if args and args[0]:
                cv, _ = ev.eval_text(scope, args[0], depth=depth + 1)
                cls = next((v[1] for v in ordered(cv) if v[0] == SYM and m.kind.get(v[1]) in CLASS_KINDS), cls)
            return (frozenset({(SUPER, cls, True)}) if cls else frozenset()), "super", 2
        return None

    def global_value(self, ev, scope, mod, name, depth):
        if mod is not None:
            for row in _last_first(ev.m.star_imports.get(mod, ())):
                got, via = self.import_member(ev, row, name, depth)
                if got:
                    return got, "reexport" if via else "import"
        if name in _CONSTANTS:
            return frozenset(), "builtin"
        if name in PY_BUILTINS:
            return frozenset({(BUILTIN, name)}), "builtin"
        return None

    def definition_values(self, ev, d, depth):
        """In the call-graph export, a decorated function's name stands for what its
        decorators return (the wrapper)."""
        v = {(SYM, d)}
        if not ev.export:
            return v
        decos = ev.m.decos.get(d)
        return self._decorated(ev, d, decos, v, depth) if decos else v

    def decorator_argument(self, ev, vid, text, depth):
        """In the export, decorator `text` of `vid` is handed what the decorators below it
        made of `vid` (`@logged` over `@pass_state` gets `pass_state`'s wrapper)."""
        v = {(SYM, vid)}
        if not ev.export:
            return v
        decos = ev.m.decos.get(vid) or ()
        for i, dec in enumerate(decos):
            if dec.lstrip("@").strip() == text:
                return self._decorated(ev, vid, decos[i + 1:], v, depth) if i + 1 < len(decos) else v
        return v

    def _decorated(self, ev, d, decos, v, depth):
        """`v`, the value of definition `d`, with `decos` applied from the innermost out."""
        m = ev.m
        scope = m.ns(m.parent.get(d))
        for dec in reversed(decos):
            text = dec.lstrip("@").strip()
            base = text.split("(", 1)[0]
            if _keeps_function(base) and not _defined_here(ev, scope, base, depth):
                continue
            nv = self._applied(ev, scope, text, v, depth)
            if nv:
                v = nv
        return v

    def _applied(self, ev, scope, text, arg, depth):
        """What decorator `text` returns applied to the values `arg`: a function's returns
        with its first parameter bound to `arg` (`_returns_with`), so a decorator that
        records the function and returns it gives that function, not every function it
        decorates; a class: its instance; an instance: its `__call__`'s returns; anything
        else keeps `arg`."""
        m = ev.m
        nv = set()
        for f in ordered(self.decorator_values(ev, scope, text, depth)):
            k = m.kind.get(f[1]) if f[0] in (SYM, BOUND, INST) else None
            fn = None
            shift = 0
            if f[0] in (SYM, BOUND) and k in FUNCTION_KINDS:
                fn, shift = f[1], self._shift(m, f)
            elif f[0] == SYM and k in CLASS_KINDS:
                nv.add((INST, f[1]))
                continue
            elif f[0] == INST:
                r = ev.mro_lookup(f[1], "__call__")
                if r is not None and r[0] == SYM:
                    fn, shift = r[1], 1
            if fn is None:
                nv |= arg                # unknown decorator: keep the function
                continue
            ps = ev.params(fn) or []
            if len(ps) > shift and ps[shift].kind == "pos":
                nv |= self._returns_with(ev, fn, {ps[shift].name: frozenset(arg)}, depth + 1)
            else:
                nv |= ev.returns_of(fn, depth + 1)
        return nv

    @staticmethod
    def _shift(m, f) -> int:
        """1 when calling value `f` passes a receiver first (a bound method, a classmethod)."""
        fid = f[1]
        if m.kind.get(fid) != "method" or fid in m.static:
            return 0
        return 1 if f[0] == BOUND or fid in m.classmeth else 0

    def decorator_values(self, ev, scope, text, depth):
        """What decorator `text` (as written after `@`) evaluates to. `@f(...)` is `f`
        called with those arguments: a function's returns read with its parameters bound
        to them (`_returns_with`), a parameter not passed bound to its default (`None`:
        nothing), so an optional-argument decorator (`def dataclass(cls=None, ...)`
        returning `wrap` when `cls is None`, else `wrap(cls)`) used with arguments gives
        `wrap`, not the functions decorated elsewhere without them."""
        call = _last_call(text)
        if call is None:
            return ev.eval_text(scope, text, depth=depth + 1)[0]
        return ev.memo(("deco", scope, text), depth + 1, True, frozenset(), self._decorator_call,
                       ev, scope, call, depth + 1)

    def _decorator_call(self, ev, scope, call, depth):
        callee, args = call
        m = ev.m
        out: set = set()
        for f in ordered(ev.eval_text(scope, callee, depth=depth + 1)[0]):
            if f[0] in (SYM, BOUND) and m.kind.get(f[1]) in FUNCTION_KINDS:
                bound = self._bind_call(ev, f, args, scope, depth)
                if bound is not None:
                    out |= self._returns_with(ev, f[1], bound, depth + 1)
                    continue
            out |= ev.call_result(f, args, scope, depth + 1)
        return frozenset(out)

    def _bind_call(self, ev, f, args, scope, depth, given=None):
        """Parameter name -> values for a call of function value `f` with `args` written
        in `scope` (an argument naming a key of `given` takes those values); parameters
        not passed take their default. None for `*` / `**` arguments."""
        m = ev.m
        ps = ev.params(f[1])
        if ps is None:
            return None
        shift = self._shift(m, f)
        bound: dict = {}
        parts = [a.strip() for a in split_top(args, (",",))] if args.strip() else []
        pos = shift
        for a in parts:
            if a.startswith("*"):
                return None
            kv = split_top(a, ("=",))
            if len(kv) == 2 and kv[0].strip().isidentifier():
                name, a = kv[0].strip(), kv[1].strip()
            else:
                if pos >= len(ps) or ps[pos].kind != "pos":
                    return None
                name = ps[pos].name
                pos += 1
            bound[name] = (given[a] if given is not None and a in given
                           else ev.eval_text(scope, a, depth=depth + 1)[0])
        for p in ps[shift:]:
            if p.name not in bound and p.kind in ("pos", "kwonly") and p.default is not None:
                outer = m.ns(m.parent.get(f[1])) or f[1]
                bound[p.name] = frozenset(v for v in ev.eval_text(outer, p.default, depth=depth + 1)[0]
                                          if v[0] not in (BUILTIN_INST, LITERAL))
        return bound

    def _returns_with(self, ev, fn, bound, depth):
        """What function `fn` returns when its parameters named in `bound` hold those
        values: a return of such a parameter gives its values, a return of `g(p)` with
        `p` such a parameter gives `g`'s returns the same way; other returns as usual.
        Of an optional-argument decorator's `return wrap` and `return wrap(p)`, only
        the second when `p` holds something (it was passed: the decorator used bare)."""
        m = ev.m
        if depth > ev.MAX_DEPTH:
            return set()
        if m.lazy:                    # incremental runs load bindings per file
            m.ensure_bindings(m.path.get(fn))
        ev.memo.read(fn)
        rows = m.returns.get(fn, ())
        if not rows:
            return ev.returns_of(fn, depth + 1)
        texts = [(r[3] or "").strip() for r in rows]
        calls = [_last_call(t) for t in texts]
        passed = {c[0] for c in calls if c is not None and any(
            bound.get(a.strip()) for a in split_top(c[1], (",",)))}
        out: set = set()
        for row, t, call in zip(rows, texts, calls):
            if t in bound:
                out |= bound[t]
                continue
            if t in passed:
                continue                  # `if p is None: return wrap`, with p passed
            if call is not None and any(a.strip() in bound for a in split_top(call[1], (",",))):
                for g in ordered(ev.eval_text(fn, call[0], depth=depth + 1)[0]):
                    gb = (self._bind_call(ev, g, call[1], fn, depth, bound)
                          if g[0] in (SYM, BOUND) and m.kind.get(g[1]) in FUNCTION_KINDS else None)
                    if gb is not None:
                        out |= self._returns_with(ev, g[1], gb, depth + 1)
                    else:
                        out |= ev.call_result(g, call[1], fn, depth + 1)
                continue
            out |= ev.binding_values(row, depth + 1)
        if m.yields.get(fn):
            out.add((CONTAINER, fn, "<yield>"))
        return out

    # ---------------------------------------------------------------- modules and imports
    def import_values(self, ev, row, depth):
        m = ev.m
        dotted = self.module_name(m, row)
        if dotted is None:
            return set(), False
        name, alias = row["name"], row["alias"]
        if name:                                   # from m import name [as alias]
            mid = self.module(m, dotted)
            if mid is None:
                sub = self.module(m, f"{dotted}.{name}" if dotted else name)
                if sub is not None:
                    return {(SYM, sub)}, False
                return ({(EXT, f"{dotted}.{name}")} if not (row["module"] or "").startswith(".") else set()), False
            sub = self.module(m, f"{dotted}.{name}")
            if sub is not None and mid == m.file_module.get(row["path"]):
                # `from . import x` in the package's own `__init__` (`try: import _c as x`
                # / `except ImportError: from . import x`): the submodule
                return {(SYM, sub)}, False
            got, via = ev.module_attr(mid, name, depth + 1)
            # the package's attribute being that submodule is no re-export
            return got, via and not (sub is not None and got == {(SYM, sub)})
        if alias:                                  # import a.b as c
            mid = self.module(m, dotted)
            return ({(SYM, mid)} if mid is not None else {(EXT, dotted)}), False
        top = dotted.split(".")[0]                 # import a.b.c binds a
        mid = self.module(m, top)
        if mid is None:
            return {(EXT, top)}, False
        return {(SYM, mid)}, False

    def import_member(self, ev, row, name, depth):
        mid = self.module_of_row(ev.m, row)
        if mid is None:
            return set(), False
        if name.startswith("_"):
            return set(), False
        got, _ = ev.module_attr(mid, name, depth + 1)
        return got, True

    def module_attr_missing(self, ev, mid, name, depth):
        m = ev.m
        sub = self.module(m, f"{m.qual[mid]}.{name}")
        if sub is not None:
            return {(SYM, sub)}, False
        for row in _last_first(m.star_imports.get(mid, ())):
            got, _ = self.import_member(ev, row, name, depth + 1)
            if got:
                return got, True
        return python_globals.module_getattr(ev, mid, name, depth), False

    def global_scopes(self, ev, mid, name):
        # the scopes of module `mid` declaring `global name`, in source order (asked for
        # every module scope a lookup walks, ~170,000 times on the standard library)
        got = python_globals.declared(ev.m)[0].get(mid)
        return got.get(name, ()) if got else ()

    def resolve_import(self, ev, row):
        m = ev.m
        dotted = self.module_name(m, row)
        mid = self.module(m, dotted) if dotted is not None else None
        how = "import"
        if row["name"] and row["name"] != "*" and mid is not None:
            sub = self.module(m, f"{dotted}.{row['name']}")
            if sub is not None and mid == m.file_module.get(row["path"]):
                vals, via = {(SYM, sub)}, False         # `from . import x` in the package itself
            else:
                vals, via = ev.module_attr(mid, row["name"], 0)
            if not vals and sub is not None:
                vals, via = {(SYM, sub)}, False
            if sub is not None and vals == {(SYM, sub)}:
                mid, via = sub, False
            how = "reexport" if via else ("alias" if row["alias"] else "import")
        elif row["name"] and row["name"] != "*" and dotted:
            vals = {(EXT, f"{dotted}.{row['name']}")}
        elif row["name"] == "*":
            vals = {(SYM, mid)} if mid is not None else ({(EXT, dotted)} if dotted else set())
        elif mid is not None or dotted:
            full = self.module(m, dotted) if dotted else None
            vals = {(SYM, full)} if full is not None else {(EXT, dotted)}
            mid = full
            how = "alias" if row["alias"] else "import"
        else:
            vals = set()
        return vals, how, (m.path.get(mid) if mid is not None else None)

    # ---------------------------------------------------------------- mappings
    def makes_mapping(self, row):
        vtype, value = row[4], row[3] or ""
        if vtype in ("dictionary", "dictionary_comprehension"):
            return True
        if vtype == "assignment":         # `table = d = {}`: the value assigned last
            value = split_top(value, (" = ",))[-1]
            return self.mapping_literal(value) or _MAPPING_CALL.match(value) is not None
        return vtype == "call" and _MAPPING_CALL.match(value) is not None

    def mapping_literal(self, text):
        if text[:1] != "{":
            return False
        if text == "{}":
            return True
        # a literal's text is cut at 200 characters: the first item says
        parts = split_top(text[1:-1] if match_bracket(text, 0) == len(text) else text[1:], (",",))
        return bool(parts) and (len(split_top(parts[0], (":",))) == 2 or parts[0].startswith("**"))

    # ---------------------------------------------------------------- calls and classes
    def implicit_sites(self, ev, scope, sites):
        return python_implicit.scope_sites(ev, scope, sites)

    def implicit_calls(self, ev, scope, path, text, line, targets):
        return python_implicit.call_sites(ev, scope, path, text, line, targets)

    def operator_values(self, ev, scope, text, depth):
        return python_implicit.operator_values(ev, scope, text, depth)

    def call_instance(self, ev, cls):
        r = ev.mro_lookup(cls, "__call__")
        return r[1] if r is not None and r[0] == SYM else None

    def call_builtin(self, ev, name, args, scope, depth):
        if name in _PASS_FIRST and args:
            a = first_arg(args)
            inner = set(ev.eval_text(scope, a, depth=depth + 1)[0]) if a else set()
            if name in ("staticmethod", "classmethod", "property"):
                return inner
            if name == "next":
                out = set()
                for x in ordered(inner):
                    out |= ev.iter_values(x, depth + 1)
                return out
            tname = "list" if name in ("sorted", "reversed", "iter") else name
            return {(BUILTIN_INST, tname), (ELEMENTS, scope, a)}
        if name == "getattr" and args:
            return self._getattr(ev, split_top(args, (",",)), scope, depth)
        if name in PY_BUILTIN_TYPES:
            return {(BUILTIN_INST, name)}
        return set()

    @staticmethod
    def _getattr(ev, parts, scope, depth):
        """`getattr(obj, "name")`: the member; `getattr(obj, "do_" + cmd)`: the methods
        named with that prefix (of `obj`'s class and its subclasses, `prefixed_methods`);
        `getattr(obj, name, default)`: also the default, whatever the name."""
        out: set = set()
        if len(parts) < 2:
            return out
        names = attr_names(ev, scope, parts[1])
        if names:
            obj = ev.eval_text(scope, parts[0], depth=depth + 1)[0]
            for o in ordered(obj):
                for attr, prefix in names:
                    if not prefix:
                        out |= ev.member(o, attr, depth + 1)[0]
                    elif o[0] == INST or (o[0] == SYM and ev.m.kind.get(o[1]) in CLASS_KINDS):
                        for r in ordered(ev.prefixed_methods(o[1], attr)):
                            out.add((BOUND, r[1]) if o[0] == INST and r[1] not in ev.m.static
                                    and r[1] not in ev.m.classmeth else r)
        if len(parts) == 3:
            out |= {v for v in ev.eval_text(scope, parts[2], depth=depth + 1)[0]
                    if v[0] not in (BUILTIN_INST, LITERAL)}
        return out

    def call_external(self, ev, name, args, scope, depth):
        if name in _HEAP_TAKES:            # `heapq.heappop(heap)`: an element of `heap`
            a = first_arg(args)
            out: set = set()
            for x in ordered(ev.eval_text(scope, a, depth=depth + 1)[0] if a else ()):
                out |= ev.elements_of(x, depth + 1)
            return out
        if name in ("functools.partial", "functools.update_wrapper"):
            # `partial(f, ...)` calls `f`; `update_wrapper(wrapper, wrapped)` returns `wrapper`
            a = first_arg(args)
            return set(ev.eval_text(scope, a, depth=depth + 1)[0]) if a else set()
        if name == "functools.wraps":
            # `wraps(f)` is `partial(update_wrapper, ...)`: applied, it calls `update_wrapper`
            return {(EXT, "functools.update_wrapper")}
        if name == python_import_module.IMPORT_MODULE:
            got = python_import_module.imported(self, ev.m, split_top(args, (",",)) if args.strip() else [])
            if got is not None:
                return got
        return super().call_external(ev, name, args, scope, depth)

    def call_function(self, ev, f, args, scope, depth):
        """`importlib.import_module` of the repository's own (the standard library
        indexed) and functions handing a parameter on to it: `python_import_module`."""
        return python_import_module.call_result(self, ev, f, args, depth)

    def constructor(self, ev, cls):
        r = ev.mro_lookup(cls, "__init__")
        return r[1] if r is not None and r[0] == SYM else None

    def abstract_method(self, ev, fn):
        """`@abstractmethod` ("abstract": `abc` refuses to instantiate a class that has
        not overridden it), or a method raising `NotImplementedError` ("raises"), called
        (`raise NotImplementedError(...)`, as `logging.Handler.emit` does) or bare
        (`raise NotImplementedError`, as `socketserver.BaseServer.get_request`: a
        `raise` row of the bindings)."""
        m = ev.m
        if any("abstractmethod" in d for d in m.decos.get(fn, ())):
            return "abstract"
        return "raises" if fn in self._not_implemented(m) else None

    @staticmethod
    def _not_implemented(m) -> frozenset:
        """The symbols calling `NotImplementedError(...)` or raising it bare (extracted
        rows: callback and implicit rows, which resolution writes, do not count), read once per model;
        a kept model's carried over from its last run (`_refresh_not_implemented`), with
        the rows of the symbols added since read then."""
        got = m.ext.get("python.not_implemented")
        if got is None:
            base, rows = since_first(m, "python.not_implemented.kept", """
                SELECT src_id FROM edges
                WHERE kind = 'calls' AND dst_name = 'NotImplementedError'
                  AND resolution IS DISTINCT FROM 'callback'
                  AND resolution IS DISTINCT FROM 'implicit' {since}
                UNION
                SELECT src_id FROM bindings WHERE kind = 'raise' AND value = 'NotImplementedError' {since}""")
            got = frozenset(r[0] for r in rows)
            if base is not None:
                got |= base
            m.ext["python.not_implemented"] = got
        return got

    @staticmethod
    def _refresh_not_implemented(m, old_ext, gone_ids: set, new: list[int]) -> None:
        """`_not_implemented` of a kept model: the last run's set without the symbols gone,
        and the first id of the symbols added since (`new`, and those of earlier runs
        that never read the set), whose rows are read when the set is first needed."""
        carry(m, old_ext, "python.not_implemented.kept", old_ext.get("python.not_implemented"),
              lambda got: got - gone_ids, new)

    def before_helper(self, m) -> None:
        self._not_implemented(m)
        python_globals.declared(m)
        python_fills.outside_fills(m)
        # made once here, the helpers inherit them; and the model this process keeps has
        # them for its next run (it evaluates nothing itself while the helpers do)
        _decorator_flows(m)

    def outside_fills(self, m) -> dict:
        return python_fills.outside_fills(m)

    def provides(self, m, paths):
        return python_fills.provides(m, paths)

    def class_field_values(self, ev, fid):
        """An enum's members (`OK = 200` in `class Status(enum.Enum)`) are instances of the
        enum: `Status.OK.phrase()` calls `Status.phrase`."""
        m = ev.m
        owner = m.parent.get(fid)
        if owner is None or m.kind.get(owner) not in CLASS_KINDS or m.name[fid].startswith("_"):
            return None
        if any(b[0] == EXT and b[1] in _ENUM_BASES for b in ev.mro(owner)):
            return {(INST, owner)}
        return None

    def outside_attribute(self, ev, cls, found):
        """An enum member's `name` (and `_name_`) is a `str` (`self.name.replace(...)` on a
        member of `class Status(enum.Enum)`), not an outside attribute named after the base."""
        base, _, attr = found[1].rpartition(".")
        if found[0] == EXT and attr in ("name", "_name_") and base in _ENUM_BASES:
            return {(BUILTIN_INST, "str")}
        return None

    def declared_return(self, ev, fn):
        sig = ev.m.sig.get(fn) or ""
        if "->" in sig:
            return declared_type(sig.rsplit("->", 1)[1].strip().rstrip(":").strip("'\""))
        return None

    def declared_field_type(self, ev, fid):
        return annotated_type(ev.m.sig.get(fid))

    # ---------------------------------------------------------------- parameters
    def params(self, sig):
        return py_params(sig)

    # (the function itself: asked ~115,000 times on the standard library)
    special_param = staticmethod(python_first.special_param)

    def decorator_flows(self, ev, fn):
        """`@d` / `@f(...)` pass the decorated function to `d` / to what `f(...)` returns
        (looked up by `d`'s or `f`'s name)."""
        m = ev.m
        flows = _decorator_flows(m)
        keys = [m.name[fn]]
        outer = m.ns(m.parent.get(fn))
        if outer is not None and m.kind.get(outer) in FUNCTION_KINDS:
            keys.append(m.name[outer])
        cls = m.enclosing_class(fn)
        if cls is not None and m.name[fn] == "__init__":
            keys.append(m.name[cls])
        out = []
        for k in keys:
            ev.read_name("g:" + k)
            out.extend(flows.get(k, ()))
        return out
