"""The one safe way to read a file of the repository: check and read in one step.

`read_beneath(root, rel, limit)` opens `rel` one path component at a time, starting from a
descriptor of the root and never following a symbolic link (``O_NOFOLLOW`` on every
component), so a link anywhere on the way - placed there before the call or swapped in
while it runs - makes the open fail instead of reading a file outside the root. The file
is opened non-blocking (a FIFO or device never hangs the caller), must be a regular file
(``fstat`` of the opened descriptor, not of the name) and is read up to `limit` bytes; a
bigger file, or one that grows past the limit while being read, is refused with its size.

The indexer (file contents, ``.gitignore`` files) and every agent tool read through here.
Refusals raise `ReadRefused` (an OSError) whose message says why in one sentence.
"""
from __future__ import annotations

import errno
import os
import stat

_DIR_FLAGS = os.O_RDONLY | getattr(os, "O_DIRECTORY", 0) | getattr(os, "O_CLOEXEC", 0)
_NOFOLLOW = getattr(os, "O_NOFOLLOW", 0)
_FILE_FLAGS = (os.O_RDONLY | _NOFOLLOW | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_NOCTTY", 0)
               | getattr(os, "O_CLOEXEC", 0))
_DIR_FD = os.open in os.supports_dir_fd and bool(_NOFOLLOW)
_CHUNK = 1 << 20
_LINK = "is a symbolic link (or lies under one); links are not followed when reading"


class ReadRefused(OSError):
    """The file was not read; str(exc) says why (`reason` without the path)."""

    def __init__(self, path: str, reason: str, size: int | None = None):
        super().__init__(errno.EPERM, f"{path}: {reason}")
        self.path = path
        self.reason = reason
        self.size = size

    def __str__(self) -> str:
        return f"{self.path}: {self.reason}"


class TooLarge(ReadRefused):
    """Bigger than the read limit (`size` is what fstat or the read found)."""


def _kind(mode: int) -> str:
    for test, name in ((stat.S_ISFIFO, "a FIFO"), (stat.S_ISCHR, "a character device"),
                       (stat.S_ISBLK, "a block device"), (stat.S_ISSOCK, "a socket"),
                       (stat.S_ISDIR, "a directory"), (stat.S_ISLNK, "a symbolic link")):
        if test(mode):
            return name
    return "not a regular file"


def _refusal(dir_fd: int | None, name: str, rel: str, exc: OSError) -> OSError:
    """Turn a failed no-follow open into a clear refusal (lstat only words the message)."""
    if exc.errno in (errno.ELOOP, errno.EMLINK):     # O_NOFOLLOW met a link (FreeBSD: EMLINK)
        return ReadRefused(rel, _LINK)
    if exc.errno in (errno.ENOTDIR, errno.ENXIO, errno.EOPNOTSUPP):
        try:
            st = os.lstat(name, dir_fd=dir_fd) if dir_fd is not None else os.lstat(name)
        except OSError:
            return exc
        if stat.S_ISLNK(st.st_mode):
            return ReadRefused(rel, _LINK)
        if not stat.S_ISDIR(st.st_mode) and not stat.S_ISREG(st.st_mode):
            return ReadRefused(rel, f"is {_kind(st.st_mode)}, not a regular file")
    return exc


def open_beneath(root: str, rel: str) -> int:
    """A read-only descriptor of the regular file `rel` (repo-relative, POSIX) under `root`.

    No symlink is followed after the root itself; raises ReadRefused (link, special file,
    `..`) or the OSError of the open (FileNotFoundError, PermissionError...).
    """
    parts = rel.split("/")
    if not rel or any(p in ("", ".", "..") for p in parts):
        raise ReadRefused(rel, "is not a plain path inside the repository")
    if not _DIR_FD:                                  # no openat: check the real path, then open
        return _open_checked(root, rel)
    dfd = os.open(root, _DIR_FLAGS)
    try:
        for part in parts[:-1]:
            try:
                nfd = os.open(part, _DIR_FLAGS | _NOFOLLOW, dir_fd=dfd)
            except OSError as exc:
                raise _refusal(dfd, part, rel, exc) from None
            os.close(dfd)
            dfd = nfd
        try:
            fd = os.open(parts[-1], _FILE_FLAGS, dir_fd=dfd)
        except OSError as exc:
            raise _refusal(dfd, parts[-1], rel, exc) from None
    finally:
        os.close(dfd)
    _require_regular(fd, rel)
    return fd


def _open_checked(root: str, rel: str) -> int:
    real_root = os.path.realpath(root)
    path = os.path.join(real_root, *rel.split("/"))
    if os.path.realpath(path) != path:
        raise ReadRefused(rel, _LINK)
    fd = os.open(path, _FILE_FLAGS)
    _require_regular(fd, rel)
    return fd


def _require_regular(fd: int, rel: str) -> None:
    st = os.fstat(fd)
    if not stat.S_ISREG(st.st_mode):
        os.close(fd)
        raise ReadRefused(rel, f"is {_kind(st.st_mode)}, not a regular file")


def read_fd(fd: int, rel: str, limit: int | None) -> bytes:
    """Read an open descriptor to its end, refusing more than `limit` bytes."""
    size = os.fstat(fd).st_size
    if limit is not None and size > limit:
        raise TooLarge(rel, f"is {size:,} bytes, above the read limit of {limit:,} bytes", size)
    chunks, got = [], 0
    want = (limit + 1) if limit is not None else None
    while want is None or got < want:
        n = _CHUNK if want is None else min(_CHUNK, want - got)
        try:
            b = os.read(fd, n)
        except BlockingIOError:                       # cannot happen for regular files
            break
        if not b:
            break
        chunks.append(b)
        got += len(b)
    if limit is not None and got > limit:
        raise TooLarge(rel, f"grew past the read limit of {limit:,} bytes while being read", got)
    return b"".join(chunks)


def read_beneath(root: str, rel: str, limit: int | None = None) -> bytes:
    """The bytes of the regular file `rel` under `root` (see the module doc)."""
    fd = open_beneath(root, rel)
    try:
        return read_fd(fd, rel, limit)
    finally:
        os.close(fd)
