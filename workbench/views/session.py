"""A conversation's memory of what was sent: repeats, running tokens, source versions.

    >>> s = Session(wb)
    >>> s.call("read_outline", path="shop/orders.py")
    >>> s.call("resolve_symbol", name="place_order")
    >>> s.call("resolve_symbol", name="place_order").text   # "... already provided ..."
    >>> s.total_tokens, s.used_share

A session keeps
* what was already sent (symbols and line ranges, with the content hash they came from),
  so a repeated `resolve_symbol` or `read_region` is answered "already provided" instead
  of resending it (rule `dedupe`);
* the running token total against a context window (rules `context_window`,
  `compress_at`): past `compress_at` of the window the session switches to its compact
  rules (`compact`, by default `profile.default_compact(rules)`; a rule profile file can
  set them) and the first answer under them says so; `compact=False` never switches;
* the source version (sha256) each response was based on, so `read_region` can warn
  when a file changed after the agent last saw it.
"""
from __future__ import annotations

import html
from dataclasses import dataclass, field

from .rules import Rules


@dataclass
class Record:
    turn: int
    tool: str
    args: dict
    tokens: int
    chars: int
    error: bool
    cumulative: int
    source_versions: dict = field(default_factory=dict)
    repeat_of: int | None = None       # turn whose content this call did not resend


class Session:
    def __init__(self, wb, rules: Rules | None = None, *, context_window: int | None = None,
                 compact: Rules | bool | None = None, name: str | None = None):
        from .profile import default_compact
        self.wb = wb
        self.name = name
        self.base_rules = self.rules = rules or Rules()
        self.context_window = context_window or self.rules.context_window
        if compact is None or compact is True:
            compact = default_compact(self.base_rules)
        self.compact_rules: Rules | None = compact or None
        self.compact_since: int | None = None     # turn of the first answer under the compact rules
        self.records: list[Record] = []
        self._sent: dict[tuple, tuple[int, str]] = {}        # key -> (turn, sha256)
        self._regions: dict[str, list[tuple[int, int, int, str]]] = {}  # path -> [(start, end, turn, sha)]
        self.versions: dict[str, tuple[int, str]] = {}       # path -> (turn, sha256) last based on

    # ------------------------------------------------------------ calling tools
    def call(self, tool: str, **args):
        """Run a tool inside this session and record its response."""
        from .registry import call
        return call(self.wb, tool, args, session=self)

    def before_call(self) -> str | None:
        """Switch to the compact rules once the session is past `compress_at` of its window;
        the note the switching answer starts with, else None."""
        if self.compact_since is not None or self.compact_rules is None or not self.over_threshold:
            return None
        self.compact_since = self.next_turn
        changed = self.base_rules.diff(self.compact_rules)
        what = ", ".join(f"{k} {_show(b)}" for k, (_, b) in changed.items()) or "no rule changes"
        self.rules = self.compact_rules
        return (f"note: this session holds {self.total_tokens:,} tokens, {self.used_share:.0%} of its "
                f"{self.context_window:,}-token window (compact at {self.base_rules.compress_at:.0%}); "
                f"answers from here on follow the compact rules: {what}")

    @property
    def next_turn(self) -> int:
        return len(self.records) + 1

    def record(self, response, repeat_of: int | None = None) -> Record:
        rec = Record(self.next_turn, response.tool, dict(response.args), response.tokens,
                     response.chars, response.error, self.total_tokens + response.tokens,
                     dict(response.source_versions), repeat_of)
        self.records.append(rec)
        for path, sha in response.source_versions.items():
            if sha:
                self.versions[path] = (rec.turn, sha)
        return rec

    # ------------------------------------------------------------ what was sent
    def already_sent(self, key: tuple, sha: str | None) -> int | None:
        """Turn at which `key` was sent with the same content hash, else None."""
        hit = self._sent.get(key)
        if hit is not None and hit[1] == sha:
            return hit[0]
        return None

    def remember(self, key: tuple, sha: str | None, turn: int | None = None) -> None:
        self._sent[key] = (turn or self.next_turn, sha or "")

    def remember_region(self, path: str, start: int, end: int, sha: str, turn: int | None = None) -> None:
        self._regions.setdefault(path, []).append((start, end, turn or self.next_turn, sha))

    def covered(self, path: str, start: int, end: int, sha: str) -> int | None:
        """Turn of an earlier read of `path` (same content) that contained lines start-end."""
        for s, e, turn, h in self._regions.get(path, ()):
            if h == sha and s <= start and end <= e:
                return turn
        return None

    def last_version(self, path: str) -> tuple[int, str] | None:
        return self.versions.get(path)

    # ------------------------------------------------------------ budget
    @property
    def total_tokens(self) -> int:
        return self.records[-1].cumulative if self.records else 0

    @property
    def remaining(self) -> int:
        return self.context_window - self.total_tokens

    @property
    def used_share(self) -> float:
        return self.total_tokens / self.context_window if self.context_window else 0.0

    @property
    def over_threshold(self) -> bool:
        """Past `compress_at` of the window: time to compress older reads."""
        return self.used_share >= self.rules.compress_at

    def cost(self, model: str | None = None, pricing=None) -> float:
        """USD cost of all responses as uncached input (pricing table)."""
        from .pricing import cost
        return cost(self.total_tokens, model or self.rules.model, pricing=pricing)

    def reset(self) -> None:
        self.rules = self.base_rules
        self.compact_since = None
        self.records.clear()
        self._sent.clear()
        self._regions.clear()
        self.versions.clear()

    # ------------------------------------------------------------ display
    def rows(self) -> list[dict]:
        return [{"turn": r.turn, "tool": r.tool,
                 "args": ", ".join(f"{k}={v!r}" for k, v in r.args.items()),
                 "tokens": r.tokens, "cumulative": r.cumulative, "error": r.error,
                 "repeat_of": r.repeat_of} for r in self.records]

    def summary(self) -> str:
        state = (f"compact rules since turn {self.compact_since}" if self.compact_since is not None
                 else "past the compact point" if self.over_threshold else "ok")
        return (f"{len(self.records)} calls, {self.total_tokens:,} tokens of {self.context_window:,} "
                f"({self.used_share:.1%}; {state})")

    @property
    def compact(self) -> bool:
        """Answers now follow the compact rules."""
        return self.compact_since is not None

    def _repr_html_(self) -> str:
        head = "<tr><th>turn</th><th>tool</th><th>args</th><th>tokens</th><th>cumulative</th><th></th></tr>"
        body = "".join(
            f"<tr><td>{r['turn']}</td><td>{r['tool']}</td><td><code>{html.escape(r['args'])}</code></td>"
            f"<td>{r['tokens']:,}</td><td>{r['cumulative']:,}</td>"
            f"<td>{'error' if r['error'] else ('repeat of ' + str(r['repeat_of']) if r['repeat_of'] else '')}</td></tr>"
            for r in self.rows())
        return f"<div>{html.escape(self.summary())}</div><table>{head}{body}</table>"

    def __repr__(self) -> str:
        return f"<Session {self.summary()}>"


def _show(v) -> str:
    if v is None:
        return "none"
    if isinstance(v, bool):
        return "on" if v else "off"
    return f"{v:,}" if isinstance(v, int) else str(v)
