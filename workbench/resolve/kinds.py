"""Groups of symbol kinds the resolver relies on (names as in the shared vocabulary)."""
from __future__ import annotations

#: Scopes that own names (members, nested definitions, locals).
NAMESPACE_KINDS = frozenset({"module", "function", "method", "class", "lambda", "interface", "struct",
                             "enum", "trait", "impl", "namespace", "record", "constructor", "object"})
#: Types: their members are methods, and calling one constructs an instance.
CLASS_KINDS = frozenset({"class", "interface", "struct", "enum", "trait", "record", "object"})
#: Code that runs when called.
FUNCTION_KINDS = frozenset({"function", "method", "constructor", "lambda"})
#: What a call expression can name: functions and the types whose call constructs.
CALL_TARGET_KINDS = frozenset({"function", "method", "constructor", "class", "struct", "record"})
#: Names bound to a value (not to code or a type): what type inference follows.
VALUE_KINDS = frozenset({"variable", "field", "constant", "property"})
