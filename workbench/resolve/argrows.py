"""Argument rows as evaluation follows them: how many per parameter and per callee name
(`PARAM_FLOW_CAP`, `ARG_ROWS_MAX`), their order in a file (`row_order`), and which are of a
call of a call's result (`of_call`), and whether an argument lands in a parameter
(`lands`). Shared by `flows` and `aliasflows`.
"""
from __future__ import annotations

import re

#: argument rows followed per parameter at most (`_arg_flows`: those of the first calls
#: that could pass it, in file order; the default of `Resolver`'s `param_flow_cap`), and
#: the rows by a function's names (and its decorators) beyond which it follows none
#: (fixed: incremental runs rely on it, `deps._crowded`)
PARAM_FLOW_CAP = 60
ARG_ROWS_MAX = PARAM_FLOW_CAP * 4
#: a callee written as a call of a name (`lru_cache(maxsize=None)`, `self.make()`): its
#: argument rows are kept under that name (`Model._ARG_KEY`), not under what it returns
_CALL_HEAD = re.compile(r"(?:[A-Za-z0-9_$]*[.])*[A-Za-z_$][A-Za-z0-9_$]*[(]")


def row_order(row: tuple) -> tuple:
    """A bindings row's place in its file: line, then its texts."""
    return (row[6] or 0, row[2] or "", row[3] or "", row[0])


def of_call(name: str) -> bool:
    """Whether argument row `name` is of a call of a call's result (`f(...)(x)`)."""
    callee = name.rpartition("#")[0]
    return callee[-1:] == ")" and _CALL_HEAD.match(callee) is not None


def lands(pos: int | None, shift: int, idx: int, rest: bool) -> bool:
    """Whether an argument at position `pos` (None: passed by keyword), in a call passing
    `shift` parameters before its arguments (a bound method's receiver), lands in
    parameter `idx`, or with `rest` in the `*args` starting there (by keyword: never)."""
    if pos is None:
        return not rest
    return pos + shift >= idx if rest else pos + shift == idx
