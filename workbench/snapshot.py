"""Writing an index while others read it: in place when nobody reads, else a snapshot.

DuckDB lets one process write a database file and no other process open it meanwhile, and
a process that has the file open - even read-only - stops any writer. An index run
(`write_index`) therefore:

1. takes the writer lock ``<db>.lock``: one run per database at a time; a second run
   waits, saying so, up to `wait` seconds, then gives up with `IndexBusy`;
2. takes a shared lock on the database file (the lock DuckDB's read-only connections
   take) for the whole run, so no process can open it for writing meanwhile; a process
   that already has it open for writing is waited for the same way (its unsaved changes
   would be lost otherwise);
3. when someone reads the database - a `workbench.Workbench` in any process (they hold a
   shared ``flock`` on the file, `hold_reader`) or any other DuckDB connection - copies
   it to a snapshot next to it (``.<name>.snapshot-<pid>.duckdb``), writes the new state
   there and renames the snapshot over the database: atomic, so whoever opens the
   database gets the old file or the new one, never a mix. Connections opened before keep
   reading the old file (its data stays valid until they close); a `Workbench` switches to
   the new file on its next query;
4. when nobody reads it and the run is short (the indexer: at most 32 files changed),
   writes in place (one transaction; the usual edit loop pays no copy), holding an
   exclusive ``flock``: a `Workbench` opening meanwhile waits for the run to finish,
   saying so. Its committed write-ahead log, when small, is left for the next open to
   replay instead of being checkpointed at close (`_close_in_place`). Such a run's
   database is attached to a DuckDB instance the process keeps (`attach`) rather than
   opened in a new one.

A first index always builds a new file and renames it into place, so a first run that
fails or is killed leaves no database; a later run that fails or is killed (``kill -9``)
leaves the previous state: a snapshot is discarded (the next run removes what a killed
run left), an in-place transaction is rolled back by DuckDB's write-ahead log.
"""
from __future__ import annotations

import glob
import os
import re
import struct
import sys
import time
from contextlib import contextmanager

import duckdb

from . import attach

DEFAULT_WAIT = 300.0          # seconds an index run waits for another writer
READER_WAIT = 60.0            # seconds a reader waits for an in-place index run
_POLL = 0.05

try:
    import fcntl
except ImportError:           # no POSIX locks (Windows): one writer and no readers assumed
    fcntl = None


class IndexBusy(RuntimeError):
    """Another process writes (or holds for writing) the database; str(exc) says which."""


def _say_default(msg: str) -> None:
    print(f"workbench: {msg}", file=sys.stderr, flush=True)


def identity(path: str) -> tuple[int, int] | None:
    """(device, inode) of the file at `path` now, or None when there is none: a different
    value than before means an index run swapped in a new file."""
    try:
        st = os.stat(path)
    except OSError:
        return None
    return st.st_dev, st.st_ino


# ---------------------------------------------------------------- locks

def _poll(attempt, wait: float, say, waiting: str, busy: str):
    """Call `attempt()` -> (done, value) until done, for up to `wait` seconds; while not
    done, `value` names the holder. Says `waiting` once, raises IndexBusy(`busy`) at the
    end (in both, ``{who}`` and ``{wait}`` are replaced)."""
    deadline = time.monotonic() + max(0.0, wait)
    told = False
    while True:
        done, value = attempt()
        if done:
            return value
        if time.monotonic() >= deadline:
            raise IndexBusy(_fill(busy, value, wait))
        if not told:
            say(_fill(waiting, value, wait))
            told = True
        time.sleep(_POLL)


def _fill(text: str, who: str, wait: float) -> str:
    return text.replace("{who}", who).replace("{wait}", f"{wait:g}")


def _try_flock(fd: int, op: int) -> bool:
    """Take (or release) an flock without waiting; False when another holder conflicts.
    A file system without flock counts as granted (locking is then DuckDB's alone)."""
    if fcntl is None:
        return True
    try:
        fcntl.flock(fd, op | (fcntl.LOCK_NB if op != fcntl.LOCK_UN else 0))
        return True
    except BlockingIOError:
        return False
    except OSError:
        return True


@contextmanager
def writer_lock(db: str, wait: float = DEFAULT_WAIT, say=_say_default):
    """Hold the writer lock of `db` (an flock on ``<db>.lock``) for the block."""
    if fcntl is None:
        yield
        return
    lock = os.path.abspath(db) + ".lock"
    fd = os.open(lock, os.O_RDWR | os.O_CREAT | getattr(os, "O_CLOEXEC", 0), 0o644)
    try:
        _poll(lambda: (_try_flock(fd, fcntl.LOCK_EX), _lock_owner(fd)), wait, say,
              "another index run ({who}) is writing " + db + "; waiting up to {wait} s for "
              "it to finish",
              "another index run ({who}) is writing " + db + "; gave up after waiting {wait} s"
              " - try again when it has finished, or wait longer (--wait SECONDS)")
        os.ftruncate(fd, 0)
        os.pwrite(fd, f"{os.getpid()}\n".encode(), 0)
        yield
    finally:
        os.close(fd)                            # releases the flock


def _lock_owner(fd: int) -> str:
    try:
        pid = os.pread(fd, 32, 0).decode().strip()
    except (OSError, UnicodeDecodeError):
        pid = ""
    return f"process {pid}" if pid.isdigit() else "another process"


# struct flock on Linux: short type, short whence, off_t start, off_t len, pid_t pid.
_FLOCK = "hhqqi" if sys.platform.startswith("linux") else None


def _conflict(fd: int) -> tuple[str, int] | None:
    """('write' | 'read', pid) of a lock another process holds on the file, or None."""
    if fcntl is None or _FLOCK is None:
        return None
    arg = struct.pack(_FLOCK, fcntl.F_WRLCK, os.SEEK_SET, 0, 0, 0)
    kind, _, _, _, pid = struct.unpack(_FLOCK, fcntl.fcntl(fd, fcntl.F_GETLK, arg))
    if kind == fcntl.F_UNLCK:
        return None
    return ("write" if kind == fcntl.F_WRLCK else "read"), pid


def _share(fd: int) -> bool:
    """Take a shared lock (what a read-only DuckDB connection holds) on the open file."""
    if fcntl is None or _FLOCK is None:
        return True
    try:
        fcntl.fcntl(fd, fcntl.F_SETLK, struct.pack(_FLOCK, fcntl.F_RDLCK, os.SEEK_SET, 0, 0, 0))
        return True
    except OSError:
        return False


def _guard(db: str, wait: float, say) -> tuple[int, bool]:
    """A descriptor of `db` holding a shared lock, and whether another process reads it.
    Waits (up to `wait` seconds) while another process has it open for writing.

    The descriptor stays open until the run ends: POSIX drops every lock a process holds
    on a file when it closes any descriptor of that file."""
    fd = os.open(db, os.O_RDONLY | getattr(os, "O_CLOEXEC", 0))

    def attempt():
        other = _conflict(fd)
        if (other is None or other[0] == "read") and _share(fd):
            return True, other is not None
        return False, f"process {other[1]}" if other else "another process"
    try:
        return fd, _poll(attempt, wait, say,
                         db + " is open for writing by {who}; waiting up to {wait} s for "
                         "it to close (read-only connections do not hold up indexing)",
                         db + " is open for writing by {who}; gave up after waiting {wait} "
                         "s - close that connection (or open the database read-only there) and "
                         "index again")
    except BaseException:
        os.close(fd)
        raise


# ---------------------------------------------------------------- writing

def snapshot_path(db: str) -> str:
    d, name = os.path.split(os.path.abspath(db))
    return os.path.join(d, f".{name}.snapshot-{os.getpid()}.duckdb")


def _stale_snapshots(db: str) -> list[str]:
    d, name = os.path.split(os.path.abspath(db))
    return glob.glob(os.path.join(glob.escape(d), f".{glob.escape(name)}.snapshot-*.duckdb*"))


def _remove(path: str) -> None:
    try:
        os.remove(path)
    except FileNotFoundError:
        pass


def _copy_from(src_fd: int, dst: str) -> None:
    """Copy the open file `src_fd` to `dst` without opening (and so closing) the source again."""
    size = os.fstat(src_fd).st_size
    out = os.open(dst, os.O_WRONLY | os.O_CREAT | os.O_TRUNC | getattr(os, "O_CLOEXEC", 0), 0o644)
    try:
        done = 0
        while done < size:
            try:
                n = os.copy_file_range(src_fd, out, size - done, done, done)
            except (AttributeError, OSError):
                n = os.pwrite(out, os.pread(src_fd, min(1 << 24, size - done), done), done)
            if n <= 0:
                break
            done += n
    finally:
        os.close(out)


def _fsync_dir(path: str) -> None:
    try:
        fd = os.open(os.path.dirname(os.path.abspath(path)) or ".", os.O_RDONLY)
    except OSError:
        return
    try:
        os.fsync(fd)
    except OSError:
        pass
    finally:
        os.close(fd)


#: an in-place run whose write-ahead log is at most this big leaves it for the next open
#: to replay instead of checkpointing it at close (`_close_in_place`)
WAL_KEEP_MAX = 1 << 20


def _connect_in_place(db: str):
    """The connection of a run writing in place: attached to the process's DuckDB
    instance (`attach`: no new instance per run), or, where the file cannot be attached
    (another instance of this process has it open), a connection of its own."""
    from . import store
    try:
        con = attach.connect(db)
    except duckdb.Error:
        return store.connect(db)
    try:
        store.prepare(con)
    except BaseException:
        attach.close(con)
        raise
    return con


def _close_in_place(con, db: str) -> None:
    """Close the connection of a finished in-place run. A run that changed a few files
    committed a small write-ahead log (the standard library, one file: ~0.1 MB); DuckDB's
    checkpoint at close would write it into the database file and sync that file three
    times (tens of milliseconds of disk waits on a busy machine, a tenth of a one-file
    re-index). Its commit is durable already, so the log is left for whoever opens the
    database next to replay (a few milliseconds; DuckDB replays it for read-only
    connections too, in memory). A log above `WAL_KEEP_MAX` - grown over many runs, or one
    long run - is checkpointed as before, so replaying stays cheap."""
    try:
        small = os.path.getsize(db + ".wal") <= WAL_KEEP_MAX
    except OSError:                     # no log: nothing to checkpoint
        small = False
    if attach.attached(con):
        attach.close(con, checkpoint=not small)
        return
    if small:
        try:
            con.execute("PRAGMA disable_checkpoint_on_shutdown").fetchall()
        except duckdb.Error:
            pass
    con.close()


_PRIVATE: dict[int, object] = {}    # id -> connection: writing a file nobody else can open yet


def is_private(con) -> bool:
    """Whether `con` is a `write_index` connection to a new file or a snapshot: no other
    process can open that file before the run ends, and a failed run discards it, so the
    run may commit part of its work early (the indexer does, to free memory) without
    anyone seeing a partial index."""
    return _PRIVATE.get(id(con)) is con


@contextmanager
def write_index(db: str, wait: float = DEFAULT_WAIT, say=_say_default, in_place=True):
    """Yield a writable connection for an index run on `db` (see the module doc): the live
    database when nobody reads it, else a snapshot that replaces it on a clean exit. An
    exception discards a snapshot (in place, the caller's transaction rolls back).

    `in_place` (a bool, or a function called once the writer lock is held) may rule out
    writing in place: a long run writes a snapshot even when nobody reads yet, so readers
    that come meanwhile do not wait for it."""
    from . import store
    db = os.path.realpath(db)                   # replace the file, not a symlink to it
    os.makedirs(os.path.dirname(db), exist_ok=True)
    with writer_lock(db, wait, say):
        for stale in _stale_snapshots(db):      # left by a killed run (we hold the lock)
            _remove(stale)
        fd = None
        tmp = snapshot_path(db)
        swapped = False
        try:
            con = None
            if os.path.exists(db):
                fd, others = _guard(db, wait, say)
                short = in_place() if callable(in_place) else in_place
                if short and not others and _try_flock(fd, fcntl.LOCK_EX if fcntl else 0):
                    try:                            # nobody reads: in place
                        con = _connect_in_place(db)
                    except (duckdb.IOException, duckdb.ConnectionException):
                        if fcntl is not None:       # a reader came first: snapshot
                            _try_flock(fd, fcntl.LOCK_UN)
                if con is not None:
                    try:
                        yield con
                    except BaseException:
                        if attach.attached(con):
                            attach.close(con)
                        else:
                            con.close()
                        raise
                    _close_in_place(con, db)
                    return
                _copy_from(fd, tmp)
                if os.path.exists(db + ".wal"):     # committed work not yet checkpointed
                    with open(db + ".wal", "rb") as src, open(tmp + ".wal", "wb") as dst:
                        dst.write(src.read())
            con = store.connect(tmp)
            _PRIVATE[id(con)] = con
            try:
                yield con
            except BaseException:
                con.close()
                raise
            finally:
                _PRIVATE.pop(id(con), None)
            from .gcpause import release_unused_memory
            release_unused_memory()             # what the run freed, before the checkpoint
            con.close()                         # checkpoint: the snapshot is complete on disk
            _remove(db + ".wal")                # its content is in the snapshot
            os.replace(tmp, db)
            swapped = True
            _fsync_dir(db)
        finally:
            if fd is not None:
                os.close(fd)
            if not swapped:
                _remove(tmp)
            _remove(tmp + ".wal")


# ---------------------------------------------------------------- reading

def hold_reader(db: str, wait: float = READER_WAIT, say=_say_default) -> int:
    """A descriptor of `db` holding a shared ``flock``: tells index runs that the file is
    being read (they then write a snapshot instead of the file). Waits up to `wait`
    seconds while a run writes the file in place. flock, unlike POSIX record locks, is not
    dropped when this process closes another descriptor of the file."""
    def attempt():
        fd = os.open(db, os.O_RDONLY | getattr(os, "O_CLOEXEC", 0))
        if fcntl is None or _try_flock(fd, fcntl.LOCK_SH):
            return True, fd
        os.close(fd)
        return False, "an index run"
    return _poll(attempt, wait, say,
                 db + " is being written in place by {who}; waiting up to {wait} s for it "
                 "to finish",
                 db + " is being written in place by {who}; gave up after waiting {wait} s")


def same_file(fd: int, db: str) -> bool:
    """Whether the open descriptor still is the file at path `db` (no swap since)."""
    st = os.fstat(fd)
    return identity(db) == (st.st_dev, st.st_ino)


_BUSY = re.compile(r"\(PID (\d+)\)")


def is_lock_error(exc: Exception) -> bool:
    return isinstance(exc, duckdb.IOException) and "lock" in str(exc).lower()


def wait_for_lock(attempt, db: str, wait: float = READER_WAIT, say=_say_default,
                  writing: bool = False):
    """Run `attempt()` (an open of `db`), retrying for up to `wait` seconds while another
    process holds the file: a writer (an index run writing in place, a read-write
    connection), or - for a `writing` open, which needs the file to itself - anyone."""
    def once():
        try:
            return True, attempt()
        except duckdb.IOException as exc:
            if not is_lock_error(exc):
                raise
            m = _BUSY.search(str(exc))
            return False, f"process {m.group(1)}" if m else "another process"
    if writing:
        return _poll(once, wait, say,
                     db + " is open in {who}; a read-write connection needs it to itself - "
                     "waiting up to {wait} s",
                     db + " is open in {who}; a read-write connection needs it to itself - "
                     "gave up after waiting {wait} s (open it read-only, or close the other "
                     "connection)")
    return _poll(once, wait, say,
                 db + " is being written by {who}; waiting up to {wait} s",
                 db + " is being written by {who} (an index run, or a read-write "
                 "connection); gave up after waiting {wait} s")
