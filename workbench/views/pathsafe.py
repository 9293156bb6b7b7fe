"""Repository-relative paths only: every tool argument naming a file goes through here.

`check(root, path)` returns the normalised repo-relative POSIX path and its absolute
location, or raises `PathError` whose message is the exact text the agent receives.
Refused: non-string values, text that is not valid UTF-8, NUL bytes, line breaks and other
control characters (never silently cut: the index holds no such path), absolute paths
(POSIX, Windows drive or UNC), `~` and `~/...` home paths, `..` that climbs out of the root,
and paths whose real location (after following symlinks) lies outside the root. Paths are
taken exactly as given (no trimming). No content is ever read here: tools read through
`workbench.safeio`.
"""
from __future__ import annotations

import os
import posixpath
import re

from ..scan import UNPRINTABLE

_DRIVE = re.compile(r"^[A-Za-z]:")


class PathError(ValueError):
    """A refused path; str(exc) is the agent-facing error text."""


def normalise(path) -> str:
    """The repo-relative POSIX form of `path` ("." for the root), or PathError."""
    if not isinstance(path, str):
        raise PathError(f"error: path must be a string, got {type(path).__name__}")
    if "\x00" in path:
        raise PathError("error: path contains a NUL byte; give a plain repository-relative path")
    try:
        path.encode("utf-8")
    except UnicodeEncodeError:
        raise PathError(f"error: path {path!r} is not valid text (it holds bytes that are not "
                        "UTF-8); give the path as list_files shows it") from None
    if UNPRINTABLE.search(path):        # never silently cut: no indexed path holds one
        raise PathError(f"error: path {path!r} contains a line break or control character; "
                        "give the path exactly as list_files shows it")
    p = path
    if p in ("", ".", "./"):
        return "."
    if p.startswith(("/", "\\")) or _DRIVE.match(p):
        raise PathError(f"error: absolute paths are not allowed ({path!r}); give a path "
                        "relative to the repository root, e.g. 'src/app.py'")
    if p == "~" or p.startswith(("~/", "~\\")):
        raise PathError(f"error: home-directory paths are not allowed ({path!r}); give a path "
                        "relative to the repository root")
    p = p.replace("\\", "/")
    norm = posixpath.normpath(p)
    if norm == ".." or norm.startswith("../"):
        raise PathError(f"error: path {path!r} leads outside the repository root; "
                        "only paths inside the repository can be read")
    return norm


def check(root: str, path) -> tuple[str, str]:
    """(repo-relative path, absolute path) of `path` under `root`, or PathError.

    Symlinks are resolved: a link (or a link in a parent directory) whose target lies
    outside the root is refused even though its own name looks harmless.
    """
    rel = normalise(path)
    real_root = os.path.realpath(root)
    abs_path = real_root if rel == "." else os.path.join(real_root, *rel.split("/"))
    try:
        real = os.path.realpath(abs_path)
    except OSError:                 # a link swapped for a file while it was being resolved
        raise PathError(f"error: path {path!r} changed while it was being checked; "
                        "try again") from None
    if real != real_root and os.path.commonpath([real_root, real]) != real_root:
        raise PathError(f"error: path {path!r} is a symlink (or lies under one) that leads "
                        "outside the repository root; it cannot be read")
    return rel, abs_path
