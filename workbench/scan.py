"""Walk a repository: what to index, what to skip (and why), what was ignored.

Honours nested `.gitignore` files, built-in ignores and user globs; never follows a
directory symlink (so no loops) and never reads through a symlink that leaves the root.
"""
from __future__ import annotations

import os
import stat
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path

import pathspec

DEFAULT_MAX_BYTES = 1024 * 1024

BUILTIN_IGNORED_DIRS = frozenset({
    ".git", ".hg", ".svn", "node_modules", "dist", "build", ".venv",
    "__pycache__", "target", ".tox", ".nox", ".mypy_cache", ".pytest_cache", ".ruff_cache",
    ".idea", ".vscode", ".gradle", ".next", ".nuxt", ".cache", "bower_components",
    ".eggs", "site-packages", ".ipynb_checkpoints", ".terraform",
})
# Ignored only when they hold a virtual environment (the stdlib has a real `venv` package).
VENV_DIR_NAMES = frozenset({"venv", "env", "virtualenv"})
BUILTIN_IGNORED_FILES = ("*.pyc", "*.pyo", "*.so", "*.o", "*.a", "*.dll", "*.dylib", "*.class",
                         "*.jar", "*.min.js", "*.map", ".DS_Store", "*.lock", "*.duckdb",
                         "*.duckdb.wal", "package-lock.json", "yarn.lock", "pnpm-lock.yaml")


@dataclass
class ScanEntry:
    path: str                  # repo-relative, POSIX
    abspath: str
    size: int
    mtime: float
    skip_reason: str | None = None


@dataclass
class ScanResult:
    root: str
    entries: list[ScanEntry] = field(default_factory=list)
    ignored_dirs: Counter = field(default_factory=Counter)     # name -> count
    ignored_dir_paths: list = field(default_factory=list)      # repo-relative paths
    ignored_files: int = 0
    by_reason: Counter = field(default_factory=Counter)

    def summary(self) -> str:
        dirs = sum(self.ignored_dirs.values())
        names = ", ".join(sorted(self.ignored_dirs))
        return (f"{len(self.entries)} files; ignored {dirs} dirs"
                f"{' (' + names + ')' if names else ''} and {self.ignored_files} files")


class _Ignore:
    """Nested gitignore specs: the deepest file with a decisive pattern wins."""

    def __init__(self, user_globs: tuple[str, ...]):
        self.user = pathspec.GitIgnoreSpec.from_lines(list(user_globs) + list(BUILTIN_IGNORED_FILES))
        self.layers: list[tuple[str, pathspec.GitIgnoreSpec]] = []

    def push(self, rel_dir: str, abs_dir: str) -> bool:
        gi = os.path.join(abs_dir, ".gitignore")
        try:
            with open(gi, encoding="utf-8", errors="replace") as fh:
                lines = fh.read().splitlines()
        except OSError:
            return False
        self.layers.append((rel_dir, pathspec.GitIgnoreSpec.from_lines(lines)))
        return True

    def pop(self) -> None:
        self.layers.pop()

    def ignored(self, rel: str, is_dir: bool) -> bool:
        probe = rel + "/" if is_dir else rel
        if self.user.match_file(probe):
            return True
        for base, spec in reversed(self.layers):
            sub = probe[len(base) + 1:] if base else probe
            res = spec.check_file(sub)
            if res.include is not None:
                return bool(res.include)
        return False


def scan(root: str | os.PathLike, exclude: tuple[str, ...] = (), max_bytes: int = DEFAULT_MAX_BYTES,
         use_gitignore: bool = True) -> ScanResult:
    """List the files under `root` to index, with skip reasons where they will not be parsed."""
    root_path = Path(root).resolve()
    if not root_path.is_dir():
        raise NotADirectoryError(f"not a directory: {root}")
    res = ScanResult(root=str(root_path))
    ignore = _Ignore(tuple(exclude))
    root_str = str(root_path)

    def walk(abs_dir: str, rel_dir: str) -> None:
        pushed = use_gitignore and ignore.push(rel_dir, abs_dir)
        try:
            try:
                with os.scandir(abs_dir) as it:
                    entries = sorted(it, key=lambda e: e.name)
            except OSError as exc:
                res.by_reason[f"unreadable directory: {exc.strerror}"] += 1
                return
            for e in entries:
                rel = f"{rel_dir}/{e.name}" if rel_dir else e.name
                try:
                    is_link = e.is_symlink()
                    is_dir = e.is_dir(follow_symlinks=False)
                except OSError:
                    continue
                if is_dir:
                    if (e.name in BUILTIN_IGNORED_DIRS or ignore.ignored(rel, True)
                            or (e.name in VENV_DIR_NAMES
                                and os.path.exists(os.path.join(e.path, "pyvenv.cfg")))):
                        res.ignored_dirs[e.name] += 1
                        res.ignored_dir_paths.append(rel)
                        continue
                    walk(e.path, rel)
                    continue
                if ignore.ignored(rel, False):
                    res.ignored_files += 1
                    continue
                if is_link:
                    res.entries.append(_symlink_entry(e, rel, root_str))
                    continue
                try:
                    st = e.stat(follow_symlinks=False)
                except OSError as exc:
                    res.entries.append(ScanEntry(rel, e.path, 0, 0.0, f"unreadable: {exc.strerror}"))
                    continue
                if not stat.S_ISREG(st.st_mode):
                    res.entries.append(ScanEntry(rel, e.path, 0, st.st_mtime, "not a regular file"))
                    continue
                entry = ScanEntry(rel, e.path, st.st_size, st.st_mtime)
                if st.st_size > max_bytes:
                    entry.skip_reason = f"too large: {st.st_size} bytes > cap {max_bytes}"
                res.entries.append(entry)
        finally:
            if pushed:
                ignore.pop()

    walk(root_str, "")
    for e in res.entries:
        if e.skip_reason:
            res.by_reason[e.skip_reason.split(":")[0]] += 1
    return res


def _symlink_entry(e: os.DirEntry, rel: str, root: str) -> ScanEntry:
    """File symlinks are listed but never read: the target is indexed at its own path
    when it lies inside the root; links out of the root or broken links say so."""
    try:
        target = os.path.realpath(e.path)
    except OSError:
        return ScanEntry(rel, e.path, 0, 0.0, "broken symlink")
    if not os.path.exists(target):
        return ScanEntry(rel, e.path, 0, 0.0, "broken symlink")
    if os.path.commonpath([root, target]) != root:
        return ScanEntry(rel, e.path, 0, 0.0, "symlink leaves the repository")
    if os.path.isdir(target):
        return ScanEntry(rel, e.path, 0, 0.0, "symlink to a directory (not followed)")
    inside = os.path.relpath(target, root).replace(os.sep, "/")
    return ScanEntry(rel, e.path, 0, 0.0, f"symlink to {inside} (indexed there)")


def is_binary(head: bytes) -> bool:
    """NUL bytes in the first 8 KiB (what git does), unless the text is UTF-16 with a BOM."""
    if head.startswith((b"\xff\xfe", b"\xfe\xff")):
        return False
    return b"\x00" in head[:8192]
