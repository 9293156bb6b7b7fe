"""What resolution knows about one language family: the interface a language module fills.

The evaluator (`workbench.resolve.evaluate.Resolver`) is language-neutral: wherever the
rules of a language matter it asks that language's `Language` object, passing itself in
as `ev` (a language module never imports the evaluator). The defaults below are the rules
of a language nothing is known about: lexical scopes, the definitions of the repository,
and nothing else.

A hook receives the evaluator `ev` (its model is `ev.m`), the scope or symbol it is about
and the evaluation `depth` to pass on. Values are the tuples of
`workbench.resolve.values`; "how" is an `edges.resolution` label.
"""
from __future__ import annotations

import re

from ..kinds import FUNCTION_KINDS
from ..values import BUILTIN, EXT, EXT_RESULT, INST, SUPER, SYM, Param, declared_type, param_parts


def named_constructor(self, ev, cls: int) -> int | None:
    """A `Language.constructor` for languages whose constructor is the member named after its
    class (Java, C++): the first function among `cls`'s children with the class's name."""
    m = ev.m
    for c in m.children.get(cls, {}).get(m.name[cls], ()):
        if m.kind.get(c) in FUNCTION_KINDS:
            return c
    return None


class Language:
    """One language family's resolution rules; subclass it and register the subclass in
    `workbench/resolve/lang/__init__.py`."""

    #: the family name (`python`, `ecma`, ...) and the `files.language` values it covers
    family: str = ""
    languages: tuple[str, ...] = ()

    # ---------------------------------------------------------------- data
    #: value node types (tree-sitter) of literals -> the builtin type they make
    literal_types: dict[str, str] = {}
    #: the builtin type of a string literal used as a receiver (`"a".join(...)`)
    string_type: str = "String"
    #: bare names inside a method see the class body's names (False for Python)
    class_scope_visible: bool = True
    #: inside a class body, a bare name can be a member of the class (Java)
    class_members_in_scope: bool = False
    #: a declared type (`Foo x`, `var x Foo`, `x: Foo`) wins over assigned values
    declared_types_win: bool = False
    #: methods every function value has (`f.call(...)` calls `f`)
    function_methods: frozenset[str] = frozenset()
    #: kinds of symbol a call runs (C function-like macros too)
    callable_kinds: frozenset[str] = FUNCTION_KINDS
    #: symbol kinds that are parts of another type rather than names (Rust `impl` blocks)
    type_part_kinds: frozenset[str] = frozenset()
    #: methods are called with an explicit first parameter bound by the call (`self`)
    explicit_self: bool = False
    #: a constructor-less base class stands for its constructor in `super(...)`
    base_class_is_constructor: bool = True
    #: an unbound bare name is an error at run time, never a guess by name (Python)
    unbound_names_raise: bool = False
    #: `special_param` answers only for names in the function's parameter list (Python's
    #: `self`; not a Go receiver), so other names need not ask it
    special_params_listed: bool = False
    #: names the language provides everywhere without a definition or an import (Python's
    #: builtins): resolution may look them up with no text of the repository naming them
    builtin_names: frozenset[str] = frozenset()
    #: external types that describe a function, not an instance (`typing.Callable`): a
    #: parameter annotated with one takes its values from the call sites, as an
    #: unannotated one does (`Flows.param_values`)
    function_types: frozenset[str] = frozenset()
    #: functions outside the repository that call what they are handed, by their target
    #: name (a builtin's, `list.sort`, or an external dotted one: `functools.reduce`) -> the
    #: parameters they call (a position from 0 as a string, or a keyword); the function
    #: passing a repository function there is credited with calling it
    #: (`Flows.passed_callbacks`)
    callback_params: dict[str, frozenset[str]] = {}
    #: a bare name may call a method of any class (Java's implicit `this`)
    bare_names_reach_methods: bool = False
    #: files of one directory form one package (Java, Go): a change reaches its mates
    package_is_directory: bool = False
    #: a base is also a field named after its type (Go's embedded fields: `p.Reader`)
    bases_are_fields: bool = False
    #: a field's declared type is looked up at module level (Go) instead of in its class
    field_types_at_module_level: bool = False
    #: `x = require('m')` bindings are imports too (CommonJS): the import row wins
    require_imports: bool = False
    #: variables holding an object literal with functions are namespaces of those (JS)
    object_literal_members: bool = False

    #: `prepare` adds to the model's own indexes (members attached to a type in another
    #: file: Go methods, Rust `impl` blocks), so a kept model is derived again in full
    prepare_adds_members: bool = False

    # ---------------------------------------------------------------- the model
    def prepare(self, m) -> None:
        """Add this family's indexes to the model (after symbols, before imports)."""

    def refresh(self, m, old_ext: dict, gone: list[tuple], new: list[int]) -> None:
        """Bring this family's indexes up to date in a kept model whose changed files'
        symbols `gone` (id, kind, name, parent, family, path) are now `new` (ids;
        `Model.refresh`); `old_ext` holds the indexes as they were, `m.ext` starts empty.
        By default `prepare` again."""
        self.prepare(m)

    def before_helper(self, m) -> None:
        """Load now what evaluation would otherwise read from the database when it first
        needs it: forked helper processes evaluate without the database
        (`parallel._evaluate_in_two`). What is made here is made once for both helpers,
        and stays in the model this process keeps for its next run."""

    def outside_fills(self, m) -> dict:
        """Containers filled through an attribute of another object (`obj.items.append(f)`,
        `obj.table[k] = f`), by the attribute's name: name -> [(scope, container as
        written, line)] (`Members.filled_outside`). None by default."""
        return {}

    def prepare_bases(self, m) -> None:
        """Adjust the written bases once `inherits` / `implements` rows are loaded."""

    def provides(self, m, paths: set[str]) -> dict[str, dict[str, list[str]]]:
        """What the files `paths` put into this family's own indexes (see
        `workbench.resolve.deps`): path -> token -> facts (texts, no ids or lines)."""
        return {}

    def bound_names(self, row: dict) -> list[str]:
        """The names an imports row binds in its scope (`"*"`: a star import)."""
        mod, name, alias = row["module"], row["name"], row["alias"]
        return [alias or name or (mod or "").rsplit(".", 1)[-1]]

    # ---------------------------------------------------------------- names
    def head(self, ev, scope: int, steps: tuple, callee: bool, depth: int):
        """A chain head with a special meaning (`self`, `this`, `super`, `crate`):
        (values, how, number of steps consumed), or None for an ordinary name."""
        return None

    def qualified(self, ev, steps: tuple):
        """A chain whose head is no name in scope: (values, how, steps consumed) or None
        (Java's fully qualified names)."""
        return None

    def global_value(self, ev, scope: int, mod: int | None, name: str, depth: int):
        """(values, how) of a name no enclosing scope binds: star imports, the package,
        builtins. None when it is unknown."""
        return None

    def definition_values(self, ev, d: int, depth: int) -> set:
        """The value a definition binds its name to."""
        return {(SYM, d)}

    def skip_binding(self, ev, scope: int, name: str, row: tuple) -> bool:
        """Whether a binding row of `name` in `scope` is left out of its values."""
        return False

    #: whether iterating a mapping gives its keys (`makes_mapping`, `Flows.iter_values`)
    iterates_mapping_keys: bool = False

    def makes_mapping(self, row: tuple) -> bool:
        """Whether binding row `row` (an assignment) makes its name a mapping whose
        iteration gives its keys, not the values stored in it (a Python dict); the
        languages that iterate containers by value say False."""
        return False

    def mapping_literal(self, text: str) -> bool:
        """Whether literal `text` is a mapping iterated by its keys (`{"a": f}` in Python)."""
        return False

    # ---------------------------------------------------------------- modules and imports
    def import_values(self, ev, row: dict, depth: int) -> tuple[set, bool]:
        """(values, went-through-a-re-export) of the name an import row binds."""
        return set(), False

    def import_member(self, ev, row: dict, name: str, depth: int) -> tuple[set, bool]:
        """`name` looked up in what a star import row brings in."""
        return set(), False

    def module_attr(self, ev, mid: int, name: str, depth: int):
        """`name` in module `mid` when the language has its own rule: (values, via) or None
        for the generic one (definitions, bindings, imports of the module)."""
        return None

    #: whether functions may bind names of their module (`global_scopes`)
    declares_globals: bool = False

    def global_scopes(self, ev, mid: int, name: str) -> tuple | list:
        """The scopes of module `mid` whose bindings of `name` bind the module's `name`
        (Python's `global name` in a function), in source order."""
        return ()

    def module_attr_missing(self, ev, mid: int, name: str, depth: int) -> tuple[set, bool]:
        """`name` in module `mid` when the generic rule found nothing (submodules, star
        imports, the rest of a package)."""
        return set(), False

    def resolve_import(self, ev, row: dict) -> tuple[set, str, str | None]:
        """(values, how, resolved_path) of an imports row for its `imports` edge."""
        return set(), "import", None

    # ---------------------------------------------------------------- calls and classes
    def special_call(self, ev, scope: int, text: str):
        """(targets, how) of a call that is not an expression (Rust `name!()`), or None."""
        return None

    def implicit_sites(self, ev, scope: int, sites) -> list[tuple]:
        """Calls the code of `scope` makes without a call expression (an operator running a
        method of the operand's class, a `with`, a `for`), from its implicit sites `sites`
        (`bindings.IMPLICIT_SITES`: operator, operand, line, flat): [(text, line, (SYM, id))], written as edges of
        resolution `implicit`. None by default."""
        return []

    def implicit_calls(self, ev, scope: int, path: str | None, text: str, line, targets: list) -> list[tuple]:
        """Calls that a call written `text` at `line`, of `targets`, makes implicitly (a
        builtin running a method of its argument's class, `len(x)`): [(text, line,
        (SYM, id))]. None by default."""
        return []

    def operator_values(self, ev, scope: int, text: str, depth: int) -> set:
        """Values of a binary operation written `text` (a binding's value of node type
        `binary_operator`) that runs a method of the repository; empty when unknown."""
        return set()

    def call_instance(self, ev, cls: int):
        """The symbol calling an instance of `cls` runs (`__call__`), or None."""
        return None

    def call_builtin(self, ev, name: str, args: str, scope: int, depth: int) -> set:
        """Values a call of builtin `name` with `args` (as written) returns."""
        return set()

    def call_external(self, ev, name: str, args: str, scope: int, depth: int) -> set:
        """Values a call of `name` outside the repository returns."""
        return {(EXT_RESULT, name)}

    def call_function(self, ev, f: tuple, args: str, scope: int, depth: int) -> set | None:
        """Values a call of the repository's function value `f` (SYM or BOUND) with `args`
        (as written in `scope`) returns when this language reads that call itself (Python:
        `importlib.import_module` and functions handing a parameter on to it); None: its
        returns (`Flows.returns_of`)."""
        return None

    def constructor(self, ev, cls: int) -> int | None:
        """The constructor an instantiation of `cls` runs."""
        return None

    def abstract_method(self, ev, fn: int) -> str | None:
        """Whether method `fn` is only there to be overridden (a template method's step):
        calling it on an instance also reaches the overrides of the class's subclasses
        (`Members.instance_member`). None: no; "raises": it runs too (and fails);
        "abstract": it never runs (the language refuses to make such an instance)."""
        return None

    def class_field_values(self, ev, fid: int) -> set | None:
        """Values of class-level field `fid` this language knows without its bindings (None:
        read them as usual)."""
        return None

    def outside_attribute(self, ev, cls: int, found: tuple) -> set | None:
        """Values of an instance attribute of class `cls` that its MRO finds in an outside
        base (`found`: (EXT | BUILTIN, name)) when this language knows them (None: the
        outside name itself)."""
        return None

    def self_name(self, ev, fn: int) -> str | None:
        """The name of the receiver inside function `fn` (`self`, `this`, a Go receiver)."""
        m = ev.m
        if m.kind.get(fn) != "method":
            # nested function inside a method: closes over the method's self
            p = m.ns(m.parent.get(fn))
            return ev.self_name(p) if p is not None and m.kind.get(p) in FUNCTION_KINDS else None
        ps = ev.params(fn)
        if not ps or fn in m.static:
            return None
        return ps[0].name

    def declared_return(self, ev, fn: int) -> str | None:
        """The type name a function's signature says it returns."""
        return None

    def declared_field_type(self, ev, fid: int) -> str | None:
        """The type name a field's or variable's declaration gives it."""
        m = ev.m
        sig = (m.sig.get(fid) or "").split("=", 1)[0].strip().rstrip(";")
        name = m.name[fid]
        bits = sig.replace(name, " ").split()
        bits = [b for b in bits if b not in ("private", "public", "protected", "static", "final",
                                             "readonly", "volatile", "transient")]
        return declared_type(bits[-1]) if bits else None

    # ---------------------------------------------------------------- parameters
    def params(self, sig: str | None) -> list[Param] | None:
        """Parameters of a signature as stored in `symbols.signature`."""
        return c_like_params(sig)

    def special_param(self, ev, fn: int, name: str, depth: int):
        """(values, how) of a parameter with a meaning of its own (`self`, a Go receiver),
        or None."""
        return None

    # ---------------------------------------------------------------- call-graph export
    # (`workbench/callgraph.py`: names in the exchange format, which files it covers)
    #: a file module's top-level code runs: the module is a caller and an export key
    export_module_runs: bool = True
    #: calls written in a class body (field initialisers) are credited to the class itself
    #: rather than to the code around the class
    export_class_body_caller: bool = False
    #: the files the export covers grow along resolved calls too, not only along imports
    #: (same-package types, a header's definition in another file, `mod x;` files);
    #: "evident": only along calls resolved without a guess by name
    export_follows_calls: bool | str = False

    def export_name(self, m, sid: int, name_of) -> str | None:
        """The export name of symbol `sid` when this language names it its own way, or None
        for the generic rule (file modules by their qualified name, members by lexical
        nesting). `name_of(other)` names another symbol."""
        return None

    def export_definition(self, m, sid: int) -> int:
        """The symbol a call target stands for in the export (a declaration: its definition)."""
        return sid

    def export_builtin(self, name: str) -> str | None:
        """The export name of a call of builtin `name`, or None when it is no call of a
        function (a method of a builtin type, `list.append`; a macro; a conversion)."""
        return None if "." in name else f"<builtin>.{name}"

    def export_package_files(self, m, path: str) -> list[str]:
        """Files that come along with `path` when the export covers it (Go: its package)."""
        return []

    def decorator_flows(self, ev, fn: int) -> list[tuple]:
        """Decorator applications passing `fn` (or what it is nested in) as an argument,
        as `arg` binding rows."""
        return []

    def decorator_values(self, ev, scope: int, text: str, depth: int):
        """What the decorator written `text` in `scope` evaluates to: the callables its
        application calls with the decorated definition."""
        return ev.eval_text(scope, text, depth=depth + 1)[0]

    def decorator_argument(self, ev, vid: int, text: str, depth: int) -> set:
        """What decorator `text` of definition `vid` is handed (`vid` itself unless the
        decorators below it made something else of it)."""
        return {(SYM, vid)}


_C_PARAM = re.compile(r"([A-Za-z_$][\w$.<>\[\]]*(?:\s*[*&]+)?)\s+[*&]?([A-Za-z_$][\w$]*)\s*(?:=.*)?$")


def c_like_params(sig: str | None) -> list[Param] | None:
    """`(final Type name, Type *p)`: Java and C-like parameter lists."""
    parts = param_parts(sig)
    if parts is None:
        return None
    out = []
    for part in parts:
        part = re.sub(r"@\w+(\([^)]*\))?\s*", "", part).replace("final ", "")
        m = _C_PARAM.search(part)
        if m:
            out.append(Param(m.group(2), m.group(1)))
    return out


def this_and_super(ev, scope, steps, callee):
    """`this` / `super` in a class-based language (ECMAScript, Java): (values, how,
    steps consumed) or None. `super(...)` / `this(...)` call a constructor."""
    name = steps[0][1]
    if name not in ("this", "super"):
        return None
    m = ev.m
    n = len(steps)
    if len(steps) == 1 and callee:
        cls = m.enclosing_class(scope)                    # `super(...)` / `this(...)`
        if cls is None:
            return frozenset(), "unresolved", n
        fam = m.fam.get(scope)
        init = ev.ctor_of_bases(cls, fam) if name == "super" else ev.ctor_of(cls, fam)
        if init is None and name == "super":
            ext = [b for b in ev.mro(cls)[1:] if b[0] in (EXT, BUILTIN)]
            return frozenset(ext[:1]), "super", n
        return (frozenset({(SYM, init)}) if init else frozenset()), "super" if name == "super" else "self", n
    cls = m.enclosing_class(scope)
    if name == "super":
        if len(steps) > 1 and steps[1][0] == "call":      # `super(...)`: base constructor
            if cls is None:
                return frozenset(), "unresolved", n
            init = ev.ctor_of_bases(cls, m.fam.get(scope))
            return (frozenset({(SYM, init)}) if init else frozenset()), "super", n
        return (frozenset({(SUPER, cls, True)}) if cls else frozenset()), "super", 1
    return (frozenset({(INST, cls)}) if cls else frozenset()), "self", 1


def module_names(m, mid: int) -> list[str]:
    """The names a file module defines, with their kinds (facts for `Language.provides`)."""
    return [f"{n}|{m.kind.get(c)}" for n, kids in m.children.get(mid, {}).items() for c in kids]


DEFAULT = Language()
