"""Models kept in the process between runs, so an incremental run on the same database
refreshes the last model instead of loading every symbol again (an MCP server or a
notebook re-indexing after each edit).

A model is kept under a token the run also writes into the database's `meta`
(`resolve_token`). The next run takes the model back only if the database still carries
that token: any other writer (another process, a run without resolution, a run that
failed and rolled back) leaves a different token or none, and the model is built afresh.
At most `KEEP` models are kept (the most recently used); `forget()` lets them all go.
"""
from __future__ import annotations

import os
import threading
import uuid
from collections import OrderedDict

#: how many models a process keeps (0: none). The environment variable
#: `WORKBENCH_KEEP_MODELS` sets it at import.
KEEP = int(os.environ.get("WORKBENCH_KEEP_MODELS", "2") or 0)

_models: OrderedDict = OrderedDict()
_lock = threading.Lock()


def new_token() -> str:
    return uuid.uuid4().hex


def take(token: str | None):
    """The model kept under `token` (no longer kept: the caller changes it), or None."""
    if token is None:
        return None
    with _lock:
        return _models.pop(token, None)


def peek(token: str | None):
    """The model kept under `token`, left kept (None if none): for work on it before the
    run that takes it (`readahead.prefetcher`)."""
    if token is None:
        return None
    with _lock:
        return _models.get(token)


def holds(token: str | None) -> bool:
    """Whether a model is kept under `token`."""
    return token is not None and token in _models


def put(token: str, model) -> None:
    """Keep `model` under `token`, dropping the least recently kept beyond `KEEP`."""
    if KEEP <= 0:
        return
    with _lock:
        _models[token] = model
        _models.move_to_end(token)
        while len(_models) > KEEP:
            _models.popitem(last=False)


def settle() -> None:
    """Let the model kept last make what its next runs search (`Model.symbol_texts` and
    their blob, `Model.symbol_texts_blob`: ~0.04 s on the standard library, and the names
    resolution looks up by itself,
    `quiet.implicit_names`, read once per process from the resolver's code: ~7 ms) now
    rather than in the first of them, and the bindings rows the full run read for it
    (`passes.HOLD_READ_SHARE`, held back per scope) grouped into its indexes
    (`Model.fill_pending`: on the standard library ~0.1-0.15 s of CPU here for every held
    scope, where the first run's evaluation spent ~0.016-0.026 s on the ~600 scopes it read).
    The indexer calls it after a full run, once the run's connection is closed: the memory
    of the run's last steps is free again then, so none of it adds to the run's peak."""
    with _lock:
        model = next(reversed(_models.values()), None)
    if model is not None:
        model.symbol_texts()
        model.symbol_texts_blob()
        try:
            model.fill_pending()
        except Exception:       # never worse than holding none: the rows taken part-way go
            model.release_bindings()
        from .quiet import implicit_names
        implicit_names()


def forget() -> None:
    """Let every kept model go (their memory is freed with them)."""
    with _lock:
        _models.clear()


def kept() -> int:
    """How many models are kept now."""
    return len(_models)


__all__ = ["KEEP", "new_token", "take", "peek", "holds", "put", "settle", "forget", "kept"]
