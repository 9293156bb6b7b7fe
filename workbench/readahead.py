"""Work an incremental index run starts in the background before it resolves: loading the
model another process stored (`Preload`, while a parser process extracts the changed
files) and the kept model's first prefetch (`Prefetch`, in a thread while this one
extracts and stores them). The indexer (`indexer._index_into`) decides with `preloader`
and `prefetcher`; resolution (`resolve.passes.resolve_edges`) takes what they got.

`work` is the indexer's list of (scan entry, known sha) pairs; `changed(item)` says
whether an item's content may differ from its row; `few` is the most changed files the
indexer still parses in its own process.
"""
from __future__ import annotations

import os
from typing import Callable

from . import store


class Preload:
    """Loads the resolver's stored model when called (`resolve.stored.load`); `result`:
    (the database's token it was loaded for, what `load` gave), None until called."""

    def __init__(self, stored_at: str, token: str):
        self.stored_at, self.token, self.result = stored_at, token, None

    def __call__(self) -> None:
        from .resolve import RESOLVER_VERSION, stored
        self.result = (self.token, stored.load(self.stored_at, self.token, RESOLVER_VERSION))


def preloader(con, stored_at: str | None, work: list, changed: Callable[[tuple], bool],
              few: int) -> Preload | None:
    """A `Preload` when an incremental run of this database will load the model another
    process stored: one is stored for it, none is kept in this process, and a file's
    content changed (a run whose files were only touched resolves nothing). Loading it
    (~0.2 s on the standard library) then overlaps extraction. A run that turns out to
    resolve everything loaded it for nothing."""
    if stored_at is None or not os.path.exists(stored_at):
        return None
    if len(work) <= few and not any(map(changed, work)):
        return None
    from .resolve import kept
    metas = store.get_metas(con, "resolver_version", "resolve_token")
    token = metas.get("resolve_token")
    from .resolve import RESOLVER_VERSION
    if token is None or metas.get("resolver_version") != RESOLVER_VERSION or kept.holds(token):
        return None
    return Preload(stored_at, token)


class Prefetch:
    """The kept model's prefetch (`Model.prefetch_before`: the bindings the changed files'
    last resolution read) in a thread, through a cursor of its own on the run's database,
    which sees the database as the model was built for it (the run's writes are not
    committed before resolution waits for it, `wait`). `ok`: it ran to its end."""

    def __init__(self, con, model, paths: list[str]):
        import threading
        self.model, self.ok = model, False
        self._cur = con.cursor()
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


def prefetcher(con, work: list, removed: list, changed: Callable[[tuple], bool], few: int,
               private: bool) -> Prefetch | None:
    """A started `Prefetch` when this is the first incremental run after a full one in
    this process: the process keeps the model of the database's state, which holds no
    bindings yet (`Model.first_prefetch`), and a few files' content changed, none added or
    removed (an incremental run, resolved in this process). Its resolution would prefetch
    what those files read last time (one scan of the bindings table and the rows made
    Python objects: ~0.1 s of CPU on the standard library, which the next runs, whose
    model holds those rows, do not spend); the thread does it while this one extracts and
    stores the files. Not for a `private` run, which commits its rows before resolution."""
    if private or removed or len(work) > few or any(sha is None for _, sha in work):
        return None
    from .resolve import RESOLVER_VERSION, kept
    metas = store.get_metas(con, "resolver_version", "resolve_token")
    if metas.get("resolver_version") != RESOLVER_VERSION:
        return None
    model = kept.peek(metas.get("resolve_token"))
    if model is None or not model.first_prefetch():
        return None
    paths = [w[0].path for w in work if changed(w)]
    return Prefetch(con, model, paths) if paths else None
