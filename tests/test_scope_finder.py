"""The innermost definition around a position (`extract._ScopeFinder`) is looked up by
bisection over answers worked out once at each span boundary; it must give what walking a
stack through the spans in start order gives, for nested spans as for the overlapping ones
that error recovery and clipping leave, and for positions asked in any order."""
from __future__ import annotations

import random

from workbench.extract import _ScopeFinder


class _Node:
    def __init__(self, start: int, end: int):
        self.start_byte, self.end_byte = start, end


class _D:
    def __init__(self, idx: int, start: int, end: int, body):
        self.idx, self.start, self.end, self.body = idx, start, end, body


def _walked(items, positions):
    """The answers of a stack walked through the spans while positions come in order."""
    spans = [((d.body.start_byte, min(d.body.end_byte, d.end)) if d.body is not None
              else (d.start, d.end)) + (d,) for d in items]
    spans.sort(key=lambda t: (t[0], -t[1]))
    out, stack, ptr = {}, [], 0
    for pos in sorted(positions):
        while ptr < len(spans) and spans[ptr][0] <= pos:
            s, e, d = spans[ptr]
            while stack and stack[-1][1] <= s:
                stack.pop()
            stack.append((s, e, d))
            ptr += 1
        while stack and stack[-1][1] <= pos:
            stack.pop()
        out[pos] = stack[-1][2] if stack else None
    return out


def test_scope_of_positions_in_any_order_equals_the_stack_walk():
    rng = random.Random(7)
    for _ in range(3000):
        items = []
        for i in range(rng.randint(0, 9)):
            a = rng.randint(0, 50)
            b = a + rng.randint(0, 40)
            body = None
            if rng.random() < 0.6:       # a body may start before the definition or outlast it
                x = rng.randint(a - 3, b)
                body = _Node(x, x + rng.randint(0, 45))
            items.append(_D(i + 1, a, b, body))
        finder = _ScopeFinder(items)
        positions = [rng.randint(-2, 100) for _ in range(rng.randint(1, 40))]
        expected = _walked(items, positions)
        rng.shuffle(positions)
        for p in positions:
            got = finder.at(p)
            assert got is expected[p]
            assert finder.inner_idx[finder.inner.index(got)] == (0 if got is None else got.idx)


def test_nested_bodies():
    outer = _D(1, 0, 100, _Node(10, 100))
    inner = _D(2, 20, 60, _Node(30, 60))
    finder = _ScopeFinder([outer, inner])
    assert [finder.at(p) for p in (0, 10, 25, 30, 59, 60, 99, 100)] == [
        None, outer, outer, inner, inner, outer, outer, None]
