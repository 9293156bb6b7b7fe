"""The resolution settings a database keeps: whether resolution adds *implicit* rows (the
calls Python makes without a call expression: `resolution` `implicit`, see
`lang/python_implicit.py`). Off unless asked for: finding them evaluates the operand of
every operator, subscript, `with` and `for` of the repository, which costs a full index
of the standard library a quarter to a third more CPU and a higher memory peak.

The setting is written into `meta` (`IMPLICIT_META`) by each resolving run, and its
resolver version is marked with it (`version_mark`): a run asking for the other setting
finds the database resolved by other code and resolves everything again, and a model
stored or kept for one setting is never refreshed for the other. A run that does not say
(`implicit=None`) keeps the database's setting.
"""
from __future__ import annotations

#: the `meta` key holding the setting: 'on' or 'off'
IMPLICIT_META = "implicit_calls"
#: what marks the resolver version of a database resolved with implicit rows
_MARK = "+implicit"


def implicit_of(metas: dict, implicit: bool | None) -> bool:
    """The setting a run uses: `implicit` when given, else the database's (`metas`, with
    `IMPLICIT_META` read), off for a database that has none."""
    if implicit is not None:
        return bool(implicit)
    return metas.get(IMPLICIT_META) == "on"


def version_mark(version: str, implicit: bool) -> str:
    """The resolver version written for (and compared with) a database resolved with
    setting `implicit`."""
    return version + _MARK if implicit else version


def meta_value(implicit: bool) -> str:
    return "on" if implicit else "off"
