"""What flows through calls in the evaluator: `Flows`, a mixin of `evaluate.Resolver`
(see that module's doc).

What calling a value runs (`call_target`) and returns (`call_result`, `returns_of`: its
return and yield rows, else its declared return type; `classmethod_result`: an inherited
alternate constructor called through a subclass), what a container holds
(`elements_of`: element rows, literals, generators, `*args`, `__iter__`, a mapping's views)
and what iterating it gives (`iter_values`: a mapping's keys, `keys_of`, when
`is_mapping` says it is one), one position of a stored `*args` tuple (`arg_at`), a function's
parameters (`params`, parsed once per signature) and their values (`param_values`: an
annotation, a default, or the arguments passed at the evident call sites, `_arg_flows`,
those passed to the result of a call of a function returning it among them, `_returned_by`),
and the repository functions a call hands to a builtin that calls them
(`passed_callbacks`: `sorted(xs, key=f)`, read from `Language.callback_params`).

The methods use the state `Resolver.__init__` sets (`m`, `memo`, `rules`, `read_name`,
`export`, `param_flow_cap`, `_params`, `_by_sig`) and call the other evaluator methods
through `self`; this module imports neither the evaluator nor any language module.
"""
from __future__ import annotations

from .aliasflows import AliasFlows
from .argrows import ARG_ROWS_MAX, lands, of_call
from .exprs import first_arg, literal_entries, literal_pairs, match_bracket, split_top, string_value
from .kinds import CLASS_KINDS, FUNCTION_KINDS
from .values import (ARGS, BOUND, BUILTIN, BUILTIN_INST, CONTAINER, CONTAINER_CALL, ELEMENTS,
                     EMPTY, EXT, EXT_RESULT, INST, KWARGS, LITERAL, MODULE, SYM, VIEW, Param, declared_type, ordered)

_NO: dict = {}      # the default of the model's dict-of-dicts lookups (read only: never filled)
#: values an attribute's container filled from outside leaves out (`_elements_of`)
_FOREIGN = frozenset({EXT, EXT_RESULT, BUILTIN, BUILTIN_INST})
_HOLDERS = frozenset({CONTAINER, LITERAL, ARGS, ELEMENTS, INST, VIEW})    # values `elements_of` looks into
#: a parameter taking positional arguments only (`arg_at`: no keyword nor `**` matches it)
_POSITIONAL = Param("", kind="var")
#: the texts of what a call through another name passes on (`AliasFlows._is_code`)
_CODE_TEXTS = frozenset(("identifier", "attribute", "lambda"))
#: a mapping's methods returning a view of it (`VIEW`)
_VIEWS = frozenset({"keys", "values", "items"})
#: a mapping's methods taking a key first and giving its value (`KWARGS`: the keyword passed)
_KEYED = frozenset({"get", "pop", "setdefault", "__getitem__"})


class Flows(AliasFlows):
    """Call targets and results, returns, container elements, parameters and argument
    flows: methods of `evaluate.Resolver`."""

    # ------------------------------------------------------------ calls
    def call_target(self, v: tuple, fam: str):
        """What calling value `v` runs: (SYM, id) | (EXT, name) | (BUILTIN, name) | None."""
        m = self.m
        t = v[0]
        if t in (SYM, BOUND):
            k = m.kind.get(v[1])
            rules = self.rules(fam)
            if k in rules.callable_kinds:
                return (SYM, v[1])
            if k in CLASS_KINDS:
                ctor = rules.constructor(self, v[1])
                if ctor is not None:
                    return (SYM, ctor)
                if self.export:
                    return None
                return (SYM, v[1])
            return None
        if t == INST:
            r = self.rules(fam).call_instance(self, v[1])
            return (SYM, r) if r is not None else None
        if t == MODULE:
            got, _ = self.module_attr(v[1], "default", 0)
            for g in ordered(got):
                r = self.call_target(g, fam)
                if r is not None:
                    return r
            return None
        if t in (EXT, BUILTIN):
            return v
        return None

    def call_result(self, v: tuple, args: str, scope: int, depth: int, new: bool = False) -> set:
        """Values a call of `v` (with `args` as written) returns."""
        m = self.m
        t = v[0]
        if t in (SYM, BOUND):
            k = m.kind.get(v[1])
            if k in CLASS_KINDS:
                return {(INST, v[1])}
            if k in FUNCTION_KINDS:
                if new:
                    cls = m.enclosing_class(v[1]) if k == "constructor" else None
                    return {(INST, cls)} if cls else set()
                got = self.rules(m.fam.get(v[1])).call_function(self, v, args, scope, depth)
                return got if got is not None else self.returns_of(v[1], depth + 1)
            return set()
        if t == MODULE:
            got, _ = self.module_attr(v[1], "default", depth + 1)
            out = set()
            for g in ordered(got):
                out |= self.call_result(g, args, scope, depth + 1, new)
            return out
        if t == INST:
            r = self.mro_lookup(v[1], "__call__")
            if r is not None and r[0] == SYM:
                return self.returns_of(r[1], depth + 1)
            return set()
        if t == CONTAINER_CALL:
            if v[1][0] == KWARGS:             # `kwargs.get("k")`, `kwargs.pop("k", None)`
                key = string_value(first_arg(args) or "") if v[2] in _KEYED else None
                return self.keyword_values(v[1][1], key, depth + 1) if key else set()
            if v[2] in _VIEWS:
                return {(VIEW, v[1], v[2])}
            if v[2] in ("copy", "__iter__"):
                return {v[1]}
            return self.elements_of(v[1], depth + 1)
        if t == EXT:
            return self.rules(m.fam.get(scope)).call_external(self, v[1], args, scope, depth)
        if t == BUILTIN:
            return self.rules(m.fam.get(scope)).call_builtin(self, v[1], args, scope, depth)
        return set()

    def classmethod_receivers(self, v: tuple, got, recv: dict | None) -> dict | None:
        """`recv` (classmethod value -> the class it was reached through, None when
        through several) with the classmethods among `got`, the members of value `v`,
        that `v`, a class, inherits from a base."""
        m = self.m
        if m.kind.get(v[1]) not in CLASS_KINDS:
            return recv
        for g in got:
            if g[0] == SYM and g[1] in m.classmeth and m.enclosing_class(g[1]) != v[1]:
                if recv is None:
                    recv = {}
                recv[g] = v[1] if recv.get(g, v[1]) == v[1] else None
        return recv

    def classmethod_result(self, fn: int, cls: int, depth: int) -> set | None:
        """What classmethod `fn` returns when called on its defining class's subclass
        `cls`, when it returns `cls(...)` (an alternate constructor: an instance of
        `cls`, not of the defining class, as `Circle.make()`); else None."""
        m = self.m
        ps = self.params(fn)
        if not ps:
            return None
        if m.lazy:                    # incremental runs load bindings per file
            m.ensure_bindings(m.path.get(fn))
        self.memo.read(fn)
        made = ps[0].name + "("
        rows = m.returns.get(fn, ())
        if not any((r[3] or "").startswith(made) for r in rows):
            return None
        out: set = set()
        for row in rows:
            if (row[3] or "").startswith(made):
                out.add((INST, cls))
            else:
                out |= self.binding_values(row, depth + 1)
        if m.yields.get(fn):
            out.add((CONTAINER, fn, "<yield>"))
        return out

    def passed_callbacks(self, src_id: int, text: str, line: int | None, target: str) -> list:
        """The repository functions handed to `target`, a builtin or external function
        called as `text` inside symbol `src_id` at `line`, at a parameter it calls
        (`Language.callback_params`: `sorted(xs, key=f)`, `map(f, xs)`,
        `functools.reduce(f, xs)`): [(argument as written, (SYM, id))], in the arguments'
        order, each pair once. Only arguments that evaluate to something whose call runs
        in the repository count (not `key=str.lower`); two calls written `text` on one
        line of one scope share their answers."""
        m = self.m
        scope = m.ns(src_id)
        if scope is None or line is None:
            return []
        fam = m.fam.get(scope)
        slots = self.rules(fam).callback_params.get(target)
        if not slots:
            return []
        # the argument rows read are those of `scope` (in the file being resolved): no
        # name token to note (`deps`), an edit of them is an edit of this file
        out: list = []
        rows = self._rows_at(m.arg_rows_in(m.path.get(scope), text.rpartition(".")[2]))
        for row in rows.get((scope, line), ()):
            callee, _, slot = row[2].rpartition("#")
            if callee != text or slot not in slots:
                continue
            for v in ordered(self.binding_values(row, 1)):
                t = self.call_target(v, fam)
                if t is not None and t[0] == SYM and (row[3], t) not in out:
                    out.append((row[3], t))
        return out

    def _rows_at(self, rows) -> dict:
        """Argument rows `rows` (a callee name's, `Model.arg_rows_in`) by (scope, line), in
        their order: made once per list and run (`_at_rows`; a builtin taking callbacks,
        `sorted` or `map`, has thousands of calls, and each one looked for its own rows).
        As `python_implicit._first_args` keeps its own."""
        got = self._at_rows.get(id(rows))
        if got is None or got[0] is not rows or got[1] != len(rows):
            by: dict = {}
            for row in rows:
                at = (row[0], row[6])
                held = by.get(at)
                if held is None:
                    by[at] = [row]
                else:
                    held.append(row)
            got = self._at_rows[id(rows)] = (rows, len(rows), by)
        return got[2]

    def returns_of(self, fn: int, depth: int) -> set:
        """Values function `fn` returns (or yields: a generator is a container)."""
        return self.memo(("ret", fn), depth, True, EMPTY, self._returns_of, fn, depth)

    def _returns_of(self, fn: int, depth: int) -> set:
        m = self.m
        if m.lazy:                    # incremental runs load bindings per file
            m.ensure_bindings(m.path.get(fn))
        out: set = set()
        for row in m.returns.get(fn, ()):
            out |= self.binding_values(row, depth + 1)
        if m.yields.get(fn):
            out.add((CONTAINER, fn, "<yield>"))
        if not out:
            t = self.rules(m.fam.get(fn)).declared_return(self, fn)
            if t:
                tv, _ = self.eval_text(m.ns(m.parent.get(fn)) or fn, t, depth=depth + 1)
                for x in ordered(tv):
                    if x[0] == SYM and m.kind.get(x[1]) in CLASS_KINDS:
                        out.add((INST, x[1]))
        return out

    def elements_of(self, v: tuple, depth: int) -> set:
        """Values stored in container value `v` (what iterating or indexing it gives).

        Asked again for `v` inside their own evaluation, the elements of `v` are a cycle
        (`x = tuple(x)`, `args = list(args)`: the elements of `x` are those of the values
        `x` has, itself among them), cut as the memo cuts any other (`Memo.passing`): the
        inner request gives nothing, so `x = tuple(x)` gives the elements of `x`'s other
        values. The result is not memoised (mostly asked for once)."""
        if v[0] not in _HOLDERS:
            return set()
        return self.memo.passing(("elems", v), depth, EMPTY, self._elements_of, v, depth)

    def iter_values(self, v: tuple, depth: int) -> set:
        """What iterating value `v` gives (`for x in v`, `list(v)`, `sorted(v)`): its
        elements, or a mapping's keys (`is_mapping`)."""
        if v[0] in (CONTAINER, LITERAL) and self.is_mapping(v, depth):
            return self.keys_of(v, depth)
        return self.elements_of(v, depth)

    def is_mapping(self, v: tuple, depth: int = 0) -> bool:
        """Whether container value `v` is a mapping iterated by its keys
        (`Language.makes_mapping`): a literal written as one, or a container whose name the
        nearest scope binding it assigns one (`d = {}`, `d = dict(...)`; for `self.d`, an
        assignment `self.d = {}` in a method of the class). Elements stored in it (`d[k] =
        f`, `{k: f}`) are its values. One filled from outside (`env.filters[k] = f`,
        `Members.filled_outside`) is a mapping when the attribute is one on an object the
        text before `.filters` evaluates to."""
        m = self.m
        if v[0] == LITERAL:
            return self.rules(m.fam.get(v[1])).mapping_literal(v[2])
        scope, name = v[1], v[2]
        rules = self.rules(m.fam.get(scope))
        if not rules.iterates_mapping_keys or name == "<yield>" or name.endswith("]"):
            return False
        head, dot, attr = name.rpartition(".")
        if dot:
            if head != self.self_name(scope):
                return self._mapping_outside(scope, head, attr, depth)
            cls = m.enclosing_class(scope)
            if cls is None:
                return False
            rows = self.class_attrs(cls)[0].get(attr, ())
            self.memo.read(cls)
            if any(rules.makes_mapping(r) for r in rows):
                return True
            return any(rules.makes_mapping(r) for r in m.binds.get(cls, _NO).get(attr, ()))
        # the scopes walked are `scope` and those around it, all of its file
        self.memo.read(scope)
        got = self._mapping.get((scope, name))
        if got is None:
            rows = self.nearest_binds(scope, name)[1]
            got = any(rules.makes_mapping(r) for r in rows if r[1] == "assign")
            self._mapping[(scope, name)] = got
        return got

    def _mapping_outside(self, scope: int, head: str, attr: str, depth: int) -> bool:
        """Whether attribute `attr` of what `head` evaluates to in `scope` is a mapping
        (`is_mapping`): of an instance or a class, as `is_mapping` says for `self.attr`
        in its class; of a module, for its name `attr`."""
        m = self.m
        for v in ordered(self.eval_text(scope, head, depth=depth + 1)[0]):
            if v[0] in (INST, SYM) and (v[0] == INST or m.kind.get(v[1]) in CLASS_KINDS):
                rules = self.rules(m.fam.get(v[1]))
                self.memo.read(v[1])
                if any(rules.makes_mapping(r) for r in self.class_attrs(v[1])[0].get(attr, ())):
                    return True
                if any(rules.makes_mapping(r) for r in m.binds.get(v[1], _NO).get(attr, ())):
                    return True
            elif v[0] == SYM and m.kind.get(v[1]) == "module":
                if self.is_mapping((CONTAINER, v[1], attr), depth + 1):
                    return True
        return False

    def nearest_binds(self, scope: int, name: str) -> tuple:
        """(scope, rows): the nearest of `scope` and the scopes around it whose binding rows
        bind `name`, and those rows; (None, ()) when none does. Each scope walked is read."""
        m = self.m
        s = scope
        while s is not None:
            if m.lazy:                        # incremental runs load bindings per file
                m.ensure_bindings(m.path.get(s))
            self.memo.read(s)
            rows = m.binds.get(s, _NO).get(name)
            if rows:
                return s, rows
            s = m.ns(m.parent.get(s))
        return None, ()

    def keys_of(self, v: tuple, depth: int) -> set:
        """The keys of mapping value `v` the code makes evident: those of the dict literals
        it was assigned (keys put in by `d[k] = f` are not recorded)."""
        m = self.m
        if v[0] not in (LITERAL, CONTAINER) or not self.rules(m.fam.get(v[1])).iterates_mapping_keys:
            return set()              # (a JavaScript object literal's keys are no expressions)
        if v[0] == LITERAL:
            texts = [(v[1], v[2])]
        else:
            texts = []
            if "." not in v[2]:
                s, rows = self.nearest_binds(v[1], v[2])
                texts = [(s, split_top(r[3] or "", (" = ",))[-1]) for r in rows if r[1] == "assign"]
        out: set = set()
        for scope, text in texts:
            if text[:1] != "{":
                continue
            if match_bracket(text, 0) == len(text):
                parts = split_top(text[1:-1], (",",))
            else:                         # cut at 200 characters: the pairs written whole
                parts = split_top(text[1:], (",",))[:-1]
            for part in parts:
                kv = split_top(part, (":",))
                if len(kv) == 2:
                    out |= self.eval_text(scope, kv[0], depth=depth + 1)[0]
        return out

    def _elements_of(self, v: tuple, depth: int) -> set:
        m = self.m
        t = v[0]
        if t == VIEW:
            c, what = v[1], v[2]
            if what == "values":
                return self.elements_of(c, depth + 1)
            if what == "keys":
                return self.keys_of(c, depth + 1)
            if what == "items":
                return {(VIEW, c, "pair")}
            # a pair (`kv` in `for kv in d.items()`): its key and its value
            return self.elements_of((VIEW, c, "keys"), depth + 1) | self.elements_of(c, depth + 1)
        if t == CONTAINER:
            scope, name = v[1], v[2]
            self.memo.read(scope)
            if m.lazy:                    # incremental runs load bindings per file
                m.ensure_bindings(m.path.get(scope))
            if name == "<yield>":
                out: set = set()
                for row in m.yields.get(scope, ()):
                    out |= self.binding_values(row, depth + 1)
                return out
            out = set()
            span = v[3:]
            for row in m.elements.get(scope, _NO).get(name, ()):
                if span and (row[6] is None or row[6] < span[0] or (span[1] is not None and row[6] >= span[1])):
                    continue              # put in before or after the span (`container_span`)
                out |= self.binding_values(row, depth + 1)
            if "." in name and out and name.rpartition(".")[0] != self.self_name(scope):
                # filled from outside its owner (`Members.filled_outside`): what the
                # repository defines only (`app.handlers.append(functools.partial(...))`
                # says nothing the owner's code can follow)
                out = {x for x in out if x[0] not in _FOREIGN}
            return out
        if t == LITERAL:
            out = set()
            for it in literal_entries(v[2]) or ():
                if it[:1] == "*":             # `(*self.params, last)`: the items of params
                    for x in ordered(self.eval_text(v[1], it[1:], depth=depth + 1)[0]):
                        out |= self.iter_values(x, depth + 1)
                else:
                    out |= set(self.eval_text(v[1], it, depth=depth + 1)[0])
            return out
        if t == ARGS:
            ps = self.params(v[1]) or []
            if v[2] < len(ps):
                return self._arg_flows(v[1], v[2], ps[v[2]], depth + 1, rest=True)
            return set()
        if t == ELEMENTS:
            out = set()
            for x in ordered(self.eval_text(v[1], v[2], depth=depth + 1)[0]):
                out |= self.iter_values(x, depth + 1)
            return out
        # INST: the elements of what its `__iter__` returns: an iterator of the repository
        # (`return self`, as `shlex.shlex` and `fileinput.FileInput` are written) gives what
        # its `__next__` returns
        r = self.mro_lookup(v[1], "__iter__")
        if r is not None and r[0] == SYM:
            out = set()
            for x in ordered(self.returns_of(r[1], depth + 1)):
                if x[0] == INST:
                    nxt = self.mro_lookup(x[1], "__next__")
                    if nxt is not None and nxt[0] == SYM and self.m.kind.get(nxt[1]) in FUNCTION_KINDS:
                        out |= self.returns_of(nxt[1], depth + 1)
                        continue
                out |= self.iter_values(x, depth + 1)
            return out
        return set()

    # ------------------------------------------------------------ parameters
    def params(self, fn: int) -> list[Param] | None:
        got = self._params.get(fn)
        if got is None:
            got = self._params_of(fn)
        return got[0]

    def _params_of(self, fn: int) -> tuple:
        m = self.m
        fam, sig = m.fam.get(fn), m.sig.get(fn)
        same = self._by_sig[fam]
        got = same.get(sig)
        if got is None:
            ps = self.rules(fam).params(sig)
            got = same[sig] = (ps, tuple([p.name for p in ps]) if ps else ())
        self._params[fn] = got
        return got

    def param_values(self, fn: int, name: str, depth: int):
        """(values, how) of parameter `name` of function `fn`, or None if it is not one."""
        rules = self.rules(self.m.fam.get(fn))
        got = self._params.get(fn)
        if got is None:
            got = self._params_of(fn)
        ps, names = got
        if name not in names and rules.special_params_listed:
            return None
        special = rules.special_param(self, fn, name, depth)
        if special is not None:
            return special
        if name not in names:
            return None
        idx = names.index(name)
        got = self.memo(("param", fn, name), depth, False, EMPTY, self._param_values, fn, idx, ps[idx], depth)
        return got, "inferred"

    def _param_values(self, fn: int, idx: int, p: Param, depth: int) -> frozenset:
        m = self.m
        vals: set = set()
        outer = m.ns(m.parent.get(fn)) or fn
        if p.annotation:
            t = declared_type(p.annotation.strip("'\""))
            if t:
                tv = self.eval_text(outer, t, depth=depth + 1)[0]
                # `cb: Callable[[], None]` says a function comes in: the call sites say which
                ftypes = self.rules(m.fam.get(fn)).function_types
                if not any(v[0] == EXT and v[1] in ftypes for v in tv):
                    vals |= self.instances_of(tv)
        if not vals:
            if p.default:
                vals |= {v for v in self.eval_text(outer, p.default, depth=depth + 1)[0]
                         if v[0] not in (BUILTIN_INST, LITERAL)}
            if p.kind in ("pos", "kwonly"):
                vals |= self._arg_flows(fn, idx, p, depth)
            elif p.kind == "var":
                vals.add((ARGS, fn, idx))     # *args: the positional arguments from idx on
            elif p.kind == "varkw":
                vals.add((KWARGS, fn))        # **kwargs: the keywords its call sites pass
        # a builtin type's instance is left out beside other values, not beside the
        # containers filled through an attribute holding it (`self.hooks = {}` and
        # `s.hooks["response"].append(f)`: still a dict)
        one = len(vals) == 1 or sum(1 for v in vals if v[0] != CONTAINER or "." not in v[2]) == 1
        return frozenset(v for v in vals if v[0] != BUILTIN_INST or one)

    def arg_at(self, fn: int, idx: int, depth: int) -> set:
        """Values passed to `fn` in position `idx` (counting an explicit `self`) at its
        evident call sites: one slot of its `*args` tuple (`ARGS`), the others kept apart."""
        return self._arg_flows(fn, idx, _POSITIONAL, depth)

    def _arg_flows(self, fn: int, idx: int, p: Param, depth: int, rest: bool = False) -> set:
        """Values passed to parameter `p` (position `idx`) of `fn` at its evident call sites."""
        m = self.m
        kind = m.kind.get(fn)
        names = [] if kind == "lambda" else [m.name[fn]]    # (`<lambdaN>` names no call)
        cls = m.enclosing_class(fn) if kind in ("method", "constructor") else None
        if cls is not None and m.name[fn] in ("__init__", "constructor"):
            names.append(m.name[cls])
        rows = []
        for n in names:
            rows.extend(m.arg_rows(n))
        own = len(rows)
        for n in self._returned_by(fn) if names else ():    # `lru_cache(maxsize=None)(f)` calls what it returns
            got = m.arg_rows(n)
            if len(got) > ARG_ROWS_MAX:     # (followed by none, as for a name of `fn`)
                self.read_name("A:" + n)
                continue
            names.append(n)
            rows.extend(r for r in got if of_call(r[2]))
        if len(rows) > ARG_ROWS_MAX:
            # too many calls by those names to follow: nothing, whatever they pass, and
            # so after any edit that leaves that many calls to one of them (``A:NAME``,
            # see `deps`)
            for n in names:
                self.read_name("A:" + n)
            return set()
        for n in names:
            self.read_name("a:" + n)
        rules = self.rules(m.fam.get(fn))
        rows.extend(rules.decorator_flows(self, fn))
        if len(rows) > ARG_ROWS_MAX:
            return set()
        explicit_self = rules.explicit_self
        # calls reaching `fn` under another name (`callee_aliases`), each with the shift
        # its name calls `fn` with (None: the callee is evaluated, as for the rows above)
        through = len(rows)
        shifts = []
        for row, shift in self._alias_rows(fn, names, depth):
            rows.append(row)
            shifts.append(shift)
        out: set = set()
        checked = 0
        for i, row in enumerate(rows):
            scope, _, name, value, vtype, vid, _line = row
            callee, _, slot = name.rpartition("#")
            # the rows of `fn`'s own names are their calls (`f(x)`), not those of the
            # result of a call (`f(...)(x)`, kept under the name too): those count for a
            # function returning `fn` (taken above)
            if i < own and of_call(name):
                continue
            alias = i >= through
            if alias and vtype not in _CODE_TEXTS:
                continue        # (only code passes on that way: see `_code_through`)
            splat = slot == "**"          # `f(**{"cb": g})`, `f(**opts)`
            if slot.isdigit():
                pos = int(slot)
            elif splat:
                if rest or alias or p.kind not in ("pos", "kwonly"):
                    continue
                pos = None
            else:
                if slot != p.name or rest:
                    continue
                pos = None
            checked += 1
            if checked > self.param_flow_cap:
                break
            if alias:
                out |= self._code_through(row, callee, shifts[i - through], fn, idx, pos, rest, depth)
                continue
            deco = callee == "<decorator>"
            if deco:
                cvals = rules.decorator_values(self, scope, value, depth)
            else:
                cvals, _ = self.eval_text(scope, callee, depth=depth + 1)
            for cv in ordered(cvals):
                tgt = self.call_target(cv, m.fam.get(scope))
                if tgt != (SYM, fn):
                    continue
                if not lands(pos, self._shift(cv, explicit_self), idx, rest):
                    continue
                if deco:
                    out |= rules.decorator_argument(self, vid, value, depth + 1)
                elif splat:
                    out |= self._splat_values(scope, value, p.name, depth + 1)
                else:
                    out |= self.binding_values(row, depth + 1)
        return out

    def _shift(self, cv: tuple, explicit_self: bool) -> int:
        """How many parameters a call of value `cv` passes before its arguments: 1 for the
        receiver of a bound method, the class or the classmethod's `cls` (with an explicit
        `self`), else 0."""
        if explicit_self and (cv[0] == BOUND or (cv[0] == SYM and (
                self.m.kind.get(cv[1]) in CLASS_KINDS or cv[1] in self.m.classmeth))):
            return 1
        return 0

    def _returned_by(self, fn: int) -> list[str]:
        """The names of the functions of `fn`'s file that return it by its name (`return
        decorating_function` in `functools.lru_cache`, `return func2`): a call of their
        result, `lru_cache(maxsize=None)(f)` (an argument row `lru_cache(maxsize=None)#0`,
        kept under `lru_cache`), may call `fn`. Each file's returns read once per run, by
        the name returned."""
        m = self.m
        path = m.path.get(fn)
        by_file = self.lang_cache.setdefault("flows.returned_by", {})
        index = by_file.get(path)
        if index is None:
            index = by_file[path] = {}
            if m.lazy:
                m.ensure_bindings(path)
            returns = m.returns
            for s in m.symbols_in((path,)):
                for row in returns.get(s, ()):
                    index.setdefault(row[3], set()).add(s)
        self.memo.read(fn)
        got = index.get(m.name[fn])
        return sorted({m.name[s] for s in got if s != fn}) if got else []

    def keyword_values(self, fn: int, key: str, depth: int) -> frozenset:
        """What `fn`'s call sites pass under keyword `key` to its `**` parameter (`KWARGS`),
        memoised with the memo's cycle and depth cuts (a chain of functions handing their
        `**kwargs` on may lead back to itself)."""
        return self.memo(("kwarg", fn, key), depth, True, EMPTY, self._keyword_values, fn, key, depth)

    def _keyword_values(self, fn: int, key: str, depth: int) -> frozenset:
        return frozenset(self._arg_flows(fn, -1, Param(key, kind="kwonly"), depth + 1))

    def _forwarded(self, fn: int, name: str, key: str, depth: int) -> frozenset:
        """`f(**kwargs)` where `kwargs` is `fn`'s own `**` parameter (`requests.get(url,
        **kwargs)` handing its options on to `request`): the value under `key` is what
        `fn`'s call sites pass as that keyword (`keyword_values`), or under it in a dict
        they unpack - unless `fn` takes `key` as a parameter of its own (then its `**`
        parameter never holds it)."""
        if self.m.kind.get(fn) not in FUNCTION_KINDS:
            return EMPTY
        ps = self.params(fn)
        if not ps or not any(p.kind == "varkw" and p.name == name for p in ps) \
                or any(p.name == key for p in ps):
            return EMPTY
        return self.keyword_values(fn, key, depth)

    def _splat_values(self, scope: int, text: str, key: str, depth: int) -> set:
        """The value under `key` of the dict `text` unpacked with `**` in `scope`: a dict
        literal (`**{"cb": g}`, or a name assigned one), a local name assigned `dict(cb=g)`
        (`opts = dict(...)` then `f(**opts)`), or `scope`'s own `**` parameter handed on
        (`_forwarded`)."""
        m = self.m
        out: set = set()
        texts = [text]
        if text.isidentifier():
            if m.lazy:                    # incremental runs load bindings per file
                m.ensure_bindings(m.path.get(scope))
            self.memo.read(scope)
            texts += [r[3] for r in m.binds.get(scope, _NO).get(text, ())
                      if r[1] == "assign" and (r[3] or "").startswith("dict(")]
            out |= self._forwarded(scope, text, key, depth)
        for t in texts:
            if t.startswith("dict(") and t.endswith(")"):
                for part in split_top(t[5:-1], (",",)):
                    kv = split_top(part, ("=",))
                    if len(kv) == 2 and kv[0].strip() == key:
                        out |= self.eval_text(scope, kv[1].strip(), depth=depth + 1)[0]
                continue
            for v in ordered(self.eval_text(scope, t, depth=depth + 1)[0]):
                if v[0] == LITERAL:
                    for k, val in literal_pairs(v[2]) or ():
                        if k == key:
                            out |= self.eval_text(v[1], val, depth=depth + 1)[0]
        return out
