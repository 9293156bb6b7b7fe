"""What views read: rows of the `files` table and the bytes of indexed files.

Views never parse. Lines are split on "\\n" only (as tree-sitter counts rows), so line
numbers here agree with `symbols.start_line`/`end_line`.
"""
from __future__ import annotations

import hashlib
from dataclasses import dataclass

from .. import rowcache, store
from ..safeio import read_beneath
from ..scan import DEFAULT_MAX_BYTES

FILE_FIELDS = ("file_id", "path", "language", "size_bytes", "line_count", "sha256", "status",
               "skip_reason", "encoding", "module", "mtime")


@dataclass(frozen=True)
class FileInfo:
    file_id: int
    path: str
    language: str | None
    size_bytes: int
    line_count: int
    sha256: str | None
    status: str
    skip_reason: str | None
    encoding: str | None
    module: str | None
    mtime: float | None

    @property
    def version(self) -> str:
        """Short content hash used as the source version stamp."""
        return (self.sha256 or "")[:12]


def root_of(con) -> str:
    root = store.get_meta(con, "root")
    if not root:
        raise RuntimeError("this database has no root in its meta table; index a repository first")
    return root


_ALL_FILES = f"SELECT {', '.join(FILE_FIELDS)} FROM files ORDER BY path"


def _cached_files(cache) -> tuple[list[FileInfo], dict[str, FileInfo]]:
    def build():
        every = [FileInfo(*r) for r in store.run(cache.con, _ALL_FILES)]
        return every, {f.path: f for f in every}
    return cache.group("files", build)


def file_info(con, path: str) -> FileInfo | None:
    cache = rowcache.of(con)
    if cache is not None:
        return _cached_files(cache)[1].get(path)
    row = store.one(con, f"SELECT {', '.join(FILE_FIELDS)} FROM files WHERE path = ?", [path])
    return FileInfo(*row) if row else None


def all_files(con) -> list[FileInfo]:
    cache = rowcache.of(con)
    if cache is not None:
        return list(_cached_files(cache)[0])
    return [FileInfo(*r) for r in store.run(con, _ALL_FILES)]


@dataclass
class Text:
    """A file as read now: its lines (without line ends) and the hash of its bytes."""
    lines: list[str]
    sha256: str

    @property
    def version(self) -> str:
        return self.sha256[:12]


def decode(data: bytes, encoding: str | None) -> str:
    if encoding in ("utf-16",):
        return data.decode("utf-16", "replace")
    if encoding == "utf-8-sig":
        return data.decode("utf-8-sig", "replace")
    if encoding == "latin-1":
        return data.decode("latin-1")
    return data.decode("utf-8", "replace")


def split_lines(text: str) -> list[str]:
    if not text:
        return []
    parts = text.split("\n")
    if parts[-1] == "":
        parts.pop()
    return [p[:-1] if p.endswith("\r") else p for p in parts]


def read_limit(info: FileInfo) -> int:
    """The most bytes a tool reads of `info`: its indexed size, at least the default size
    cap (a file that grew far beyond what was indexed is refused, not read whole)."""
    return max(DEFAULT_MAX_BYTES, info.size_bytes or 0)


def read_bytes(root: str, info: FileInfo, limit: int | None = None) -> bytes:
    """The current bytes of an indexed file, read through the one safe open
    (`workbench.safeio`: no symlink followed, regular files only, at most `limit` bytes);
    raises `safeio.ReadRefused` or the OSError of the open."""
    return read_beneath(root, info.path, read_limit(info) if limit is None else limit)


def read_text(root: str, info: FileInfo, limit: int | None = None) -> Text:
    """The current lines of an indexed file (see `read_bytes`)."""
    data = read_bytes(root, info, limit)
    return Text(split_lines(decode(data, info.encoding)), hashlib.sha256(data).hexdigest())
