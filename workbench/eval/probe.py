"""One strategy on one task: the tool calls it makes, what each answer cost, which lines of
the task's file came back.

A `Probe` calls the real agent tools (`workbench.views.call`) under one rule set and
records every answer: its token count, whether it was an error, and the lines of the
task's file it returned (a `read_region` / `resolve_symbol` answer, a `read_outline` that
sent the file itself, the code regions of a `context_pack`). Answers are memoised per rule
set within a run (the same call gets the same text), and every call is counted every time
a strategy makes it.

`Target` is what a strategy knows about the task: the file and the names leading to the
definition (`["Session", "send"]`), never its line range: ranges come from answers.
"""
from __future__ import annotations

import json
from dataclasses import dataclass, field

from ..views import call
from ..views.rules import Rules


@dataclass(frozen=True)
class Target:
    task_id: int
    path: str
    names: tuple[str, ...]        # top level first: ("Session", "send")
    qualname: str                 # in the index (the anchor's for an added definition)
    kind: str
    start_line: int               # the range to reach (what hit / cut / miss is judged on)
    end_line: int
    def_start: int                # the definition's own range in the index
    def_end: int
    line_count: int
    change: str = "named"

    @property
    def dotted(self) -> str:
        return ".".join(self.names)


@dataclass
class Record:
    step: int
    tool: str
    args: dict
    tokens: int
    chars: int
    error: bool
    start_line: int | None = None     # lines of the task's file the answer returned
    end_line: int | None = None


@dataclass
class Probe:
    wb: object
    rules: Rules
    target: Target
    memo: dict
    records: list = field(default_factory=list)
    ranges: list = field(default_factory=list)     # [(a, b)] of the task's file returned

    def call(self, tool: str, **args):
        """Run a tool the way an agent would and record the answer."""
        args = {k: v for k, v in args.items() if v is not None}
        key = (tool, json.dumps(args, sort_keys=True, default=str))
        resp = self.memo.get(key)
        if resp is None:
            resp = self.memo[key] = call(self.wb, tool, args, rules=self.rules)
        rec = Record(len(self.records) + 1, tool, args, resp.tokens, resp.chars, resp.error)
        got = [r for r in returned_ranges(resp) if r[0] == self.target.path]
        if got:
            rec.start_line = min(a for _, a, _ in got)
            rec.end_line = max(b for _, _, b in got)
            self.ranges.extend((a, b) for _, a, b in got)
        self.records.append(rec)
        return resp

    # ---------------------------------------------------------------- judging
    @property
    def tokens(self) -> int:
        return sum(r.tokens for r in self.records)

    def covered(self) -> int:
        """Lines of the target range that some answer returned."""
        a, b = self.target.start_line, self.target.end_line
        seen = set()
        for x, y in self.ranges:
            lo, hi = max(a, x), min(b, y)
            if lo <= hi:
                seen.update(range(lo, hi + 1))
        return len(seen)

    def outcome(self) -> str:
        n = self.covered()
        want = self.target.end_line - self.target.start_line + 1
        return "hit" if n >= want else "cut" if n else "miss"

    def has_range(self) -> bool:
        return self.covered() >= self.target.end_line - self.target.start_line + 1

    # ---------------------------------------------------------------- reading
    def read(self, start: int, end: int) -> None:
        """read_region(start, end), then the ranges its continuation notes name, until the
        range is complete (or an answer is an error)."""
        path = self.target.path
        while start <= end:
            r = self.call("read_region", path=path, start_line=start, end_line=end)
            d = r.data if isinstance(r.data, dict) else {}
            if r.error or not d.get("end_line") or d.get("repeat_of"):
                return
            last = d["end_line"]
            if last < start:
                return
            start = last + 1
            if d.get("complete") and last >= min(end, d.get("total_lines", end)):
                return

    def read_target(self) -> None:
        """Read the target range (known now from an answer), following continuation notes."""
        self.read(self.target.start_line, self.target.end_line)


def returned_ranges(resp) -> list[tuple[str, int, int]]:
    """(path, first, last) of source lines an answer carries verbatim."""
    d = resp.data
    if resp.error or not isinstance(d, dict) or d.get("repeat_of"):
        return []
    out = []
    if isinstance(d.get("path"), str) and isinstance(d.get("start_line"), int) \
            and isinstance(d.get("end_line"), int) and d["end_line"] >= d["start_line"]:
        out.append((d["path"], d["start_line"], d["end_line"]))
    for reg in d.get("regions") or ():
        if isinstance(reg, dict) and reg.get("verbatim", True):
            out.append((reg["path"], reg["start_line"], reg["end_line"]))
    return out


# ---------------------------------------------------------------- finding the target in an answer

def find_in_outline(data, target: Target) -> tuple[list | None, int]:
    """Look for the target in an outline answer's data (the json form every outline format
    carries). Returns (its [first, last] lines when the answer shows them, how many of the
    target's leading names the answer shows: the deepest visible ancestor)."""
    if not isinstance(data, dict):
        return None, 0
    items = data.get("symbols")
    if items is None:                  # a directory outline: the file's part
        items = next((f.get("symbols") for f in data.get("files") or () if f.get("path") == target.path), None)
    names = target.names
    if data.get("level") == 3:         # one function's blocks: its own line is the range
        return (data.get("lines"), len(names)) if data.get("symbol") == target.qualname else (None, 0)
    if data.get("level") == 2:         # one definition expanded: where it sits among the names
        sym = data.get("symbol") or ""
        for k in range(1, len(names) + 1):
            rest = ".".join(names[k:])
            if target.qualname == (f"{sym}.{rest}" if rest else sym):
                lines, depth = _walk(items or [], names[k - 1:], target.def_start)
                return lines, depth + k - 1
        return None, 0
    return _walk(items or [], names, target.def_start)


def _walk(items: list, names: tuple[str, ...], start: int) -> tuple[list | None, int]:
    level = items
    for i, name in enumerate(names):
        cands = [x for x in level if x.get("name") == name]
        if not cands:
            return None, i
        if i == len(names) - 1:
            pick = next((x for x in cands if (x.get("lines") or [None])[0] == start), cands[0])
            return pick.get("lines"), i + 1
        level = cands[0].get("children") or []
    return None, 0
