"""The shared vocabulary: groups of symbol kinds, edge kinds and languages, each with one
meaning, used by the resolver, the queries and the views alike.

A symbol's `kind` comes from the query files (`@definition.<kind>`); these groups say
what the rest of the package may assume about a kind. Sets are frozensets; in SQL pass
them as lists (`list_contains(?, kind)` with `sorted(GROUP)`).
"""
from __future__ import annotations

from .languages import SPECS

# ---------------------------------------------------------------- symbol kinds

#: Types: their members are methods, and calling one constructs an instance (a class's
#: callers include its constructor's).
CLASS_KINDS = frozenset({"class", "interface", "struct", "enum", "trait", "record", "object"})

#: Code that runs when called: call edges start in these (and in modules) and end in them.
FUNCTION_KINDS = frozenset({"function", "method", "constructor", "lambda"})

#: What a call expression can name: functions and the types whose call constructs.
CALL_TARGET_KINDS = frozenset({"function", "method", "constructor", "class", "struct", "record"})

#: Scopes that own names (members, nested definitions, locals).
NAMESPACE_KINDS = frozenset({"module", "function", "method", "class", "lambda", "interface", "struct",
                             "enum", "trait", "impl", "namespace", "record", "constructor", "object"})

#: Named definitions an outline shows with their parameter list.
SIGNATURE_KINDS = frozenset({"function", "method", "constructor", "macro"})

#: Names bound to a value (not to code or a type): what type inference follows.
VALUE_KINDS = frozenset({"variable", "field", "constant", "property"})

#: Module-level variables (the `module_vars` rule).
VARIABLE_KINDS = frozenset({"variable", "constant"})

#: Data members of a type (the `fields` rule).
MEMBER_KINDS = frozenset({"field", "property", "enum_member", "constant", "variable"})

#: Anonymous definitions: symbols for the call graph, never an entry of an outline or a list.
ANONYMOUS_KINDS = frozenset({"lambda"})

#: The names a constructor has besides the class's own (Java, C++).
CONSTRUCTOR_NAMES = ("__init__", "__new__", "constructor")

# ---------------------------------------------------------------- edges

#: Edge kinds the resolver binds to a target and that make one symbol depend on another.
DEPENDENCY_EDGE_KINDS = ("calls", "imports", "inherits", "implements")

#: Resolutions of the `calls` rows resolution adds, standing for no call expression (a
#: function handed to a builtin that calls it, `callback`; a method Python runs for an
#: operator, a `with`, a `for`, `len(x)`, `implicit`), as an SQL list:
#: `resolution IN {ADDED_SQL}`. Never read back as edges to resolve.
ADDED_SQL = "('callback', 'implicit')"

#: Resolutions that name the target for certain (the views label every other one).
CERTAIN_RESOLUTIONS = frozenset({"local", "import", "alias", "reexport", "self"})

# ---------------------------------------------------------------- languages

#: Data and prose formats: counted, never parsed, no symbols (derived from the specs).
DATA_LANGUAGES = frozenset(name for name, spec in SPECS.items() if not spec.parse)
