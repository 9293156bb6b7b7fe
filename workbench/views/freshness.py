"""Is what the index says about a file still true on disk?

Every answer that shows indexed rows names the files it used; `stale(con, root, paths)`
says which of them changed since they were indexed, and the registry puts a warning
naming them at the top of the answer. The check is the indexer's own: size and mtime
equal to the index row means unchanged (no read); otherwise the content hash decides
(a file touched but not edited is fresh). Files are only stat-ed and hashed here, never
shown.
"""
from __future__ import annotations

import hashlib
import os
import stat as st

from .. import rowcache, store
from . import pathsafe
from .source import file_info

MAX_NAMED = 5           # stale files named in a warning, then "and N more"


def _sha256(abs_path: str) -> str | None:
    """Hash of a regular file's bytes, without following a link or blocking on a FIFO."""
    flags = os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_NOFOLLOW", 0)
    try:
        fd = os.open(abs_path, flags)
    except OSError:
        return None
    try:
        if not st.S_ISREG(os.fstat(fd).st_mode):
            return None
        h = hashlib.sha256()
        while chunk := os.read(fd, 1 << 20):
            h.update(chunk)
        return h.hexdigest()
    finally:
        os.close(fd)


def stale(con, root: str, paths) -> dict[str, str]:
    """{path: what happened} for the indexed `paths` whose file on disk no longer matches
    the index: 'changed', 'deleted' or 'not a regular file'. Paths the index does not
    hold are left out (an answer cannot have used them)."""
    paths = sorted(set(paths))
    if not paths:
        return {}
    if rowcache.of(con) is not None:            # the files rows a long-lived reader holds
        infos = [file_info(con, p) for p in paths]
        rows = [(i.path, i.size_bytes, i.mtime, i.sha256) for i in infos if i is not None]
    else:
        rows = store.run(con, "SELECT path, size_bytes, mtime, sha256 FROM files "
                              "WHERE path IN (SELECT unnest(?))", [paths])
    out = {}
    for path, size, mtime, sha in rows:
        try:
            _, abs_path = pathsafe.check(root, path)
            s = os.stat(abs_path)
        except pathsafe.PathError:
            out[path] = "now a link out of the repository"
            continue
        except FileNotFoundError:
            out[path] = "deleted"
            continue
        except OSError:
            out[path] = "unreadable"
            continue
        if not st.S_ISREG(s.st_mode):
            out[path] = "not a regular file"
        elif s.st_size == size and mtime is not None and abs(s.st_mtime - mtime) < 1e-6:
            continue
        elif s.st_size != size or sha is None or _sha256(abs_path) != sha:
            out[path] = "changed"
    return out


def warning(found: dict[str, str]) -> str:
    """The line an answer starts with when it used stale files."""
    names = sorted(found)
    shown = ", ".join(f"{p} ({found[p]})" for p in names[:MAX_NAMED])
    more = f" and {len(names) - MAX_NAMED} more" if len(names) > MAX_NAMED else ""
    n = len(names)
    return (f"warning: {n} file{'s' if n != 1 else ''} this answer uses changed on disk since "
            f"{'it was' if n == 1 else 'they were'} indexed: {shown}{more}; line numbers and "
            "definitions from them may be stale (re-index to refresh)")
