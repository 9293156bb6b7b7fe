"""Memoised evaluation with cycle cuts: the one place the evaluator caches a result.

A value that depends on itself (mutual recursion, `x = f(x)`, a parameter whose argument
is the function's own result) is cut: the inner occurrence counts as empty, and results
are memoised as computed. Nesting deeper than `max_depth` counts as empty too.
"""
from __future__ import annotations


class Memo:
    """Results by key; `active` holds the keys being computed (a cycle re-enters one)."""

    __slots__ = ("done", "active", "max_depth")

    def __init__(self, max_depth: int):
        self.done: dict = {}
        self.active: set = set()
        self.max_depth = max_depth

    def __call__(self, key, depth: int | None, empty, fn, *args):
        """`fn(*args)` memoised under `key`: `empty` while `key` is being computed (a cycle)
        or when `depth` (None: not limited) is beyond `max_depth`."""
        got = self.done.get(key)
        if got is not None:
            return got
        if key in self.active or (depth is not None and depth > self.max_depth):
            return empty
        self.active.add(key)
        try:
            res = fn(*args)
        finally:
            self.active.discard(key)
        self.done[key] = res
        return res
