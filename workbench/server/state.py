"""What `workbench serve` serves, without the protocol: one index, one rule profile, a
session per client, the call log and the optional refresh. The MCP glue (`server/mcp.py`)
only turns requests into `Served.call` and its `Response` into a tool result, so what a
client receives is exactly what `workbench tool DB NAME ... --rules FILE` prints.
"""
from __future__ import annotations

import json
import os
import sys
import threading
import time
import uuid
from collections import OrderedDict
from datetime import datetime, timezone

from .. import rowcache, store
from ..calllog import CallLog
from ..views import call
from ..views.profile import Profile, default_compact
from ..views.rules import Rules
from ..views.session import Session
from ..views.tokens import get_tokenizer

MAX_SESSIONS = 256          # client sessions kept in memory (least recently used dropped)


def _say(msg: str) -> None:
    print(f"workbench serve: {msg}", file=sys.stderr, flush=True)


class Served:
    """`db` is an index file (opened read-only here) or an open `Workbench` (used as it is).
    `transport` names calls that arrive without an HTTP request (stdio, or in-process)."""

    def __init__(self, db, profile: Profile | None = None, log: str | None = None,
                 refresh: bool = False, say=_say, transport: str = "stdio"):
        from ..api import open as open_db
        self._owns_wb = isinstance(db, (str, os.PathLike))
        self.wb = open_db(str(db), read_only=True) if self._owns_wb else db
        self._lock = threading.RLock()          # one call at a time on the index connection
        self._warming = None
        self.db = str(db) if self._owns_wb else self.wb.db
        self.transport = transport
        self.profile = profile or Profile(Rules(), default_compact(Rules()))
        self.log = CallLog(log) if log else None
        self.refresh_enabled = refresh
        self.say = say
        self.sessions: OrderedDict[str, Session] = OrderedDict()
        self._tried: dict[str, tuple] = {}      # path -> disk state a refresh could not fix
        self._refreshed = False
        self._closing = False
        get_tokenizer(self.profile.rules.tokenizer).count("warm up")   # load it before the first call
        if self._owns_wb:       # nobody else writes through this connection: lookups from memory
            store.quiet(self.wb._con)       # no DuckDB progress bar on stderr while rows load
            rowcache.enable(self.wb._con, lambda: getattr(self.wb, "generation", 0))
            self._warming = threading.Thread(target=self._warm, name="workbench-warm", daemon=True)
            self._warming.start()

    def _warm(self) -> None:
        """Load the rows the lookups keep in memory (workbench.rowcache) before the first call
        needs them; calls arriving meanwhile wait for it (it holds the call lock)."""
        from ..graph import cache_rows as graph_rows
        from ..views.outline import cache_rows as outline_rows
        t0 = time.perf_counter()
        with self._lock:
            try:
                cache = rowcache.of(self.wb.con)
                for load in (outline_rows, graph_rows):
                    if cache is None or self._closing:
                        return
                    load(cache)
            except Exception as exc:        # the calls load what they need themselves
                self.say(f"could not load the index rows into memory ({type(exc).__name__}: {exc}); "
                         "answering from the database")
                return
        self.say(f"index rows in memory for fast lookups ({time.perf_counter() - t0:.1f}s)")

    # ------------------------------------------------------------ sessions
    def session(self, key: str) -> Session:
        """The session of client `key` (made on first use)."""
        with self._lock:
            s = self.sessions.get(key)
            if s is None:
                s = Session(self.wb, self.profile.rules, name=f"{key.split(':')[0]}-{uuid.uuid4().hex[:12]}",
                            compact=self.profile.compact if self.profile.compact is not None else False)
                self.sessions[key] = s
                while len(self.sessions) > MAX_SESSIONS:
                    self.sessions.popitem(last=False)
            else:
                self.sessions.move_to_end(key)
            return s

    # ------------------------------------------------------------ calls
    def call(self, name: str, args: dict | None, key: str = "default", client: str | None = None,
             transport: str | None = None):
        """Answer one tool call of session `key` (and log it)."""
        t0 = time.perf_counter()
        with self._lock:
            s = self.session(key)
            self._refreshed = False
            before = len(s.records)
            resp = call(self.wb, name, dict(args or {}), session=s,
                        refresh=self._refresh if self.refresh_enabled else None)
            refreshed = self._refreshed
            rec = s.records[-1] if len(s.records) > before else None
        elapsed = (time.perf_counter() - t0) * 1000
        if self.log is not None:
            self.log.append({
                "time": datetime.now(timezone.utc).replace(tzinfo=None), "session": s.name,
                "client": client, "transport": transport, "turn": rec.turn if rec else None,
                "tool": name, "arguments": json.dumps(args or {}, ensure_ascii=False, default=str),
                "chars": resp.chars, "tokens": resp.tokens,
                "cumulative_tokens": rec.cumulative if rec else None, "files": list(resp.files),
                "source_versions": json.dumps(resp.source_versions, sort_keys=True),
                "elapsed_ms": elapsed, "cut": resp.cut, "stale": bool(resp.stale),
                "stale_files": list(resp.stale), "refreshed": refreshed, "error": resp.error,
                "repeat_of": rec.repeat_of if rec else None,
                "compact": s.compact_since is not None and rec is not None and rec.turn >= s.compact_since,
                "rules": self.profile.source or "defaults", "db": os.path.abspath(self.db),
                "answer": resp.text})
        return resp

    # ------------------------------------------------------------ refresh
    def _refresh(self, paths: list[str]):
        """Re-index (incrementally) because `paths` changed on disk or are missing from the
        index. True when it ran; a note for the answer when it could not."""
        state = {p: _disk_state(self.wb.root, p) for p in paths}
        if all(self._tried.get(p) == st for p, st in state.items()):
            return False            # a refresh already saw these files like this: nothing new
        try:
            report = self.wb.reindex(progress=False)
        except Exception as exc:    # busy writer, unreadable root, ...: answer from what we have
            self._tried.update(state)
            return (f"note: could not refresh the index before answering "
                    f"({type(exc).__name__}: {str(exc).splitlines()[0] if str(exc) else ''})")
        self._tried.update(state)
        rowcache.clear(self.wb._con)
        self._refreshed = True
        self.say(f"refreshed {self.db}: {report.added} added, {report.changed} changed, "
                 f"{report.removed} removed")
        return True

    def close(self) -> None:
        self._closing = True
        if self._warming is not None:
            self._warming.join()
        if self.log is not None:
            self.log.close()
            for err in self.log.errors:
                self.say(f"call log {self.log.path}: {err}")
        if self._owns_wb:
            rowcache.disable(self.wb._con)
            self.wb.close()


def _disk_state(root: str, path: str) -> tuple | None:
    try:
        s = os.stat(os.path.join(root, path))
        return (s.st_size, s.st_mtime_ns)
    except OSError:
        return None
