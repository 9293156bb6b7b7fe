"""Work an incremental index run starts in the background before it resolves: loading the
model another process stored (`Preload`, while a parser process extracts the changed
files) and the kept model's first prefetch (`Prefetch`, in a thread while this one
extracts and stores them). The indexer (`indexer._index_into`) starts what a run needs
with `start`, which decides once for both (the database's two meta values read once, each
file's content checked at most once); resolution (`resolve.passes.resolve_edges`) takes
what they got.

`work` is the indexer's list of (scan entry, known sha) pairs; `changed(item)` says
whether an item's content may differ from its row (it hashes the file again); `few` is the
most changed files the indexer still parses in its own process.
"""
from __future__ import annotations

import os
from typing import Callable

from . import attach, store


class Preload:
    """Loads the resolver's stored model when called (`resolve.stored.load`); `result`:
    (the database's token it was loaded for, what `load` gave), None until called."""

    def __init__(self, stored_at: str, token: str, version: str):
        self.stored_at, self.token, self.version, self.result = stored_at, token, version, None

    def __call__(self) -> None:
        from .resolve import stored
        self.result = (self.token, stored.load(self.stored_at, self.token, self.version))


class Prefetch:
    """The kept model's prefetch (`Model.prefetch_before`: the bindings the changed files'
    last resolution read) in a thread, through a cursor of its own on the run's database,
    which sees the database as the model was built for it (the run's writes are not
    committed before resolution waits for it, `wait`). `ok`: it ran to its end."""

    def __init__(self, con, model, paths: list[str]):
        import threading
        self.model, self.ok = model, False
        self._cur = attach.cursor(con)     # (an attached run's database: `attach`)
        self._thread = threading.Thread(target=self._run, args=(paths,), name="workbench-prefetch",
                                        daemon=True)
        self._thread.start()

    def _run(self, paths: list[str]) -> None:
        try:
            from .resolve import deps
            self.model.prefetch_before(self._cur, *deps.previous_reads(self._cur, paths, self.model))
            self.ok = True
        except Exception:       # resolution builds its model afresh (`resolve_edges`)
            pass
        finally:
            try:
                self._cur.close()
            except Exception:
                pass

    def wait(self) -> bool:
        """Whether it ran to its end, once it has."""
        self._thread.join()
        return self.ok


class _Facts:
    """What both decisions read, each at most once: the database's resolver version, token
    and settings, and which items of the work changed (every item's content checked once).
    `implicit`: the run's setting (`resolve.setting`; None: the database's)."""

    def __init__(self, con, work: list, changed: Callable[[tuple], bool], implicit: bool | None = None):
        self._con, self._work, self._changed, self._implicit = con, work, changed, implicit
        self._metas: dict | None = None
        self._flags: list[bool] | None = None

    def metas(self) -> dict:
        if self._metas is None:
            from .resolve.setting import IMPLICIT_META
            self._metas = store.get_metas(self._con, "resolver_version", "resolve_token", IMPLICIT_META)
        return self._metas

    def version(self) -> str:
        """The resolver version the run resolves with: the database's when it equals it."""
        from .resolve import RESOLVER_VERSION, setting
        return setting.version_mark(RESOLVER_VERSION, setting.implicit_of(self.metas(), self._implicit))

    def flags(self) -> list[bool]:
        if self._flags is None:
            self._flags = [bool(self._changed(w)) for w in self._work]
        return self._flags


def start(con, stored_at: str | None, work: list, removed: list, changed: Callable[[tuple], bool],
          few: int, private: bool, implicit: bool | None = None) -> tuple[Preload | None, Prefetch | None]:
    """The background work of an incremental run that resolves: a `Preload` (`preloader`)
    or else a started `Prefetch` (`prefetcher`), or neither. `implicit`: the run's
    setting (`resolve.setting`; None keeps the database's)."""
    facts = _Facts(con, work, changed, implicit)
    preload = _preloader(facts, stored_at, work, few)
    if preload is not None:
        return preload, None
    return None, _prefetcher(facts, con, work, removed, few, private)


def preloader(con, stored_at: str | None, work: list, changed: Callable[[tuple], bool],
              few: int) -> Preload | None:
    """A `Preload` when an incremental run of this database will load the model another
    process stored: one is stored for it, none is kept in this process, and a file's
    content changed (a run whose files were only touched resolves nothing). Loading it
    (~0.2 s on the standard library) then overlaps extraction. A run that turns out to
    resolve everything loaded it for nothing."""
    return _preloader(_Facts(con, work, changed), stored_at, work, few)


def _preloader(facts: _Facts, stored_at: str | None, work: list, few: int) -> Preload | None:
    if stored_at is None or not os.path.exists(stored_at):
        return None
    if len(work) <= few and not any(facts.flags()):
        return None
    from .resolve import kept
    metas = facts.metas()
    token = metas.get("resolve_token")
    version = facts.version()
    if token is None or metas.get("resolver_version") != version or kept.holds(token):
        return None
    return Preload(stored_at, token, version)


def prefetcher(con, work: list, removed: list, changed: Callable[[tuple], bool], few: int,
               private: bool) -> Prefetch | None:
    """A started `Prefetch` when this is the first incremental run after a full one in
    this process: the process keeps the model of the database's state, which holds no
    bindings yet but the rows of the files most files read (`Model.first_prefetch`), and a
    few files' content changed, none added or removed (an incremental run, resolved in this
    process). Its resolution would prefetch what those files read last time (one scan of
    the bindings table and the other files' rows made Python objects: ~0.06-0.1 s of CPU
    on the standard library, which the next runs, whose model holds those rows, do not
    spend); the thread does it while this one extracts and stores the files. Not for a
    `private` run, which commits its rows before resolution."""
    return _prefetcher(_Facts(con, work, changed), con, work, removed, few, private)


def _prefetcher(facts: _Facts, con, work: list, removed: list, few: int, private: bool) -> Prefetch | None:
    if private or removed or len(work) > few or any(sha is None for _, sha in work):
        return None
    from .resolve import kept
    metas = facts.metas()
    if metas.get("resolver_version") != facts.version():
        return None
    model = kept.peek(metas.get("resolve_token"))
    if model is None or not model.first_prefetch():
        return None
    paths = [w[0].path for w, c in zip(work, facts.flags()) if c]
    return Prefetch(con, model, paths) if paths else None
