"""The language families resolution knows, one module each (see `base.Language`).

Adding a language's resolution: write `lang/<family>.py` with a `Language` subclass (its
`family`, the `files.language` values it covers, and the hooks it needs), add it to
`FAMILIES` below, and add call-graph cases under `tests/callgraph_cases/<family>/`.
A language without a module resolves through lexical scopes and the repository's
definitions only (`base.DEFAULT`).
"""
from __future__ import annotations

from .base import DEFAULT, Language
from .c import C, Cpp
from .ecma import Ecma
from .go import Go
from .java import Java
from .python import Python
from .rust import Rust

FAMILIES: dict[str, Language] = {rules.family: rules for rules in (
    Python(), Ecma(), Java(), Go(), Rust(), C(), Cpp())}

#: `files.language` -> family name (a language without a module is its own family)
FAMILY: dict[str, str] = {lang: rules.family for rules in FAMILIES.values() for lang in rules.languages}


def family_of(language: str | None) -> str | None:
    return FAMILY.get(language, language)


def rules_of(family: str | None) -> Language:
    """The rules of a family (the defaults for a family without a module)."""
    return FAMILIES.get(family, DEFAULT)


__all__ = ["FAMILIES", "FAMILY", "Language", "DEFAULT", "family_of", "rules_of"]
