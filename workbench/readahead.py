"""Work an incremental index run starts in the background before it resolves: loading the
model another process stored (`Preload`, while a parser process extracts the changed
files) and a model's first prefetch (`Prefetch`, in a thread while this one extracts and
stores them): the kept model's, or the loaded one's once `Preload` has it. The indexer
(`indexer._index_into`) starts what a run needs with `start`, which decides once for both
(the database's two meta values read once, each file's content checked at most once);
resolution (`resolve.passes.resolve_edges`) takes what they got.

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
    (the database's token it was loaded for, what `load` gave), None until called.
    `prefetch_for`: (the run's connection, the changed files) when the loaded model's
    first prefetch is to run in a thread (`start` says when: as for a kept model,
    `prefetcher`); `prefetch`: that `Prefetch` once started, else None (resolution waits
    for it before it refreshes the model)."""

    #: seconds the loading thread leaves the prefetch's thread to send its query before it
    #: unpickles the model (holding the interpreter lock throughout; DuckDB runs the query
    #: without it)
    HANDOFF = 0.001

    def __init__(self, stored_at: str, token: str, version: str, prefetch_for: tuple | None = None):
        self.stored_at, self.token, self.version, self.result = stored_at, token, version, None
        self.prefetch_for, self.prefetch = prefetch_for, None

    def __call__(self) -> None:
        import time

        from .resolve import stored
        found = stored.open_stored(self.stored_at, self.token, self.version)
        if found is None:
            self.result = (self.token, None)
            return
        if self.prefetch_for is not None and found.arg_names is not None:
            # what the changed files' last resolution read (the scan of the bindings table:
            # the largest step of the loaded model's resolution) is scanned for while the
            # model is unpickled, and held in it once it is loaded, in a thread, while this
            # one waits for the parser process and stores the rows (`Prefetch`)
            con, paths = self.prefetch_for
            self.prefetch = Prefetch(con, None, paths, names=found.arg_names)
            if self.prefetch.going.wait(1.0):
                time.sleep(self.HANDOFF)
        got = None
        try:
            got = found.model()
        finally:
            self.result = (self.token, got)
            if self.prefetch is not None:
                self.prefetch.loaded(got[0] if got is not None and got[0].first_prefetch() else None)

    def join(self) -> None:
        """Its prefetch's thread over (nothing when none started)."""
        if self.prefetch is not None:
            self.prefetch.join()


class Prefetch:
    """A model's first prefetch (`Model.prefetch_before`: the bindings the changed files'
    last resolution read) in a thread, through a cursor of its own on the run's database,
    which sees the database as the run found it (the run's writes are not committed
    before resolution waits for it, `wait`): the kept model's (`model`), or the stored
    one's (`names`: its argument rows' names; `model` None): its scan starts before the
    model is loaded (`going` set as it is sent), and the rows go into the model once
    `loaded` hands it over (none when it hands None). The rows the scan reads are those the
    last run left: those of the files changed since the stored model was stored hang on
    symbols it does not know yet and are dropped; its refresh reads those files' rows
    again, as it does the run's changed files'. `ok`: it ran to its end (`wait`). Then it
    reads the edges into the changed files' symbols for `deps.rebind` (`edges_into`), which
    reads no model: the refresh need not wait for it."""

    def __init__(self, con, model, paths: list[str], names: dict | None = None):
        import threading
        self.model, self.ok, self._into = model, False, None
        self.going = threading.Event()
        self._done = threading.Event()
        self._loaded = threading.Event()
        if names is None:
            self._loaded.set()
        self._cur = attach.cursor(con)     # (an attached run's database: `attach`)
        self._thread = threading.Thread(target=self._run, args=(paths, names), name="workbench-prefetch",
                                        daemon=True)
        self._thread.start()

    def loaded(self, model) -> None:
        """Hand over the model the rows go into (None: none, the scan's rows are let go)."""
        self.model = model
        self._loaded.set()

    def _run(self, paths: list[str], names: dict | None) -> None:
        from .resolve import deps, quiet
        try:
            self._prefetch(paths, names)
            self.ok = True
        except Exception:       # resolution builds its model afresh (`resolve_edges`)
            pass
        finally:
            self.going.set()
            self._done.set()
        try:
            if len(paths) <= quiet.FACTS_MAX:  # (`rebind` knows the gone symbols: `quiet.Before`)
                self._into = deps.edges_into(self._cur, paths)
        except Exception:       # `rebind` queries the run's connection
            pass
        finally:
            try:
                self._cur.close()
            except Exception:
                pass

    def _prefetch(self, paths: list[str], names: dict | None) -> None:
        from .resolve import deps
        files, keys = deps.previous_reads(self._cur, paths, self.model)
        if names is None:
            self.model.prefetch_before(self._cur, files, keys)
            return
        from .resolve.lazy import one_scan
        # the paths and keys `prefetch_before` reads for a model holding no rows yet
        p, k = sorted(set(files)), sorted(x for x in set(keys) if x)
        scanned = one_scan(self._cur, names, p, k, going=self.going.set)
        self._loaded.wait()
        if self.model is not None:
            self.model.prefetch_before(self._cur, files, keys, scanned=(p, k, scanned))

    def wait(self) -> bool:
        """Whether the prefetch ran to its end, once it has (the model is free to change then)."""
        self._done.wait()
        return self.ok

    def edges_into(self):
        """The `deps.EdgesInto` of the changed files, once read (None when that failed)."""
        self._thread.join()
        return self._into

    def join(self) -> None:
        """The thread over (its cursor closed)."""
        self._thread.join()


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
        paths = _prefetch_paths(facts, work, removed, few, private)
        preload.prefetch_for = (con, paths) if paths else None
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
    paths = _prefetch_paths(facts, work, removed, few, private)
    if not paths:
        return None
    from .resolve import kept
    model = kept.peek(facts.metas().get("resolve_token"))
    if model is None or not model.first_prefetch():
        return None
    return Prefetch(con, model, paths)


def _prefetch_paths(facts: _Facts, work: list, removed: list, few: int, private: bool) -> list[str]:
    """The files a model's first prefetch reads for: the changed ones of an incremental run
    of a few files' edits (none added or removed) of a database this resolver version
    resolved; none for a `private` run (it commits its rows before resolution)."""
    if private or removed or len(work) > few or any(sha is None for _, sha in work):
        return []
    if facts.metas().get("resolver_version") != facts.version():
        return []
    return [w[0].path for w, c in zip(work, facts.flags()) if c]
