"""The evaluator: callee and value texts to sets of values, the same way in every language.

Texts are the expressions the extractor stored (`edges.dst_name`, `bindings.value`); they
are cut into chains (`exprs.parse_chain`) and evaluated step by step: a name through the
lexical scopes of the model, an attribute through modules, classes (MRO) and instances,
a call through what the callee returns, an index through a container's elements. Where
a language's rules matter, the evaluator asks that language's `Language` object
(`lang/`), passing itself in. Results are memoised with cycle cuts (`memo.Memo`).

`Resolver` is one class written in three modules: this one holds its state, the public
entry points (`resolve_call`, `resolve_base`), texts and chains, names in scopes,
bindings, imports and modules; `members.Members` holds attributes of values, classes
(MRO, constructors) and instances; `flows.Flows` what flows through calls: call targets
and results, returns, container elements, parameters and the arguments passed to them.
Those two are mixins of `Resolver` (plain methods, looked up on the class as if written
here) and import nothing of this module or of any language module.

`export=True` switches on the call-graph export's semantics: a decorated function's
name evaluates to what its decorators return (the wrapper), not to the function.

A binding reading the name it binds (`x = [x]`, `fs = set(fs)`) reads there what the name
held before (`prior_values`: the name marked in the value's text, `_from_prior`).

A module-level name whose value is a literal or a builtin type's instance also holds what
the module's functions put in it by subscript or `append` without binding the name
themselves (`filled_inside`: a registry filled by a `register` decorator), and what code
elsewhere puts in through the module object (`mod.handlers.append(f)`,
`Members.filled_outside`).
"""
from __future__ import annotations

import re
from collections import defaultdict

from .exprs import alternatives, literal_entries, literal_items, parse_chain, split_top, string_value
from .argrows import PARAM_FLOW_CAP
from .flows import Flows
from .kinds import CLASS_KINDS, FUNCTION_KINDS, NAMESPACE_KINDS, VALUE_KINDS
from .lang import rules_of
from .members import Members
from .memo import Memo
from .model import Model
from .values import (ARGS, BUILTIN, BUILTIN_INST, CONTAINER, EMPTY, EXT, EXT_RESULT, INST, KWARGS, LITERAL,
                     MADE_HERE, MODULE, SUPER, SYM, VIEW, declared_type, ordered)

_LITERAL_CONTAINERS = ("list", "tuple", "set", "dictionary", "array", "object")
#: values of a module-level name whose subscripts functions may fill (`filled_inside`)
_FILLABLE = (LITERAL, BUILTIN_INST)
_NO: dict = {}      # the default of the model's dict-of-dicts lookups (read only: never filled)
#: binding kinds whose value may read the name they bind (`x = [x]`, `for x in x.kids`)
_REBINDS = frozenset({"assign", "unpack", "iter", "iter_unpack", "with"})
_UNPACKS = frozenset({"unpack", "iter_unpack"})
#: the first character of a name read as what it held before its rebinding (`prior_values`):
#: a letter no identifier of real code starts with
PRIOR = "\u1d56"
#: the same, the parameter's arguments included (`prior_values`)
PRIOR_ARGS = "\u1d43"
_PRIORS = frozenset({PRIOR, PRIOR_ARGS})
#: a value making a container of one name (marked `PRIOR`): `[x]`, `(x,)`, `list(x)`, ...
_WRAPS = re.compile("\\[\u1d56[\\w$]+\\]|\\(\u1d56[\\w$]+,\\)|"
                    "(?:list|tuple|set|frozenset|sorted|reversed|iter)\\(\u1d56[\\w$]+\\)")
# name -> the pattern finding it as a name read in a value text (`_from_prior`), for a
# name of other characters than `_WORD`'s
_PRIOR_RES: dict = {}
# a string literal, or a word no `.` or word character precedes: the names a value text
# reads (`_prior_marked`: one pattern for every name, not one compiled per name)
_WORDS = re.compile(r"""("(?:[^"\\]|\\.)*"|'(?:[^'\\]|\\.)*')|(?<![\w.$])[\w$]+""")
_WORD = re.compile(r"[\w$]+")
# what after a name makes it a keyword argument or the target of an assignment
_ASSIGNED = re.compile(r"\s*=(?!=)")


def _mark_prior(mt) -> str:
    return mt.group(1) or PRIOR + mt.group(0)


def _prior_marked(text: str, name: str) -> str:
    """`text` with `name` marked (`PRIOR`) where it is read as a name: not inside a string,
    after a `.`, as part of a longer word, or followed by `=` (not `==`)."""
    if not _WORD.fullmatch(name):
        rx = _PRIOR_RES.get(name)
        if rx is None:
            rx = _PRIOR_RES[name] = re.compile(
                r"""("(?:[^"\\]|\\.)*"|'(?:[^'\\]|\\.)*')|(?<![\w.$])""" + re.escape(name)
                + r"(?![\w$])(?!\s*=(?!=))")
        return rx.sub(_mark_prior, text)

    def mark(mt) -> str:
        if mt.group(1) is None and mt.group(0) == name and not _ASSIGNED.match(text, mt.end()):
            return PRIOR + name
        return mt.group(0)
    return _WORDS.sub(mark, text)


class _RulesOf(dict):
    """family -> its `Language` rules, looked up once."""

    def __missing__(self, fam):
        got = self[fam] = rules_of(fam)
        return got


class Resolver(Members, Flows):
    """Evaluates callee and value texts to sets of values (see the module doc; the
    methods of `Members` and `Flows` are its own)."""

    MAX_DEPTH = 40

    def __init__(self, model: Model, export: bool = False, param_flow_cap: int = PARAM_FLOW_CAP,
                 implicit: bool = False):
        self.m = model
        # the calls made without a call expression evaluated (`setting`): the rows of
        # resolution `implicit`, and a binary operation's value from its method's returns
        self.implicit = implicit
        self.export = export
        self.param_flow_cap = param_flow_cap
        self.memo = Memo(self.MAX_DEPTH, model.bit_of)
        self.read_name = self.memo.read_name
        # fn -> (its parameters, their names in order), one pair per family and signature
        # text (~55,000 functions of the standard library are asked about, ~40,000
        # different signatures; a tuple of names: a frozenset of a few takes 216 bytes)
        self._params: dict[int, tuple] = {}
        self._by_sig: dict[str, dict] = defaultdict(dict)
        # module -> name -> the functions filling that module-level container (`filled_inside`)
        self._fills: dict[int, dict] = {}
        # (scope, name) -> its binding rows, those reading the name read as `_from_prior`
        # rewrites them (`_rebind`)
        self._rebound: dict[tuple, list] = {}
        # (scope, name) of a container -> whether it is a mapping (`Flows.is_mapping`)
        self._mapping: dict[tuple, bool] = {}
        # class -> what its own methods set through `self` (`Members._attrs_of`)
        self._own_attrs: dict[int, tuple] = {}
        # a list of argument rows (by id, with the list) -> its rows by scope and line
        # (`Flows._rows_at`)
        self._at_rows: dict[int, tuple] = {}
        # what a language's rules work out once per run from the model alone (by key)
        self.lang_cache: dict = {}
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
        # (most calls are made in a function: their scope is their source)
        scope = src_id if m.kind.get(src_id) in NAMESPACE_KINDS else m.ns(src_id)
        if scope is None:
            return [], "unresolved"
        fam = m.fam.get(scope)
        rules = self.rules(fam)
        if m.lazy:                    # incremental runs load bindings per file
            m.ensure_bindings(m.path.get(scope))
        if line is not None and text.isidentifier():     # (else `_callee_text` keeps it as it is)
            text = self._callee_text(scope, text, line)
        # a call written alike in the same scope earlier in the unit (two in five calls of
        # the standard library): its answer, kept for the unit. Asked again, every value it
        # was made of is memoised (the callee's for the unit, `unit_only`), so evaluating
        # it again would give the same answer
        memo = self.memo
        key = ("call", scope, text)
        got = memo.local.get(key)
        if got is not None:
            return list(got[0]), got[1]
        special = rules.special_call(self, scope, text)
        if special is not None:
            memo.local[key] = (tuple(special[0]), special[1])
            return special
        vals, how = self.eval_text(scope, text, callee=True)
        # only this function asks for a callee evaluated as one, and only for the edges of
        # `scope`'s file: no later unit uses it, so it is not kept for the run (the key is
        # the one `eval_text` memoises under)
        memo.unit_only((scope, text, True))
        targets = []
        any_sym = False
        call_target = self.call_target
        for v in (vals if len(vals) < 2 else ordered(vals)):
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
                    memo.local[key] = ((), "known-receiver")
                    return [], "known-receiver"
        memo.local[key] = (tuple(targets), how)
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
        got = memo.hit(key, depth)
        if got is not None:
            return got
        return memo.compute(key, depth, True, self._NO_VALUE, self._eval_text, scope, text, depth, callee)

    def _eval_text(self, scope: int, text: str, depth: int, callee: bool = False):
        # (`alternatives` of a text without a blank or an operator's character is the text
        # itself: most texts, not asked)
        if (" " in text or "|" in text or "&" in text or "?" in text) and len(alts := alternatives(text)) > 1:
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
        if len(steps) == 1 and steps[0][0] == "paren" and steps[0][1].rstrip().endswith(","):
            return frozenset({(LITERAL, scope, text)}), "inferred"     # `(f,)`: a tuple
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
        recv = None          # classmethod reached through a subclass -> that subclass
        for step in steps[i:]:
            if not vals:
                return EMPTY, how
            kind = step[0]
            nv = set()
            if kind == "attr":
                recv = None
                for v in (vals if len(vals) < 2 else ordered(vals)):
                    got, via = self.member(v, step[1], depth)
                    nv |= got
                    if v[0] == SYM and m.classmeth:
                        recv = self.classmethod_receivers(v, got, recv)
                    if via == "reexport" and how in ("import", "alias", "local"):
                        how = "reexport"
                    elif via == "inferred" and how in ("local", "import", "alias", "self"):
                        how = "inferred"
            elif kind == "call":
                for v in (vals if len(vals) < 2 else ordered(vals)):
                    if recv and recv.get(v):
                        got = self.classmethod_result(v[1], recv[v], depth)
                        if got is not None:
                            nv |= got
                            continue
                    nv |= self.call_result(v, step[1], scope, depth, new=new)
                new = False           # `new X().m()`: only the first call instantiates
                recv = None
            elif kind == "index":
                recv = None
                ix = step[1].strip()
                if "?" not in ix and (ix[:1] == ":" or ix[-1:] == ":" or len(split_top(ix, (":",))) > 1):
                    nv = set(vals)    # a slice, `xs[::-1]`: the container, not an element
                else:
                    for v in ordered(vals):
                        if v[0] == ARGS and ix.isdigit():     # `args[1]`: that argument
                            nv |= self.arg_at(v[1], v[2] + int(ix), depth + 1)
                        elif v[0] == KWARGS:                  # `kwargs["k"]`: that keyword
                            key = string_value(ix)
                            if key:
                                nv |= self.keyword_values(v[1], key, depth + 1)
                        else:
                            nv |= self.elements_of(v, depth)
                if how not in ("builtin", "external"):
                    how = "inferred"
            vals = frozenset(nv)
        return vals, how

    # ------------------------------------------------------------ names
    def lookup(self, scope: int, name: str, depth: int = 0):
        """Values a bare name has in `scope` (lexical scoping of the scope's language)."""
        if name[0] in _PRIORS:            # a name rebound from itself: what it held before
            return self.prior_values(scope, name[1:], depth, name[0] == PRIOR_ARGS)
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
                r = self.lookup_in(s, name, depth, rules, k)
                if r is not None and k == "module" and any(v[0] in _FILLABLE for v in r[0]):
                    containers.extend(self.filled_inside(s, name))
                    containers.extend(ordered(self.filled_outside((SYM, s), name, depth)))
                if r is not None:
                    if containers:
                        return r[0] | frozenset(containers), r[1] if r[0] else "inferred"
                    return r
            first = False
            s = m.parent.get(s)
            if s is not None and m.kind.get(s) not in NAMESPACE_KINDS:    # (`ns`: most parents are scopes)
                s = m.ns(s)
        if containers:
            return frozenset(containers), "inferred"
        got = rules.global_value(self, scope, m.module_of(scope), name, depth)
        if got is not None:
            return got
        return EMPTY, "unresolved"

    def lookup_in(self, s: int, name: str, depth: int, rules, k: str | None):
        """Values `name` has in scope `s` (of kind `k`) itself, or None when `s` does not
        bind it."""
        m = self.m
        defs = m.children.get(s, _NO).get(name)
        if m.lazy:                    # incremental runs load bindings per file
            m.ensure_bindings(m.path.get(s))
        rows = m.binds.get(s, _NO).get(name)
        imps = m.imports_by_scope.get(s, _NO).get(name)
        glob = rules.declares_globals and k == "module" and rules.global_scopes(self, s, name)
        if not (defs or rows or imps or glob):
            # no definition, binding or import of the name here (most scopes asked)
            return self._unbound_here(s, name, depth, rules, True, k)
        vals: set = set()
        how = None
        if defs:
            for d in defs:
                dk = m.kind.get(d)
                if dk in NAMESPACE_KINDS:
                    vals |= self.def_values(d, depth)
                    how = "local"
                elif dk in VALUE_KINDS and rules.object_literal_members and self.holds_functions(d):
                    vals.add((SYM, d))       # `const api = { run() {} }`: `api.run` is a symbol
                    how = "local"
        if rows:
            rows = self._rebound.get((s, name)) or self._rebind(s, name, rows)
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
        if glob:
            got = self.declared_values(glob, name, depth)
            if got:
                vals |= got
                how = how or "inferred"
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
        if not vals:
            got = self._unbound_here(s, name, depth, rules, not defs and not rows, k)
            if got is not None:
                return got
        if how is None and not vals:
            # a class-level field/variable symbol with no evaluable binding still binds the name
            if defs:
                return EMPTY, "unresolved"
            return None
        return frozenset(vals), how or "inferred"

    def _unbound_here(self, s: int, name: str, depth: int, rules, params: bool, k: str | None):
        """(values, how) of `name` in scope `s` (of kind `k`) when nothing there gave it
        values: a parameter of a function `s` (with `params`: no definition or binding of the
        name in it), a member of a class `s` in scope (`rules.class_members_in_scope`), or
        None."""
        if params and k in FUNCTION_KINDS:
            pv = self.param_values(s, name, depth)
            if pv is not None:
                return pv
        if rules.class_members_in_scope and k in CLASS_KINDS:
            got = self.member((INST, s), name, depth)[0]
            if got:
                return got, "self"
        return None

    def _rebind(self, s: int, name: str, rows: list) -> list:
        """The binding rows of `name` in scope `s`, those reading the name itself read as
        `_from_prior` rewrites them; kept per scope and name for the run. A starred target
        unpacking the name itself (`first, *args = args`, as `unittest`'s assert contexts
        take their arguments apart) is left out: the name keeps what it held before (the
        other targets read that too), where taking the rest of it would need to know which
        binding comes first."""
        got = []
        for r in rows:
            if r[1] in _REBINDS and name in (r[3] or ""):
                own = self._from_prior(r, name)
                if own is not r and r[1] in _UNPACKS and "*" in r[2].rpartition("#")[2]:
                    continue
                r = own
            got.append(r)
        self._rebound[(s, name)] = got
        return got

    def _from_prior(self, row: tuple, name: str) -> tuple:
        """Binding row `row` of `name` with `name` in its value read as what the name held
        before (`x = [x]`, `fs = set(fs)`: `PRIOR` + name, `prior_values`), or `row` itself
        when its value does not read the name (only a text holding it as an attribute, a
        keyword or inside a string)."""
        value = _prior_marked(row[3], name)
        if value == row[3]:
            return row
        if _WRAPS.fullmatch(value) and value.count(PRIOR) == 1:
            # a container made of the name (`[x]`, `list(x)`): its elements are asked for
            # only when it is iterated, so what came in, the arguments, can be read then
            value = value.replace(PRIOR, PRIOR_ARGS)
        return row[:3] + (value,) + row[4:]

    def prior_values(self, scope: int, name: str, depth: int, args: bool = False):
        """(values, how) of `name`, bound in `scope` or a scope around it, leaving out its
        bindings that read the name itself: its other bindings, the definitions and imports
        of that name there, and, with `args`, for a parameter, the arguments passed; in a
        class body or a module with nothing of that, the name of the scopes around (`x = x`
        in a class body reads the module's `x`). Flow-insensitive as the rest: `x = [x]` in
        one branch and `x = list(x)` in another both read the parameter's arguments.

        The arguments are read only for a container made of the name (`[x]`, `list(x)`,
        `set(x)`: `_WRAPS`), whose elements are evaluated when iterated: read for every
        `path = os.fspath(path)` as it is evaluated, the call sites of each such function
        across the repository are evaluated too, and the value cycles they close cut
        other calls of the file (`os.fsencode` in `ntpath` lost its target that way)."""
        m = self.m
        s, rows = self.nearest_binds(scope, name)
        if s is None:
            return self.lookup(scope, name, depth)
        vals: set = set()
        rules = self.rules(m.fam.get(s))
        rebound = self._rebound.get((s, name)) or self._rebind(s, name, rows)
        own = {id(r) for r in rebound}     # the rows `_rebind` kept as they are
        for row in rows:
            if id(row) in own and not (rules.require_imports and rules.skip_binding(self, s, name, row)):
                vals |= self.binding_values(row, depth)
        for d in m.children.get(s, _NO).get(name, ()):
            if m.kind.get(d) in NAMESPACE_KINDS:
                vals |= self.def_values(d, depth)
        for row in m.imports_by_scope.get(s, _NO).get(name, ()):
            vals |= self.import_values(row, depth)[0]
        k = m.kind.get(s)
        if k in FUNCTION_KINDS:
            if args:
                pv = self.param_values(s, name, depth)
                if pv is not None:
                    vals |= pv[0]
        elif not vals:
            outer = m.ns(m.parent.get(s))
            if outer is not None:
                return self.lookup(outer, name, depth)
            got = rules.global_value(self, s, m.module_of(s), name, depth)
            return got if got is not None else (EMPTY, "unresolved")
        return frozenset(vals), "inferred"

    def declared_values(self, scopes, name: str, depth: int) -> set:
        """What the functions `scopes` bind `name` to where they declare it their module's
        (`global name`: `Language.global_scopes`): their assignments, imports and
        definitions of `name`, each read in its function (`from .thread import
        ThreadPoolExecutor as te; ThreadPoolExecutor = te`). Only values the
        repository makes count (`MADE_HERE`): the name is read everywhere in the module,
        and an outside value bound there (the result of an outside call, an outside
        module) would turn the module's uses of the name into outside names."""
        m = self.m
        out: set = set()
        for f in scopes:
            if m.lazy:                    # incremental runs load bindings per file
                m.ensure_bindings(m.path.get(f))
            self.memo.read(f)
            rows = m.binds.get(f, _NO).get(name)
            if rows:
                for row in self._rebound.get((f, name)) or self._rebind(f, name, rows):
                    out |= self.binding_values(row, depth + 1)
            for d in m.children.get(f, _NO).get(name, ()):
                if m.kind.get(d) in NAMESPACE_KINDS:
                    out |= self.def_values(d, depth + 1)
            for row in m.imports_by_scope.get(f, _NO).get(name, ()):
                out |= self.import_values(row, depth + 1)[0]
        return {v for v in out if v[0] in MADE_HERE}

    def filled_inside(self, mod: int, name: str) -> list:
        """The containers the functions of module `mod` fill under `name` without binding
        it themselves (`REGISTRY[key] = cls` in a `register` decorator, for the module's
        `REGISTRY = {}`): (CONTAINER, function, name) each, in the functions' order."""
        fills = self._fills.get(mod)
        if fills is None:
            fills = self._fills[mod] = self._fills_of(mod)
        return [(CONTAINER, f, name) for f in fills.get(name, ())]

    def _fills_of(self, mod: int) -> dict:
        m = self.m
        if m.lazy:                    # incremental runs load bindings per file
            m.ensure_bindings(m.path.get(mod))
        fills: dict = {}
        for f in m.symbols_in([m.path.get(mod)]):
            if m.kind.get(f) not in FUNCTION_KINDS:
                continue
            els = m.elements.get(f)
            if not els:
                continue
            for n in els:
                if n.isidentifier() and self._free_in(f, n, mod):
                    fills.setdefault(n, []).append(f)
        return fills

    def _free_in(self, f: int, name: str, mod: int) -> bool:
        """Whether `name` in function `f` is the one of module `mod` (no scope between binds it)."""
        m = self.m
        s = f
        while s is not None and s != mod:
            if m.kind.get(s) in FUNCTION_KINDS:
                if (name in m.binds.get(s, _NO) or name in m.children.get(s, _NO)
                        or name in self._params_of(s)[1]):
                    return False
            s = m.ns(m.parent.get(s))
        return s == mod

    def holds_functions(self, d: int) -> bool:
        """Whether variable `d` has functions among its children (an object literal's)."""
        return any(self.m.kind.get(c) in FUNCTION_KINDS
                   for cs in self.m.children.get(d, _NO).values() for c in cs)

    def def_values(self, d: int, depth: int) -> set:
        """The value a definition binds its name to."""
        return self.rules(self.m.fam.get(d)).definition_values(self, d, depth)

    def _unpacked(self, vals, step: str, depth: int) -> set:
        """What one unpacking step takes of each of `vals`: item `i` (`-1`: the last), or
        for a starred target (`first*after`) a list of the items between."""
        first, star, after = step.partition("*")
        slot = int(first)
        out: set = set()
        for v in ordered(vals):
            if v[0] == LITERAL:
                items = literal_entries(v[2]) or ()
                # places are known before the first starred entry, and counted from the
                # end after the last (`a, b = *xs, g`: neither is known)
                stars = [i for i, e in enumerate(items) if e[:1] == "*"]
                known_to = stars[0] if stars else len(items)
                known_from = stars[-1] + 1 if stars else 0
                if star:                      # `a, *b, c = f, g, h, k`: b is `[g, h]`
                    end = len(items) - int(after)
                    if slot <= end and slot <= known_to and end >= known_from:
                        out.add((LITERAL, v[1], "[" + ", ".join(items[slot:end]) + "]"))
                elif (0 <= slot < known_to) or (slot < 0 and len(items) + slot >= known_from):
                    out |= set(self.eval_text(v[1], items[slot], depth=depth + 1)[0])
            elif star:                        # `first, *rest = args` of a `*args`: from 1 on
                if v[0] == ARGS and after == "0":
                    out.add((ARGS, v[1], v[2] + slot))
                continue                      # of anything else: which items is not known
            elif v[0] == VIEW and v[2] == "pair":     # `for k, f in d.items()`
                if slot in (0, 1):
                    out |= self.elements_of((VIEW, v[1], "values" if slot else "keys"), depth + 1)
            elif v[0] == ARGS:                # a stored `*item`: the argument in that place
                if slot >= 0:
                    out |= self.arg_at(v[1], v[2] + slot, depth + 1)
            else:
                out |= self.elements_of(v, depth + 1)
        return out

    def binding_values(self, row: tuple, depth: int) -> set:
        scope, kind, name, value, vtype, vid, line = row
        if vid is not None:
            return {(SYM, vid)}
        if kind == "nest":                    # `d.setdefault(k, []).append(f)`: a list of f
            return {(CONTAINER, scope, name + "[]")}
        if kind in ("iter", "extend"):       # `for x in v`, `xs.extend(v)`: the elements of v
            vals, _ = self.eval_text(scope, value, depth=depth + 1)
            out = set()
            for v in ordered(vals):
                out |= self.iter_values(v, depth + 1)
            return out
        if kind in ("unpack", "iter_unpack"):     # `a, b = f, g`: item `slot` of the value
            if vtype == "assignment":         # `a, b = c, d = f, g`: of the last value
                value = split_top(value, (" = ",))[-1]
            vals, _ = self.eval_text(scope, value, depth=depth + 1)
            if kind == "iter_unpack":         # `for a, b in v`: of each element of the value
                elems: set = set()
                for v in ordered(vals):
                    elems |= self.iter_values(v, depth + 1)
                vals = elems
            # one step per nesting level (`a, (b, c) = ...`: c is `1.1`, `bindrows.unpack_slot`)
            for step in (name.rpartition("#")[2] or "0").split("."):
                vals = self._unpacked(vals, step, depth)
            return vals
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
        if vtype == "assignment":
            # `x = y = v`: the value of `v`; and `table = d = {}`, then `d[int] = f`: `table`
            # is also the container `d`'s subscript assignments fill from there to `d`'s
            # next assignment (`copy` fills `_copy_dispatch` and then `_deepcopy_dispatch`
            # that way)
            parts = split_top(value, (" = ",))
            if len(parts) > 1:
                got = set(self.eval_text(scope, parts[-1], depth=depth + 1)[0])
                if parts[0] in self.m.elements.get(scope, _NO):
                    got.add(self.container_span(scope, parts[0], line))
                return got
        if vtype == "binary_operator" and self.implicit:  # `p = Path("usr") / "lib"`: what the method returns
            got = self.rules(self.m.fam.get(scope)).operator_values(self, scope, value, depth)
            if got:
                return got
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

    def container_span(self, scope: int, name: str, line: int | None) -> tuple:
        """The container `name` of `scope` as filled from `line` on, up to the next line
        assigning `name` in that scope: (CONTAINER, scope, name, first line, next or None)."""
        if line is None:
            return (CONTAINER, scope, name)
        later = [r[6] for r in self.m.binds.get(scope, _NO).get(name, ())
                 if r[6] is not None and r[6] > line]
        return (CONTAINER, scope, name, line, min(later) if later else None)

    # ------------------------------------------------------------ imports and modules
    def import_values(self, row: dict, depth: int) -> tuple[set, bool]:
        """(values, went-through-a-re-export) of the name an import row binds."""
        return self.rules(row["family"]).import_values(self, row, depth)

    def import_member(self, row: dict, name: str, depth: int) -> tuple[set, bool]:
        """`name` looked up in what a star import row brings in."""
        return self.rules(row["family"]).import_member(self, row, name, depth)

    def module_attr(self, mid: int, name: str, depth: int) -> tuple[set, bool]:
        """`name` in module `mid`'s namespace: (values, whether a re-export was followed)."""
        key = ("modattr", mid, name)
        got = self.memo.hit(key, depth)
        if got is None:
            got = self.memo.compute(key, depth, True, (EMPTY, False), self._module_attr, mid, name, depth)
        return got

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
        if rules.declares_globals:
            glob = rules.global_scopes(self, mid, name)
            if glob:
                vals |= self.declared_values(glob, name, depth)
        if name in m.elements.get(mid, _NO):
            vals.add((CONTAINER, mid, name))
        if any(v[0] in _FILLABLE for v in vals):
            vals.update(self.filled_inside(mid, name))
            vals |= self.filled_outside((SYM, mid), name, depth)
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
