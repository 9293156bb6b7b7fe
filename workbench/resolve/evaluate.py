"""The evaluator: callee and value texts to sets of values, the same way in every language.

Texts are the expressions the extractor stored (`edges.dst_name`, `bindings.value`); they
are cut into chains (`exprs.parse_chain`) and evaluated step by step: a name through the
lexical scopes of the model, an attribute through modules, classes (MRO) and instances,
a call through what the callee returns, an index through a container's elements. Where
a language's rules matter, the evaluator asks that language's `Language` object
(`lang/`), passing itself in. Results are memoised with cycle cuts (`memo.Memo`).

`export=True` switches on the call-graph export's semantics: a decorated function's
name evaluates to what its decorators return (the wrapper), not to the function.
"""
from __future__ import annotations

from collections import defaultdict

from .exprs import alternatives, literal_items, parse_chain, split_top
from .kinds import CLASS_KINDS, FUNCTION_KINDS, NAMESPACE_KINDS, VALUE_KINDS
from .lang import rules_of
from .memo import Memo
from .model import Model
from .values import (ARGS, BOUND, BUILTIN, BUILTIN_INST, CONTAINER, CONTAINER_CALL, ELEMENTS,
                     EMPTY, EXT, EXT_RESULT, INST, LITERAL, MODULE, SUPER, SYM, Param,
                     declared_type, ordered)

# methods of a container value whose result is (one of) its elements, or the container
_CONTAINER_METHODS = frozenset({"get", "pop", "popleft", "setdefault", "values", "copy", "__getitem__",
                                "find", "at", "shift", "__iter__"})
_LITERAL_CONTAINERS = ("list", "tuple", "set", "dictionary", "array", "object")
_NO: dict = {}      # the default of the model's dict-of-dicts lookups (read only: never filled)


class _RulesOf(dict):
    """family -> its `Language` rules, looked up once."""

    def __missing__(self, fam):
        got = self[fam] = rules_of(fam)
        return got


class Resolver:
    """Evaluates callee and value texts to sets of values (see the module doc)."""

    MAX_DEPTH = 40

    def __init__(self, model: Model, export: bool = False, param_flow_cap: int = 60):
        self.m = model
        self.export = export
        self.param_flow_cap = param_flow_cap
        self.memo = Memo(self.MAX_DEPTH, model.bit_of)
        self.read_name = self.memo.read_name
        # fn -> (its parameters, their names in order), one pair per family and signature
        # text (~55,000 functions of the standard library are asked about, ~40,000
        # different signatures; a tuple of names: a frozenset of a few takes 216 bytes)
        self._params: dict[int, tuple] = {}
        self._by_sig: dict[str, dict] = defaultdict(dict)
        # `rules(fam)`: the `Language` rules of a family; called millions of times, so the
        # dict's own lookup (no Python frame)
        self.rules = _RulesOf().__getitem__

    # ------------------------------------------------------------ public
    def callee_text(self, src_id: int, text: str, line: int | None) -> str:
        """The callee as an expression: a method called on a computed receiver is stored
        as its bare name (`make().run()` -> `run`); the receiver comes from `bindings`."""
        return self._callee_text(self.m.ns(src_id), text, line)

    def _callee_text(self, scope: int | None, text: str, line: int | None) -> str:
        m = self.m
        if line is None or scope is None or not text.isidentifier():
            return text
        if m.lazy:                    # incremental runs load bindings per file
            m.ensure_bindings(m.path.get(scope))
        recv = m.receivers.get((scope, line, text))
        if not recv:
            return text
        if len(recv) == 1:
            return f"({recv[0]}).{text}"
        return " or ".join(f"({r}).{text}" for r in dict.fromkeys(recv))

    def resolve_call(self, src_id: int, text: str, line: int | None = None) -> tuple[list, str]:
        """Targets of a call written `text` inside symbol `src_id` (at `line`), and how
        they were found. Targets are (SYM, symbol_id) | (EXT, dotted_name) | (BUILTIN, name).
        """
        m = self.m
        scope = m.ns(src_id)
        if scope is None:
            return [], "unresolved"
        fam = m.fam.get(scope)
        rules = self.rules(fam)
        if m.lazy:                    # incremental runs load bindings per file
            m.ensure_bindings(m.path.get(scope))
        text = self._callee_text(scope, text, line)
        special = rules.special_call(self, scope, text)
        if special is not None:
            return special
        vals, how = self.eval_text(scope, text, callee=True)
        # only this function asks for a callee evaluated as one, and only for the edges of
        # `scope`'s file: no later unit uses it, so it is not kept for the run (the key is
        # the one `eval_text` memoises under)
        self.memo.unit_only((scope, text, True))
        targets = []
        any_sym = False
        call_target = self.call_target
        for v in ordered(vals):
            t = call_target(v, fam)
            if t is not None and t not in targets:
                targets.append(t)
                if t[0] == SYM:
                    any_sym = True
        if any_sym:
            # a repo target beats a method of a builtin type reached through another value
            targets = [t for t in targets if t[0] == SYM] + [t for t in targets if t[0] != SYM and
                                                             not (t[0] == BUILTIN and "." in t[1]) and
                                                             not (t[0] == EXT and "()" in t[1])]
        if not targets:
            # a receiver we know that lacks the member: say unresolved, do not guess by name
            parsed = parse_chain(text)
            if parsed is not None and len(parsed[0]) > 1 and parsed[0][-1][0] == "attr":
                rv, _ = self.eval_chain(scope, parsed[0][:-1], parsed[1], 0)
                if any(v[0] in (SYM, INST, MODULE, SUPER) for v in rv):
                    return [], "known-receiver"
        return targets, how

    def resolve_base(self, class_id: int, text: str) -> tuple[list, str]:
        scope = self.m.ns(self.m.parent.get(class_id)) or self.m.module_of(class_id)
        vals, how = self.eval_text(scope, text)
        out = []
        for v in ordered(vals):
            if v[0] == SYM and self.m.kind.get(v[1]) in CLASS_KINDS:
                out.append(v)
            elif v[0] in (EXT, BUILTIN):
                out.append(v)
        return out, how

    # ------------------------------------------------------------ evaluation of texts
    _NO_VALUE = (EMPTY, "unresolved")

    def eval_text(self, scope: int, text: str, callee: bool = False, depth: int = 0):
        """(values, how) of expression `text` written in `scope`."""
        key = (scope, text, callee)
        memo = self.memo
        got = memo.local.get(key)         # the most frequent hit, as `memo` takes it, without its call
        if got is not None:
            if memo.frames:
                memo.frames[-1][1] = True
            return got
        return memo(key, depth, True, self._NO_VALUE, self._eval_text, scope, text, depth, callee)

    def _eval_text(self, scope: int, text: str, depth: int, callee: bool = False):
        alts = alternatives(text)
        if len(alts) > 1:
            vals, hows = set(), []
            for a in alts:
                v, h = self.eval_text(scope, a, depth=depth + 1)
                vals |= v
                if v:
                    hows.append(h)
            return frozenset(vals), (hows[0] if len(set(hows)) == 1 else "inferred") if hows else "unresolved"
        parsed = parse_chain(text)
        if parsed is None:
            items = literal_items(text)
            if items is not None:
                return frozenset({(LITERAL, scope, text)}), "inferred"
            if len(split_top(text, (",",))) > 1:      # `return f, g`: a tuple
                return frozenset({(LITERAL, scope, "(" + text + ")")}), "inferred"
            return EMPTY, "unresolved"
        steps, new = parsed
        return self.eval_chain(scope, steps, new, depth, callee)

    def eval_chain(self, scope: int, steps: tuple, new: bool = False, depth: int = 0,
                   callee: bool = False):
        m = self.m
        rules = self.rules(m.fam.get(scope))
        head = steps[0]
        i = 1
        if head[0] == "paren":
            vals, how = self.eval_text(scope, head[1], depth=depth + 1)
        elif head[0] == "str":
            vals, how = frozenset({(BUILTIN_INST, rules.string_type)}), "builtin"
        else:
            special = rules.head(self, scope, steps, callee, depth)
            if special is not None:
                vals, how, i = special
            else:
                vals, how = self.lookup(scope, head[1], depth)
                if not vals and len(steps) > 1:
                    qualified = rules.qualified(self, steps)
                    if qualified is not None:
                        vals, how, i = qualified
        for step in steps[i:]:
            if not vals:
                return EMPTY, how
            kind = step[0]
            nv = set()
            if kind == "attr":
                for v in ordered(vals):
                    got, via = self.member(v, step[1], depth)
                    nv |= got
                    if via == "reexport" and how in ("import", "alias", "local"):
                        how = "reexport"
                    elif via == "inferred" and how in ("local", "import", "alias", "self"):
                        how = "inferred"
            elif kind == "call":
                for v in ordered(vals):
                    nv |= self.call_result(v, step[1], scope, depth, new=new)
                new = False           # `new X().m()`: only the first call instantiates
            elif kind == "index":
                for v in ordered(vals):
                    nv |= self.elements_of(v, depth)
                if how not in ("builtin", "external"):
                    how = "inferred"
            vals = frozenset(nv)
        return vals, how

    # ------------------------------------------------------------ names
    def lookup(self, scope: int, name: str, depth: int = 0):
        """Values a bare name has in `scope` (lexical scoping of the scope's language)."""
        m = self.m
        fam = m.fam.get(scope)
        rules = self.rules(fam)
        class_scope_visible = rules.class_scope_visible
        s = scope
        first = True
        containers = []
        while s is not None:
            k = m.kind.get(s)
            if first or class_scope_visible or k not in CLASS_KINDS:
                if m.lazy:                    # incremental runs load bindings per file
                    m.ensure_bindings(m.path.get(s))
                if name in m.elements.get(s, _NO):
                    containers.append((CONTAINER, s, name))
                r = self.lookup_in(s, name, depth, rules, first)
                if r is not None:
                    if containers:
                        return r[0] | frozenset(containers), r[1] if r[0] else "inferred"
                    return r
            first = False
            s = m.ns(m.parent.get(s))
        if containers:
            return frozenset(containers), "inferred"
        got = rules.global_value(self, scope, m.module_of(scope), name, depth)
        if got is not None:
            return got
        return EMPTY, "unresolved"

    def lookup_in(self, s: int, name: str, depth: int, rules, first: bool):
        """Values `name` has in scope `s` itself, or None when `s` does not bind it."""
        m = self.m
        vals: set = set()
        how = None
        defs = m.children.get(s, _NO).get(name)
        if defs:
            for d in defs:
                k = m.kind.get(d)
                if k in NAMESPACE_KINDS:
                    vals |= self.def_values(d, depth)
                    how = "local"
                elif k in VALUE_KINDS and rules.object_literal_members and self.holds_functions(d):
                    vals.add((SYM, d))       # `const api = { run() {} }`: `api.run` is a symbol
                    how = "local"
        if m.lazy:                    # incremental runs load bindings per file
            m.ensure_bindings(m.path.get(s))
        rows = m.binds.get(s, _NO).get(name)
        if rows:
            if rules.declared_types_win:
                declared = [r for r in rows if r[1] == "declare"]
                if declared:
                    rows = declared          # a declared type says more than one assignment
            skip = rules.require_imports
            for row in rows:
                if skip and rules.skip_binding(self, s, name, row):
                    continue
                vals |= self.binding_values(row, depth)
            how = how or "inferred"
        imps = m.imports_by_scope.get(s, _NO).get(name)
        if imps:
            via_any, alias_any = False, False
            for row in imps:
                got, via = self.import_values(row, depth)
                vals |= got
                via_any |= via
                alias_any |= bool(row["alias"]) and row["alias"] != (row["name"] or "").split(".")[-1]
            if vals:
                how = how or ("reexport" if via_any else "alias" if alias_any else "import")
            else:
                return EMPTY, "unresolved"
        if not vals and not defs and not rows and m.kind.get(s) in FUNCTION_KINDS:
            pv = self.param_values(s, name, depth)
            if pv is not None:
                return pv
        if not vals and rules.class_members_in_scope and m.kind.get(s) in CLASS_KINDS:
            got = self.member((INST, s), name, depth)[0]
            if got:
                return got, "self"
        if how is None and not vals:
            # a class-level field/variable symbol with no evaluable binding still binds the name
            if defs:
                return EMPTY, "unresolved"
            return None
        return frozenset(vals), how or "inferred"

    def holds_functions(self, d: int) -> bool:
        """Whether variable `d` has functions among its children (an object literal's)."""
        return any(self.m.kind.get(c) in FUNCTION_KINDS
                   for cs in self.m.children.get(d, _NO).values() for c in cs)

    def def_values(self, d: int, depth: int) -> set:
        """The value a definition binds its name to."""
        return self.rules(self.m.fam.get(d)).definition_values(self, d, depth)

    def binding_values(self, row: tuple, depth: int) -> set:
        scope, kind, name, value, vtype, vid, line = row
        if vid is not None:
            return {(SYM, vid)}
        if kind == "iter":
            vals, _ = self.eval_text(scope, value, depth=depth + 1)
            out = set()
            for v in ordered(vals):
                out |= self.elements_of(v, depth + 1)
            return out
        if kind == "unpack":                  # `a, b = f, g`: item `slot` of the value
            slot = int(name.rpartition("#")[2] or 0)
            vals, _ = self.eval_text(scope, value, depth=depth + 1)
            out = set()
            for v in ordered(vals):
                if v[0] == LITERAL:
                    items = literal_items(v[2]) or ()
                    if slot < len(items):
                        out |= set(self.eval_text(v[1], items[slot], depth=depth + 1)[0])
                else:
                    out |= self.elements_of(v, depth + 1)
            return out
        if kind == "declare":                 # a declared type: `Foo x = ...`, `var x Foo`
            t = declared_type(value)
            if not t:
                return set()
            vals, _ = self.eval_text(scope, t, depth=depth + 1)
            return {(INST, v[1]) if v[0] == SYM and self.m.kind.get(v[1]) in CLASS_KINDS else
                    (EXT_RESULT, v[1]) if v[0] == EXT else (BUILTIN_INST, v[1]) if v[0] == BUILTIN else v
                    for v in vals if v[0] in (SYM, EXT, BUILTIN)}
        lt = self.rules(self.m.fam.get(scope)).literal_types.get(vtype or "")
        if lt is not None and vtype not in _LITERAL_CONTAINERS:
            return {(BUILTIN_INST, lt)}
        vals, _ = self.eval_text(scope, value, depth=depth + 1)
        if kind == "with" and vals:
            out = set()
            for v in ordered(vals):
                if v[0] == INST:
                    enter = self.mro_lookup(v[1], "__enter__")
                    if enter is not None and enter[0] == SYM:
                        out |= self.returns_of(enter[1], depth + 1)
                        continue
                out.add(v)
            return out
        if lt is not None:
            return set(vals) | {(BUILTIN_INST, lt)}
        return set(vals)

    # ------------------------------------------------------------ imports and modules
    def import_values(self, row: dict, depth: int) -> tuple[set, bool]:
        """(values, went-through-a-re-export) of the name an import row binds."""
        return self.rules(row["family"]).import_values(self, row, depth)

    def import_member(self, row: dict, name: str, depth: int) -> tuple[set, bool]:
        """`name` looked up in what a star import row brings in."""
        return self.rules(row["family"]).import_member(self, row, name, depth)

    def module_attr(self, mid: int, name: str, depth: int) -> tuple[set, bool]:
        """`name` in module `mid`'s namespace: (values, whether a re-export was followed)."""
        return self.memo(("modattr", mid, name), depth, True, (EMPTY, False),
                         self._module_attr, mid, name, depth)

    def _module_attr(self, mid: int, name: str, depth: int) -> tuple[set, bool]:
        m = self.m
        rules = self.rules(m.fam.get(mid))
        own = rules.module_attr(self, mid, name, depth)
        if own is not None:
            return own
        vals: set = set()
        for d in m.children.get(mid, _NO).get(name, ()):
            if m.kind.get(d) in NAMESPACE_KINDS:
                vals |= self.def_values(d, depth)
        if m.lazy:                    # incremental runs load bindings per file
            m.ensure_bindings(m.path.get(mid))
        for row in m.binds.get(mid, _NO).get(name, ()):
            vals |= self.binding_values(row, depth + 1)
        if name in m.elements.get(mid, _NO):
            vals.add((CONTAINER, mid, name))
        if vals:
            return vals, False
        via = False
        for row in m.imports_by_scope.get(mid, _NO).get(name, ()):
            got, _ = self.import_values(row, depth + 1)
            vals |= got
            via = True
        if vals:
            return vals, via
        return rules.module_attr_missing(self, mid, name, depth)

    # ------------------------------------------------------------ members and classes
    def member(self, v: tuple, name: str, depth: int) -> tuple[set, str | None]:
        """Values of attribute `name` on value `v`, and a note: 'reexport' | 'inferred' | None."""
        m = self.m
        t = v[0]
        if t == SYM:
            k = m.kind.get(v[1])
            if k == "module":
                got, via = self.module_attr(v[1], name, depth + 1)
                return got, "reexport" if via else None
            if k in CLASS_KINDS:
                r = self.mro_lookup(v[1], name)
                if r is None:
                    return set(), None
                if r[0] == SYM and m.kind.get(r[1]) in VALUE_KINDS:
                    return self.field_values(r[1], depth), "inferred"
                return {r}, None
            if k in FUNCTION_KINDS and name in self.rules(m.fam.get(v[1])).function_methods:
                return {v}, None
            if k == "namespace":              # `ns::f`, `ns::Type` (C++, C#, TypeScript)
                out = set()
                for c in m.children.get(v[1], _NO).get(name, ()):
                    if m.kind.get(c) in VALUE_KINDS:
                        out |= self.field_values(c, depth + 1) or {(SYM, c)}
                    else:
                        out.add((SYM, c))
                return out, None
            if k in VALUE_KINDS:
                own = [c for c in m.children.get(v[1], _NO).get(name, ()) if m.kind.get(c) in FUNCTION_KINDS]
                if own:                      # a function written in the variable's object literal
                    return {(SYM, c) for c in own}, None
                out: set = set()
                for x in ordered(self.field_values(v[1], depth + 1)):
                    out |= self.member(x, name, depth + 1)[0]
                return out, "inferred"
            return set(), None
        if t == MODULE:
            got, via = self.module_attr(v[1], name, depth + 1)
            return got, "reexport" if via else None
        if t == INST:
            return self.instance_member(v[1], name, depth)
        if t == SUPER:
            cls = v[1]
            mro = self.mro(cls)
            for base in mro[1:]:
                if base[0] == SYM:
                    for c in m.children.get(base[1], _NO).get(name, ()):
                        if m.kind.get(c) in NAMESPACE_KINDS:
                            return {(BOUND, c) if v[2] else (SYM, c)}, None
                elif base[0] in (EXT, BUILTIN):
                    return {(base[0], f"{base[1]}.{name}")}, None
            return set(), None
        if t == EXT:
            return {(EXT, f"{v[1]}.{name}")}, None
        if t == EXT_RESULT:
            last = v[1].rsplit(".", 1)[-1]
            if last[:1].isupper():
                return {(EXT, f"{v[1]}.{name}")}, None
            return {(EXT, f"{v[1]}().{name}")}, None
        if t == BUILTIN:
            if "." in v[1] and not v[1].startswith("java."):
                return set(), None           # `str.join.x`: builtins one level deep only
            return {(BUILTIN, f"{v[1]}.{name}")}, None
        if t == BUILTIN_INST:
            return {(BUILTIN, f"{v[1]}.{name}")}, None
        if t == BOUND and name in self.rules(m.fam.get(v[1])).function_methods:
            return {v}, None
        if t in (CONTAINER, LITERAL, ELEMENTS) and name in _CONTAINER_METHODS:
            return {(CONTAINER_CALL, v, name)}, "inferred"
        return set(), None

    def instance_member(self, cls: int, name: str, depth: int) -> tuple[set, str | None]:
        m = self.m
        r = self.mro_lookup(cls, name)
        if r is not None and r[0] == SYM and m.kind.get(r[1]) in FUNCTION_KINDS:
            if r[1] in m.static or r[1] in m.classmeth:
                return {(SYM, r[1])}, None
            if r[1] in m.prop:
                return self.returns_of(r[1], depth + 1), "inferred"
            return {(BOUND, r[1])}, None
        assigned, filled = self.class_attrs(cls)
        attrs = assigned.get(name)
        vals: set = set()
        if attrs:
            for row in attrs:
                vals |= self.binding_values(row, depth + 1)
            vals.update(filled.get(name, ()))   # `self.x = []` filled by `self.x.append(v)`
        if r is None or m.kind.get(r[1]) in VALUE_KINDS:
            for base in self.mro(cls):
                if base[0] == SYM:
                    if m.lazy:                    # incremental runs load bindings per file
                        m.ensure_bindings(m.path.get(base[1]))
                    for row in m.binds.get(base[1], _NO).get(name, ()):
                        vals |= self.binding_values(row, depth + 1)
        if r is not None and r[0] == SYM and m.kind.get(r[1]) in VALUE_KINDS:
            vals |= self.field_values(r[1], depth)
        if r is None and not vals and self.rules(m.fam.get(cls)).bases_are_fields:
            # Go: an embedded field is named after its type (`p.Reader.Read()`)
            vals = {(INST, b[1]) for b in self.mro(cls)[1:] if b[0] == SYM and m.name.get(b[1]) == name}
        if vals:
            return vals, "inferred"
        if r is not None:
            if r[0] == SYM and m.kind.get(r[1]) in CLASS_KINDS:
                return {r}, None
            if r[0] in (EXT, BUILTIN) and not attrs:
                # (an attribute the class assigns on its instances is its own, even where
                # its value is unknown: not the library base's `Exception.value`)
                return {r}, None
        if r is None:
            # a mixin calling what its subclasses provide: look along their MROs
            found = self.subclass_lookup(cls, name)
            if found:
                return {(BOUND, f[1]) if f[0] == SYM else f for f in found}, "inferred"
        return set(), None

    def subclass_lookup(self, cls: int, name: str) -> set:
        """Where `name` is found along the MROs of `cls`'s subclasses (in the repo)."""
        return self.memo(("sub", cls, name), None, False, EMPTY, self._subclass_lookup, cls, name)

    def _subclass_lookup(self, cls: int, name: str) -> set:
        m = self.m
        out: set = set()
        seen = {cls}
        frontier = [cls]
        while frontier and len(seen) < 200:
            c = frontier.pop()
            self.read_name("s:" + m.name[c])
            for sub in m.subclasses_written.get(m.name[c], ()):
                if sub in seen or (SYM, c) not in self.mro(sub):
                    continue
                seen.add(sub)
                frontier.append(sub)
                r = self.mro_lookup(sub, name)
                if r is not None and r[0] == SYM and m.kind.get(r[1]) in FUNCTION_KINDS:
                    out.add(r)
                elif r is not None and r[0] in (EXT, BUILTIN):
                    out.add(r)
        return out

    def field_values(self, fid: int, depth: int) -> set:
        """Values of a class-level field / module variable symbol (from bindings or its type)."""
        m = self.m
        self.memo.read(fid)
        known = self.rules(m.fam.get(fid)).class_field_values(self, fid)
        if known is not None:
            return known
        owner = m.ns(m.parent.get(fid))
        if m.lazy:                    # incremental runs load bindings per file
            m.ensure_bindings(m.path.get(fid))
        vals: set = set()
        for row in m.binds.get(owner, _NO).get(m.name[fid], ()):
            vals |= self.binding_values(row, depth + 1)
        if m.name[fid] in m.elements.get(owner, _NO):
            vals.add((CONTAINER, owner, m.name[fid]))
        if not vals:
            rules = self.rules(m.fam.get(fid))
            t = rules.declared_field_type(self, fid)
            if t:
                where = m.module_of(fid) if rules.field_types_at_module_level else owner
                vals |= self.instances_of(self.eval_text(where, t, depth=depth + 1)[0])
        return vals

    def instances_of(self, type_values) -> set:
        """Values of a declared type -> the instances it describes (class, external, builtin)."""
        out = set()
        for x in type_values:
            if x[0] == SYM and self.m.kind.get(x[1]) in CLASS_KINDS:
                out.add((INST, x[1]))
            elif x[0] == EXT:
                out.add((EXT_RESULT, x[1]))
            elif x[0] == BUILTIN:
                out.add((BUILTIN_INST, x[1]))
        return out

    def class_attrs(self, cls: int) -> tuple[dict[str, list[tuple]], dict[str, list[tuple]]]:
        """`self.x = value` bindings of a class's methods (its bases' too), by attribute; and
        the containers its methods fill through `self.x` (`self.x.append(v)`), by attribute."""
        return self.memo(("attrs", cls), None, False, ({}, {}), self._class_attrs, cls)

    def _class_attrs(self, cls: int) -> tuple[dict[str, list[tuple]], dict[str, list[tuple]]]:
        m = self.m
        out: dict[str, list[tuple]] = defaultdict(list)
        filled: dict[str, list[tuple]] = defaultdict(list)
        for base in self.mro(cls):
            if base[0] != SYM:
                continue
            b = base[1]
            if m.lazy:                    # incremental runs load bindings per file
                m.ensure_bindings(m.path.get(b))
            stack = [b]
            while stack:
                s = stack.pop()
                for kids in m.children.get(s, _NO).values():
                    for c in kids:
                        if m.kind.get(c) in FUNCTION_KINDS:
                            stack.append(c)
                if s == b:
                    continue
                selfname = self.self_name(s)
                for head, rest, row in m.attr_binds.get(s, ()):
                    if head == selfname and "." not in rest:
                        out[rest].append(row)
                if selfname:
                    prefix = selfname + "."
                    for key in m.elements.get(s, _NO):
                        if key.startswith(prefix) and "." not in key[len(prefix):]:
                            filled[key[len(prefix):]].append((CONTAINER, s, key))
        return out, filled

    def self_name(self, fn: int) -> str | None:
        return self.rules(self.m.fam.get(fn)).self_name(self, fn)

    def mro(self, cls: int) -> list[tuple]:
        """Method resolution order: (SYM, class) for repo classes, (EXT/BUILTIN, name) for others."""
        return self.memo(("mro", cls), None, False, [(SYM, cls)], self._mro, cls)

    def _mro(self, cls: int) -> list[tuple]:
        bases = []
        for text in self.m.bases_written.get(cls, ()):
            vals, _ = self.resolve_base(cls, text)
            for v in ordered(vals):
                if v not in bases and v != (SYM, cls):
                    bases.append(v)
            if not vals:
                bases.append((EXT, text))
        seqs = [self.mro(b[1]) if b[0] == SYM else [b] for b in bases] + [list(bases)]
        out = [(SYM, cls)]
        seqs = [list(s) for s in seqs if s]
        while seqs:
            for s in seqs:
                head = s[0]
                if not any(head in t[1:] for t in seqs):
                    break
            else:                                 # inconsistent: fall back to depth-first
                for s in seqs:
                    for x in s:
                        if x not in out:
                            out.append(x)
                break
            out.append(head)
            seqs = [[x for x in t if x != head] for t in seqs]
            seqs = [t for t in seqs if t]
        read = self.memo.read
        for b in out:                             # their members are read along the MRO
            if b[0] == SYM:
                read(b[1])
        return out

    def mro_lookup(self, cls: int, name: str) -> tuple | None:
        m = self.m
        for base in self.mro(cls):
            if base[0] == SYM:
                kids = m.children.get(base[1], _NO).get(name)
                if kids:
                    fn = [c for c in kids if m.kind.get(c) in FUNCTION_KINDS]
                    return (SYM, (fn or kids)[-1])
            elif base[0] in (EXT, BUILTIN):
                return (base[0], f"{base[1]}.{name}")
        return None

    def ctor_of(self, cls: int, fam: str) -> int | None:
        """The constructor an instantiation runs (`__init__` / `constructor` along the MRO)."""
        return self.rules(fam).constructor(self, cls)

    def ctor_of_bases(self, cls: int, fam: str) -> int | None:
        rules = self.rules(fam)
        for base in self.mro(cls)[1:]:
            if base[0] == SYM:
                c = rules.constructor(self, base[1])
                if c is not None:
                    return c
                if rules.base_class_is_constructor:
                    return base[1]
        return None

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
                return self.returns_of(v[1], depth + 1)
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
            if v[2] in ("values", "copy", "__iter__"):
                return {v[1]}
            return self.elements_of(v[1], depth + 1)
        if t == EXT:
            return self.rules(m.fam.get(scope)).call_external(self, v[1], args, scope, depth)
        if t == BUILTIN:
            return self.rules(m.fam.get(scope)).call_builtin(self, v[1], args, scope, depth)
        return set()

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
        """Values stored in container value `v` (what iterating or indexing it gives)."""
        m = self.m
        t = v[0]
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
            for row in m.elements.get(scope, _NO).get(name, ()):
                out |= self.binding_values(row, depth + 1)
            return out
        if t == LITERAL:
            items = literal_items(v[2]) or ()
            out = set()
            for it in items:
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
                out |= self.elements_of(x, depth + 1)
            return out
        if t == INST:
            r = self.mro_lookup(v[1], "__iter__")
            if r is not None and r[0] == SYM:
                out = set()
                for x in ordered(self.returns_of(r[1], depth + 1)):
                    out |= self.elements_of(x, depth + 1)
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
                vals |= self.instances_of(self.eval_text(outer, t, depth=depth + 1)[0])
        if not vals:
            if p.default:
                vals |= {v for v in self.eval_text(outer, p.default, depth=depth + 1)[0]
                         if v[0] not in (BUILTIN_INST, LITERAL)}
            if p.kind in ("pos", "kwonly"):
                vals |= self._arg_flows(fn, idx, p, depth)
            elif p.kind == "var":
                vals.add((ARGS, fn, idx))     # *args: the positional arguments from idx on
        return frozenset(v for v in vals if v[0] != BUILTIN_INST or len(vals) == 1)

    def _arg_flows(self, fn: int, idx: int, p: Param, depth: int, rest: bool = False) -> set:
        """Values passed to parameter `p` (position `idx`) of `fn` at its evident call sites."""
        m = self.m
        kind = m.kind.get(fn)
        if kind == "lambda":
            return set()
        names = [m.name[fn]]
        cls = m.enclosing_class(fn) if kind in ("method", "constructor") else None
        if cls is not None and m.name[fn] in ("__init__", "constructor"):
            names.append(m.name[cls])
        rows = []
        for n in names:
            self.read_name("a:" + n)
            rows.extend(m.arg_rows(n))
        rules = self.rules(m.fam.get(fn))
        rows.extend(rules.decorator_flows(self, fn))
        if len(rows) > self.param_flow_cap * 4:
            return set()
        explicit_self = rules.explicit_self
        out: set = set()
        checked = 0
        for row in rows:
            scope, _, name, value, vtype, vid, _line = row
            callee, _, slot = name.rpartition("#")
            if slot.isdigit():
                pos = int(slot)
            else:
                if slot != p.name or rest:
                    continue
                pos = None
            checked += 1
            if checked > self.param_flow_cap:
                break
            deco = callee == "<decorator>"
            cvals, _ = self.eval_text(scope, value if deco else callee, depth=depth + 1)
            for cv in ordered(cvals):
                tgt = self.call_target(cv, m.fam.get(scope))
                if tgt != (SYM, fn):
                    continue
                shift = 0
                if explicit_self and (cv[0] == BOUND or (cv[0] == SYM and m.kind.get(cv[1]) in CLASS_KINDS)):
                    shift = 1
                if pos is not None and (pos + shift < idx if rest else pos + shift != idx):
                    continue
                if pos is None and rest:
                    continue
                if deco:
                    out.add((SYM, vid))
                else:
                    out |= self.binding_values(row, depth + 1)
        return out
