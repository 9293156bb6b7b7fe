"""Calls that reach a function under another name: `AliasFlows`, a mixin of
`flows.Flows` (and so of `evaluate.Resolver`).

`Flows._arg_flows` finds the call sites of a function by its own names; `callee_aliases`
adds the names a call may reach it by: a name its file assigns it (`c = func`, a lambda
bound to a name), a parameter it is passed to (`run(a=func)`, then `a(b)` inside `run`,
with the receiver shift of a bound method), and the parameters that one is handed on to.
Only functions, bound methods and classes pass on that way (`_is_code`, `_code_through`).
The rows that may start such a name are the model's (`Model.aliased_in`, kept with it).
The methods use the state `Resolver.__init__` sets and call the other evaluator methods
through `self`, as `flows` does; this module imports neither.
"""
from __future__ import annotations

from .argrows import ARG_ROWS_MAX, lands, of_call, row_order
from .bindings import IMPLICIT_SITES
from .kinds import CLASS_KINDS, FUNCTION_KINDS
from .values import BOUND, EMPTY, SYM, ordered

_NO: dict = {}      # the default of the model's dict-of-dicts lookups (read only: never filled)
_NO_ROWS = (_NO, _NO, _NO)     # (`Model.aliased_in` of a file with none)
#: what a call through another name passes on (`_is_code`)
_CODE_KINDS = FUNCTION_KINDS | CLASS_KINDS


def _alias_order(item: tuple) -> tuple:
    """`AliasFlows.callee_aliases`'s items in one order (the name, its scope, file, shift)."""
    return (item[0], item[1] or 0, item[2], -1 if item[3] is None else item[3])


class AliasFlows:
    """The calls reaching a function by another name (see the module doc)."""

    def _code_through(self, row: tuple, callee: str, shift, fn: int, idx: int, pos, rest: bool,
                      depth: int) -> set:
        """The functions, bound methods and classes argument `row` passes to parameter
        `idx` of `fn` through a call by another name (`_alias_rows`): a name whose calls
        reach `fn` with `shift` (a parameter `fn` was passed to, `callee_aliases` checked
        that), or one whose callee is evaluated (shift None: a name assigned it). Nothing
        else: a value such as a path handed to `os.fspath`, bound to `os._fspath`, would
        flow back out of every call of it."""
        m = self.m
        scope = row[0]
        if shift is None and row[4] == "identifier":
            # a parameter of the function around the call, handed on under a name assigned
            # `fn`: followed when `fn` calls the parameter taking it (shutil's
            # `_rmtree(path, onerror)`, the walk calling `onerror(...)`) or that function
            # calls it itself, not otherwise (a path handed to `fspath`: evaluating every
            # such parameter cost resolution ~20% more on the standard library)
            h = self._param_of(scope, row[3])
            if h is not None and not self._calls_param(h, row[3]):
                ps = self.params(fn) or ()
                if not (0 <= idx < len(ps) and self._calls_param(fn, ps[idx].name)):
                    return set()
        if shift is None:
            explicit_self = self.rules(m.fam.get(fn)).explicit_self
            cvals, _ = self.eval_text(scope, callee, depth=depth + 1)
            fam = m.fam.get(scope)
            found = {self._shift(cv, explicit_self) for cv in ordered(cvals)
                     if self.call_target(cv, fam) == (SYM, fn)}
        else:
            found = (shift,)
        if any(lands(pos, s, idx, rest) for s in found):
            return {v for v in self.binding_values(row, depth + 1) if self._is_code(v)}
        return set()

    def _is_code(self, v: tuple) -> bool:
        """Whether value `v` is a function, a bound method or a class of the repository."""
        return v[0] == BOUND or (v[0] == SYM and self.m.kind.get(v[1]) in _CODE_KINDS)

    def _alias_rows(self, fn: int, names: list, depth: int) -> list:
        """The argument rows of the calls that may reach `fn` under another name
        (`callee_aliases`), each with the shift its name calls `fn` with (None: to be
        evaluated): the rows by that name inside the scope holding it, in its file."""
        aliases = self.callee_aliases(fn, depth)
        if not aliases:
            return []
        m = self.m
        out: list = []
        for alias, within, at, shift in sorted(aliases, key=_alias_order):
            if within is None:          # (`fn`'s own names: their rows are taken already)
                continue
            self.memo.read(within)
            rows = [r for r in m.arg_rows_in(at, alias)
                    if m.path.get(r[0]) == at and self._inside(r[0], within)]
            if len(rows) <= ARG_ROWS_MAX:
                out.extend((r, shift) for r in rows)
        return out

    def callee_aliases(self, fn: int, depth: int) -> frozenset:
        """Other names a call may reach function `fn` by, as (name, the scope holding it,
        its file, the shift a call by it passes `fn`'s arguments with, or None when the
        callee is to be evaluated): names assigned it in its own file (`c = func`, a lambda
        bound to a name), the parameters it is passed to there (`run(func)`,
        `obj.m(self.handle, ...)`, `run(c)`), and in turn the names assigned those and the
        parameters those are passed to, in the files of the functions taking them
        (shutil's `rmtree(path, onerror)` handing `onerror` on to `_rmtree_unsafe`); `fn`'s
        own names with no scope. Only for a function whose file reads its name as a value
        (`Model.aliased_in`, kept with the model): every other one has none, at a lookup's
        cost."""
        m = self.m
        path = m.path.get(fn)
        if path is None:
            return EMPTY
        self.memo.read(fn)
        kind = m.kind.get(fn)
        rows = m.aliased_in(path)
        if kind == "lambda":
            if rows is None or fn not in rows[1]:
                return EMPTY
        elif rows is None or (m.name[fn] not in rows[0] and m.name[fn] not in rows[2]):
            cls = m.enclosing_class(fn) if kind in ("method", "constructor") else None
            if cls is None or m.name[fn] not in ("__init__", "constructor"):
                return EMPTY
            rows = m.aliased_in(m.path.get(cls))
            if rows is None or (m.name[cls] not in rows[0] and m.name[cls] not in rows[2]):
                return EMPTY
        return self.memo(("alias", fn), depth, True, EMPTY, self._callee_aliases, fn, depth)

    #: names followed from a function (itself, names assigned it, parameters taking it),
    #: and rows passing one of them followed, at most (`_callee_aliases`)
    ALIAS_NAMES_MAX = 8
    ALIAS_PASSES_MAX = 20

    def _callee_aliases(self, fn: int, depth: int) -> frozenset:
        m = self.m
        path = m.path[fn]
        kind = m.kind.get(fn)
        # (name, the scope holding it: None anywhere in the file, its file, the shift)
        todo: list = [] if kind == "lambda" else [(m.name[fn], None, path, None)]
        cls = m.enclosing_class(fn) if kind in ("method", "constructor") else None
        if cls is not None and m.name[fn] in ("__init__", "constructor") and m.path.get(cls):
            todo.append((m.name[cls], None, m.path[cls], None))      # `make = Job` then `make(f)`
            self.memo.read(cls)
        if kind == "lambda":                                          # `x = lambda ...`
            for row in (m.aliased_in(path) or _NO_ROWS)[1].get(fn, ()):
                todo.append((row[2], row[0], path, None))
        fam = m.fam.get(fn)
        explicit_self = self.rules(fam).explicit_self
        seen = 0
        i = 0
        while i < len(todo):
            name, within, at, shift = todo[i]
            i += 1
            # `fn`'s own names: the rows kept with the model; other names: their file's
            assigned, _, passed = (m.aliased_in(at) or _NO_ROWS) if within is None else self._alias_index(at)
            for row in assigned.get(name, ()):
                if within is not None and not self._inside(row[0], within):
                    continue
                # a name assigned a parameter holding `fn` holds it too; one assigned
                # another name is checked where it is called (the shift then unknown)
                if shift is not None and row[3] != name or "." in row[2]:
                    continue        # (an attribute set, `self.cb = func`: not followed)
                item = (row[2], row[0], at, shift)
                if item not in todo and len(todo) < self.ALIAS_NAMES_MAX:
                    todo.append(item)
            for row in passed.get(name, ()):
                if within is not None and not self._inside(row[0], within):
                    continue
                seen += 1
                if seen > self.ALIAS_PASSES_MAX or len(todo) >= self.ALIAS_NAMES_MAX:
                    break
                scope = row[0]
                callee, _, slot = row[2].rpartition("#")
                if not callee or slot in ("*", "**") or of_call(row[2]):
                    continue
                # what the call passes: `fn` (with the shift its calls then take)?
                if shift is not None:
                    passes = (shift,) if row[3] == name else ()
                elif row[3] == name and self._param_of(scope, name) is not None:
                    passes = ()         # (a parameter of that name, not `fn`)
                else:
                    passes = {self._shift(v, explicit_self)
                              for v in ordered(self.eval_text(scope, row[3], depth=depth + 1)[0])
                              if self.call_target(v, fam) == (SYM, fn)}
                if not passes:
                    continue
                for cv in ordered(self.eval_text(scope, callee, depth=depth + 1)[0]):
                    tgt = self.call_target(cv, m.fam.get(scope))
                    if tgt is None or tgt[0] != SYM or tgt[1] == fn \
                            or m.kind.get(tgt[1]) not in FUNCTION_KINDS:
                        continue
                    g = tgt[1]
                    ps = self.params(g) or ()
                    pname = None
                    if slot.isdigit():
                        k = int(slot) + self._shift(cv, self.rules(m.fam.get(g)).explicit_self)
                        if k < len(ps) and ps[k].kind == "pos":
                            pname = ps[k].name
                    elif any(p.name == slot and p.kind in ("pos", "kwonly") for p in ps):
                        pname = slot
                    at_g = m.path.get(g)
                    if pname is None or at_g is None:
                        continue
                    self.memo.read(g)
                    for s in sorted(passes):
                        item = (pname, g, at_g, s)
                        if item not in todo and len(todo) < self.ALIAS_NAMES_MAX:
                            todo.append(item)
        return frozenset(todo)

    def _param_of(self, scope, name: str):
        """The function (`scope` or one around it) whose parameter `name` read in `scope`
        is, or None."""
        m = self.m
        while scope is not None:
            k = m.kind.get(scope)
            if k in FUNCTION_KINDS:
                if any(p.name == name for p in self.params(scope) or ()):
                    return scope
            elif k not in CLASS_KINDS:
                return None
            scope = m.parent.get(scope)
        return None

    def _calls_param(self, fn: int, name: str) -> bool:
        """Whether function `fn` calls its parameter `name` with arguments (`name(...)`)."""
        m = self.m
        self.memo.read(fn)
        return any(r[2].rpartition("#")[0] == name and self._inside(r[0], fn)
                   for r in m.arg_rows_in(m.path.get(fn), name))

    def _inside(self, scope, within: int) -> bool:
        """Whether `scope` is `within` or nested in it."""
        parent = self.m.parent
        while scope is not None and scope != within:
            scope = parent.get(scope)
        return scope is not None

    def _alias_index(self, path: str) -> tuple:
        """The rows of file `path` that may give a function another name, once per file and
        run: assignments to a name of a name or an attribute by the last name assigned,
        of a lambda by its id, and arguments written as a name or an attribute by that last
        name; each in the file's order (full and incremental runs take the same first
        ones)."""
        by_file = self.lang_cache.setdefault("flows.aliases", {})
        got = by_file.get(path)
        if got is not None:
            return got
        m = self.m
        if m.lazy:
            m.ensure_bindings(path)
        assigned: dict = {}
        lambdas: dict = {}
        passed: dict = {}
        binds = m.binds
        for sid in m.symbols_in((path,)):
            for name, rows in (binds.get(sid) or _NO).items():
                if name == IMPLICIT_SITES or "." in name:   # (implicit sites: no rows)
                    continue
                for row in rows:
                    if row[1] != "assign":
                        continue
                    vtype = row[4]
                    if vtype == "lambda" and row[5] is not None:
                        lambdas.setdefault(row[5], []).append(row)
                    elif vtype in ("identifier", "attribute") and row[3]:
                        assigned.setdefault(row[3].rpartition(".")[2], []).append(row)
        for row in m.passed_rows_of_path(path):
            if row[3]:
                passed.setdefault(row[3].rpartition(".")[2], []).append(row)
        for rows in (*assigned.values(), *lambdas.values(), *passed.values()):
            rows.sort(key=row_order)
        got = by_file[path] = (assigned, lambdas, passed)
        return got
