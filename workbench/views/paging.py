"""Bounded answers: every answer fits the rules' caps (`max_chars` characters and
`max_tokens` tokens), cut at a whole line, and says exactly how to get the rest.

Tools that list rows (call sites, definitions, files, outline lines) page themselves with
`fit`: the head lines, then as many rows as fit, then a note naming the next call
(`find_callers(symbol="x", offset=40)`); asking for that call returns the next rows, so
paging through an answer returns every row exactly once. The registry applies `cap` to
every answer as the last step, so no tool can send more than the caps, and its note names
what to ask instead (a narrower path, a lower depth, the range to request).

    >>> b = Budget(6000, 2500, get_tokenizer())
    >>> text, shown = fit(["callers of f: 95 call sites"], rows, b,
    ...                   lambda k: page_note("call sites", 0, k, 95, "find_callers", {"symbol": "f"}))
"""
from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Callable

from .tokens import Tokenizer


# the paging argument of the tools whose lists can be long
OFFSET = {"type": "integer", "description": "rows to skip: the next page starts where the "
          "previous answer's note says", "default": 0}


@dataclass(frozen=True)
class Budget:
    """What one answer may hold: characters and tokens (of `tok`)."""
    chars: int
    tokens: int
    tok: Tokenizer

    def fits(self, text: str) -> bool:
        return len(text) <= self.chars and (len(text) * 4 <= self.tokens or self.tok.count(text) <= self.tokens)

    def less(self, chars: int, tokens: int) -> "Budget":
        """The budget left after `chars` characters and `tokens` tokens are spent elsewhere."""
        return Budget(max(0, self.chars - chars), max(0, self.tokens - tokens), self.tok)


def call_hint(tool: str, args: dict) -> str:
    """A tool call as an agent would write it: `find_callers(symbol="a.b", offset=40)`."""
    return f"{tool}(" + ", ".join(f"{k}={json.dumps(v, ensure_ascii=False)}" for k, v in args.items()
                                  if v is not None) + ")"


def page_note(what: str, offset: int, shown: int, total: int, tool: str, args: dict) -> str:
    """The note after a page: which rows it held and the call that returns the next ones."""
    first, last = offset + 1, offset + shown
    where = f"{first:,}-{last:,}" if shown else "none"
    nxt = call_hint(tool, {**{k: v for k, v in args.items() if k != "offset"}, "offset": offset + shown})
    return f"[{what} {where} of {total:,} shown; next page: {nxt}]"


def _join(head: list[str], rows: list[str], k: int, note: str | None) -> str:
    return "\n".join([*head, *rows[:k], *([note] if note is not None else [])])


def _mark(room: int, n: int) -> str:
    return f" [line cut at {room:,} of {n:,} characters]"


def fit(head: list[str], rows: list[str], budget: Budget,
        note: Callable[[int], str | None], mark: Callable[[int, int], str] = _mark) -> tuple[str, int]:
    """(text, k): `head`, the first `k` of `rows` that fit the budget, then `note(k)` (a
    note is always called; it returns None when nothing needs saying, e.g. k == len(rows)).
    A first row longer than the whole budget is cut inside (ending with `mark(kept
    characters, all characters)`) and counts as shown."""
    n = len(rows)
    base = sum(len(h) + 1 for h in head)
    k, used = 0, base
    # the largest k whose text fits the characters (note lengths barely change with k)
    while k < n:
        nxt = used + len(rows[k]) + 1
        tail = note(k + 1)
        if nxt + (len(tail) + 1 if tail is not None else 0) - 1 > budget.chars:
            break
        used, k = nxt, k + 1
    text = _join(head, rows, k, note(k))
    if not budget.fits(text):          # tokens: binary search the largest k that fits
        lo, hi = 0, k
        while lo < hi:
            mid = (lo + hi + 1) // 2
            if budget.fits(_join(head, rows, mid, note(mid))):
                lo = mid
            else:
                hi = mid - 1
        k = lo
        text = _join(head, rows, k, note(k))
    if k == 0 and n:
        # one line longer than the whole budget: send its start, marked, and go on after it
        tail = note(1)
        room = budget.chars - base - (len(tail) + 1 if tail is not None else 0) - 40
        first = rows[0][:max(0, room)] + mark(max(0, room), len(rows[0]))
        text = _join(head, [first], 1, tail)
        while not budget.fits(text) and room > 0:
            room //= 2
            first = rows[0][:room] + mark(room, len(rows[0]))
            text = _join(head, [first], 1, tail)
        k = 1
    return text, k


def cap(text: str, budget: Budget, advice: str) -> tuple[str, bool]:
    """`text` within the budget: unchanged when it fits, else cut at a whole line with a note
    giving the lines shown and `advice` (how to ask for less). (text, was it cut)."""
    if budget.fits(text):
        return text, False
    lines = text.split("\n")
    n = len(lines)

    def note(k: int) -> str | None:
        if k >= n:
            return None
        return (f"[answer cut at {budget.chars:,} characters / {budget.tokens:,} tokens: lines 1-{k} "
                f"of {n} shown; {advice}]")
    out, _ = fit([], lines, budget, note)
    return out, True
