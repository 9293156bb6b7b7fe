"""Replaying a call log (`workbench serve --log FILE`, see workbench/calllog.py): the calls
a real agent made, run again in fresh sessions, so a notebook can ask what the same agent
would have received under other rules, or whether the index changed since.

    >>> log = calllog.load("calls.duckdb")
    >>> replay(wb, log, Rules(docs=False)).tokens.sum(), log.tokens.sum()
"""
from __future__ import annotations

import json

from .rules import Rules
from .session import Session


def replay(wb, log, rules: Rules | None = None, compact=None):
    """A DataFrame with one row per logged call: `session, turn, tool, arguments`, what the
    agent got (`logged_tokens`) and what the same call gets now, in a fresh session per
    logged session under `rules` (`tokens`, `same_text`, `cut`, `stale`, `error`). `log` is
    what `calllog.load` returns (or any rows with those columns)."""
    import pandas as pd
    rows = log.to_dict("records") if hasattr(log, "to_dict") else list(log)
    sessions: dict[str, Session] = {}
    out = []
    for r in rows:
        s = sessions.get(r["session"])
        if s is None:
            s = sessions[r["session"]] = Session(wb, rules, compact=compact)
        args = json.loads(r["arguments"]) if isinstance(r["arguments"], str) else dict(r["arguments"] or {})
        resp = s.call(r["tool"], **args)
        out.append({"session": r["session"], "turn": r["turn"], "tool": r["tool"],
                    "arguments": r["arguments"], "logged_tokens": r["tokens"], "tokens": resp.tokens,
                    "cumulative": s.total_tokens, "same_text": resp.text == r.get("answer"),
                    "cut": resp.cut, "stale": bool(resp.stale), "error": resp.error})
    return pd.DataFrame(out)
