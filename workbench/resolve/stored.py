"""The resolver's model stored next to the database, for the next run of a new process
(the `workbench index` command after each edit): loading it and refreshing it for the
files changed since costs less than building it from the tables (`Model.__init__`: every
symbol, import and written base; ~0.3 s of the ~1 s of a one-file re-index of the standard
library through the command).

Two files next to `DB`:

* `DB.model`: a model as a run left it (what `kept` would keep, without its bindings,
  caches and Arrow copies), written by a run that built its model from the tables (a full
  run, or an incremental one that found nothing to load) under the `resolve_token` that
  run wrote into `meta`, with the resolver's code version and a CRC of its bytes;
  resolution only asks for it (`defer`), `index` writes it once the run has committed and
  closed its connection (`flush`), streaming the pickle into the file, so it adds nothing
  to the run's peak memory (written during the run, the pickled bytes and the pickler's
  memo added ~55 MiB to it); a failed run writes nothing (`discard`);
* `DB.model.log`: one line per incremental run since (the token it found, the token it
  wrote, the files it changed), appended by the run.

`DB.model` holds a header line (token, resolver version, sizes and CRCs), the argument
rows' names (below) pickled on their own, then the rest of the model: `open_stored` reads
the header, the log and the names, `Stored.model` the rest, so that a run can start the
scan its prefetch needs with the names while the model is unpickled
(`readahead.Preload`); `load` does both.

A run finds a stored model usable only when the database's token leads back, line by
line, to the model's token: every writer since was a resolving run that logged itself, so
refreshing the stored model for every file those runs and this one changed
(`Model.refresh`, as a model kept in the process is refreshed) gives the model a fresh
load would. Any other writer (an index without resolution, another version of the code,
a run that failed after writing its line) leaves a token nothing leads to; a missing,
truncated or corrupt file, or one from other code, is ignored: the model is built from
the tables as before, and stored anew. After `REBASE_FILES` files changed since the stored
model, a run stores its refreshed model instead of logging a line.

The stored model holds the texts `quiet.quiet` searches for a new name (the blob of the
symbols' texts, `Model.symbol_texts_blob`, and the rows' texts, `quiet.RowTexts`), so a run
that loads it neither makes the symbols' texts again nor scans the tables for the name;
the texts lack only what the logged runs changed, which the loading run adds (`passes`).
It also holds the argument rows' names by callee key (`Model._arg_names`, made when the
run that stores it let its bindings go with every row loaded: a full run), with which the
loading run's prefetch reads the rows its evaluation starts from in one scan of the
bindings table (`lazy._prefetch_in_one_scan`) instead of a regular expression over every
argument row; a model stored without them (None) asks the table as before.

Cost (standard library, 2,372 files, 91k symbols): ~36 MiB on disk next to a ~41 MiB
database (~16 MiB of it the texts, ~1 MiB the names); writing it takes ~0.5 s of CPU with
the texts (a full index: ~45 s), loading it ~0.2 s (~0.3 s in a new process, whose memory
is not mapped yet) where building the model takes ~0.4-0.5 s (all measured on a loaded
machine). Unpickling is trusted as the database itself is: both live in the user's cache
folder.
"""
from __future__ import annotations

import json
import mmap
import os
import pickle
import threading
import zlib

from . import changedrows

_MAGIC = b"workbench-model 2\n"

#: a run that refreshed a stored model for more files than this stores its model anew
#: (refreshing costs about a file's rows each; storing ~0.2 s on the standard library)
REBASE_FILES = 64

#: keys of the model's `ext` holding one run's rows, which the next run's refresh makes again
#: (`deps.arg_rows`; `changedrows.KEY`, which `deps.affected` takes from the refresh)
_ONE_RUN = frozenset(("deps.arg_rows", changedrows.KEY))

# the model's attributes not stored: the connection, evaluation's caches, the Arrow copies
# and texts a kept model may hold, and what is cheaper to make again than to load
# (the texts `quiet.quiet` searches are kept as their blobs: `_texts_blob` and `_texts_since`,
# and `row_texts` as one UTF-8 text, `quiet.RowTexts.joined`)
_LEFT_OUT = ("con", "row_texts", "deps_rows", "_texts", "fallback_cache", "_rank_owner", "bit_of", "_by_qual",
             "names_stored")


def path_for(db) -> str | None:
    """Where the model of the database file `db` is stored (None: an in-memory database)."""
    if db is None:
        return None
    db = os.fspath(db)
    if db == ":memory:" or db.startswith(":memory:"):
        return None
    return os.path.abspath(db) + ".model"


def _log(path: str) -> str:
    return path + ".log"


def _binding_fields() -> frozenset:
    from .model import Model
    blank = Model.__new__(Model)
    blank._init_bindings(False)
    return frozenset(vars(blank))


class _Sink:
    """A file the pickle streams into, counting its bytes and their CRC on the way (no copy
    of the whole pickle in memory)."""

    def __init__(self, fh):
        self.fh, self.size, self.crc = fh, 0, 0

    def write(self, b) -> int:
        self.size += len(b)
        self.crc = zlib.crc32(b, self.crc)
        return self.fh.write(b)


_HEAD_BYTES = 200       # the header line's room, filled in once the body is written


def save(path: str, token: str, model, version: str) -> bool:
    """Store `model` (the model of the database whose `meta` now holds `token`) at `path`,
    replacing what was there, and start an empty log. The pickle streams into the file
    (with the size and CRC of its bytes in a header written last). False when it could
    not be written (nothing stored then: the next run builds its model from the tables)."""
    skip = set(_LEFT_OUT) | _binding_fields()
    state = {k: v for k, v in vars(model).items() if k not in skip}
    ext = state.get("ext")
    if isinstance(ext, dict) and not _ONE_RUN.isdisjoint(ext):   # one run's rows, made again by a refresh
        state["ext"] = {k: v for k, v in ext.items() if k not in _ONE_RUN}
    # the texts the next runs' `quiet.quiet` searches, so that they need not be made from the
    # model (the symbols' texts: ~0.1 s on the standard library) nor the tables scanned
    state["_texts_blob"], state["_texts_since"] = model.symbol_texts_blob()
    rt = getattr(model, "row_texts", None)
    state["row_texts"] = rt.joined() if rt is not None else None
    # the argument rows' names by callee key (`Model._arg_names`, a bindings field kept when
    # the bindings go): a run that loads them reads the files' and callees' rows its
    # evaluation starts from in one scan, without a regular expression over every argument
    # row (`lazy._prefetch_in_one_scan`: ~0.1 s less on the standard library)
    # (pickled before the rest, to be read first: `Stored.arg_names`)
    names = getattr(model, "_arg_names", None)
    tmp = f"{path}.{os.getpid()}.tmp"
    try:
        with open(tmp, "wb") as fh:
            fh.write(_MAGIC + b" " * (_HEAD_BYTES - 1) + b"\n")
            first = _Sink(fh)
            pickle.dump(names, first, protocol=pickle.HIGHEST_PROTOCOL)
            sink = _Sink(fh)
            pickle.dump(state, sink, protocol=pickle.HIGHEST_PROTOCOL)
            head = json.dumps({"token": token, "version": version, "names_size": first.size,
                               "names_crc": first.crc, "size": sink.size, "crc": sink.crc}).encode()
            if len(head) >= _HEAD_BYTES:
                raise ValueError("header too long")
            fh.seek(len(_MAGIC))
            fh.write(head)
        del state
        os.replace(tmp, path)
        with open(_log(path), "w", encoding="utf-8"):
            pass
        return True
    except Exception:       # a full disk, an unpicklable object: no stored model
        for p in (tmp, path):
            try:
                os.remove(p)
            except OSError:
                pass
        return False


_pending: dict[str, tuple] = {}     # path -> what a run asked to store or log once it is over
_lock = threading.Lock()


def defer(path: str, action: str, *args) -> None:
    """Ask for `save(path, *args)` (`action` "save") or `record(path, *args)` ("record") once
    the run is over (`flush`): after its commit, with its connection closed, so the pickle
    is written below the run's peak memory and only for a token the database holds."""
    with _lock:
        _pending[path] = (action, args)


def flush(path: str | None) -> None:
    """Do what the run that just ended asked for `path` (nothing when it asked nothing)."""
    if path is None:
        return
    with _lock:
        got = _pending.pop(path, None)
    if got is not None:
        action, args = got
        (save if action == "save" else record)(path, *args)


def discard(path: str | None) -> None:
    """Forget what a run that failed asked for `path`."""
    with _lock:
        _pending.pop(path, None)


def record(path: str, found: str | None, wrote: str, changed) -> None:
    """Log an incremental run that found the token `found`, wrote `wrote` and changed the
    files `changed` (nothing when there is no stored model)."""
    if found is None or not os.path.exists(path):
        return
    line = json.dumps({"found": found, "wrote": wrote, "changed": sorted(set(changed))}) + "\n"
    try:
        with open(_log(path), "a", encoding="utf-8") as fh:
            fh.write(line)
    except OSError:
        pass


def _since(path: str, base: str, token: str) -> set[str] | None:
    """The files changed by the runs that lead from the stored model's token `base` to the
    database's `token` (None: the log does not lead there)."""
    if token == base:
        return set()
    wrote_by: dict[str, tuple[str, list]] = {}
    try:
        with open(_log(path), encoding="utf-8") as fh:
            for line in fh:
                try:
                    e = json.loads(line)
                    wrote_by[e["wrote"]] = (e["found"], e["changed"])
                except (ValueError, KeyError, TypeError):
                    continue        # a torn line: a run that leads nowhere
    except OSError:
        return None
    since: set[str] = set()
    cur = token
    for _ in range(len(wrote_by)):
        step = wrote_by.get(cur)
        if step is None:
            return None
        cur = step[0]
        since.update(step[1])
        if cur == base:
            return since
    return None


class Stored:
    """A stored model found usable (`open_stored`), before its bulk is unpickled: the files
    changed since (`since`) and the argument rows' names (`arg_names`, None when it was
    stored without them), read first, so that a run can start its prefetch's scan of the
    bindings table meanwhile (`readahead.Preload`); `model()` unpickles the rest."""

    def __init__(self, path: str, data, at: int, head: dict, since: set[str], arg_names):
        self._path, self._data, self._at, self._head = path, data, at, head
        self.since, self.arg_names = since, arg_names

    def model(self):
        """(the model, `since`); None for a truncated or corrupt body (also when asked again)."""
        data, self._data = self._data, None
        if data is None:
            return None
        try:
            with data, memoryview(data)[self._at:] as body:
                if len(body) != self._head["size"] or zlib.crc32(body) != self._head["crc"]:
                    return None
                state = pickle.loads(body)
            if not isinstance(state, dict):
                return None
        except Exception:       # unreadable, truncated, corrupt: built from the tables instead
            return None
        from .quiet import RowTexts
        from .model import Model
        try:
            row_texts = state.pop("row_texts", None)
            state["_arg_names"] = self.arg_names
            model = Model.from_state(state)
            if row_texts is not None:
                # the files of the logged runs hold rows these texts lack: `RowTexts.add_files`
                # adds theirs once the model is refreshed (`passes`)
                model.row_texts = RowTexts(row_texts)
        except Exception:
            return None
        return model, self.since

    def close(self) -> None:
        """Let the file go without reading the rest."""
        data, self._data = self._data, None
        if data is not None:
            data.close()


def open_stored(path: str | None, token: str | None, version: str) -> Stored | None:
    """The stored model as `load` finds it, its bulk not read yet (`Stored.model`); None
    when `load` would give None for its header, log or argument names."""
    if path is None or token is None:
        return None
    data = None
    try:
        # mapped rather than read: the pickle is read where the page cache holds it, not
        # copied first (~0.01-0.03 s of CPU on the standard library's ~36 MiB); a `save`
        # meanwhile replaces the file, and this mapping keeps the old one
        with open(path, "rb") as fh:
            data = mmap.mmap(fh.fileno(), 0, access=mmap.ACCESS_READ)
        if data[:len(_MAGIC)] != _MAGIC:
            data.close()
            return None
        end = data.find(b"\n", len(_MAGIC))
        head = json.loads(data[len(_MAGIC):end])
        if head.get("version") != version:
            data.close()
            return None
        since = _since(path, head["token"], token)
        if since is None:
            data.close()
            return None
        at = end + 1 + head["names_size"]
        with memoryview(data)[end + 1:at] as part:
            if len(part) != head["names_size"] or zlib.crc32(part) != head["names_crc"]:
                data.close()
                return None
            names = pickle.loads(part)
        if names is not None and not isinstance(names, dict):
            data.close()
            return None
        return Stored(path, data, at, head, since, names)
    except Exception:       # unreadable, empty, truncated, corrupt: built from the tables instead
        if data is not None:
            data.close()
        return None


def load(path: str | None, token: str | None, version: str):
    """The stored model and the files changed since it was stored, when the database's
    `token` leads back to it and it was stored by the resolver of `version`; else None
    (also for a missing, truncated or corrupt file)."""
    got = open_stored(path, token, version)
    return got.model() if got is not None else None


__all__ = ["path_for", "save", "record", "defer", "flush", "discard", "load", "open_stored", "Stored",
           "REBASE_FILES"]
