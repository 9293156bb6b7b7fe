"""Walk a repository: what to index, what to skip (and why), what was ignored.

Honours nested `.gitignore` files, built-in ignores and user globs; never follows a
directory symlink (so no loops) and never reads through a symlink that leaves the root.
Nothing here stops the walk: a `.gitignore` line pathspec rejects (a lone `!`) is dropped
with a warning; a file or directory whose name is not valid UTF-8 or holds control
characters, and a directory that cannot be listed, get an entry with the reason (the
name shown escaped) instead of aborting the run or vanishing without a count.
"""
from __future__ import annotations

import os
import re
import stat
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path

from .safeio import read_beneath

# pathspec (gitignore matching) is imported when a run has a .gitignore or user globs: the
# built-in ignores alone are matched by `_BUILTIN_FILES` below

DEFAULT_MAX_BYTES = 1024 * 1024
GITIGNORE_MAX_BYTES = 1024 * 1024

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
                         "*.duckdb.wal", "*.duckdb.model", "*.duckdb.model.log", "package-lock.json", "yarn.lock", "pnpm-lock.yaml")


def _builtin_files_regex(globs: tuple[str, ...]) -> re.Pattern:
    """One regex matching a path exactly where a gitignore spec of `globs` does: each glob
    is a name pattern (no slash, no negation, `*` its only wildcard), matched against
    every component of the path, a trailing `/` marking a directory - the form pathspec
    gives such a pattern, with the alternatives in one search instead of one each."""
    alts = []
    for g in globs:
        if not re.fullmatch(r"[\w.*-]+", g):
            raise ValueError(f"not a plain name glob: {g!r}")
        alts.append(re.escape(g).replace(r"\*", "[^/]*"))
    return re.compile(r"^(?:.+/)?(?:" + "|".join(alts) + r")(?:/|$)")


_BUILTIN_FILES = _builtin_files_regex(BUILTIN_IGNORED_FILES)
# the same globs against one name: the walk checks each file's and directory's own name
# only, since it enters no directory a glob matches (so no earlier component matches)
_BUILTIN_NAME = re.compile(_BUILTIN_FILES.pattern.replace("^(?:.+/)?", "", 1))
# ... and for a name of printable ASCII (no line break: `$` above matches before a final
# one) as plain string tests, where each glob is `*SUFFIX` or a whole name
_BUILTIN_SUFFIXES = tuple(g[1:] for g in BUILTIN_IGNORED_FILES if g.startswith("*") and "*" not in g[1:])
_BUILTIN_NAMES = frozenset(g for g in BUILTIN_IGNORED_FILES if "*" not in g)
_PLAIN_GLOBS = len(_BUILTIN_SUFFIXES) + len(_BUILTIN_NAMES) == len(BUILTIN_IGNORED_FILES)


def _plain(name: str) -> bool:
    """Whether `name` may be judged by `_BUILTIN_SUFFIXES` and `_BUILTIN_NAMES` (and needs
    no escaping, `name_problem`)."""
    return _PLAIN_GLOBS and name.isascii() and name.isprintable()


def _builtin_name(name: str, is_dir: bool = False) -> bool:
    """Whether a built-in glob matches the name `name` of a file or, `is_dir`, a directory
    (`_BUILTIN_NAME`)."""
    if _plain(name):
        return name.endswith(_BUILTIN_SUFFIXES) or name in _BUILTIN_NAMES
    return _BUILTIN_NAME.match(name + "/" if is_dir else name) is not None


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
    warnings: list = field(default_factory=list)               # one sentence each

    def summary(self) -> str:
        dirs = sum(self.ignored_dirs.values())
        names = ", ".join(sorted(self.ignored_dirs))
        warn = len(self.warnings)
        return (f"{len(self.entries)} files; ignored {dirs} dirs"
                f"{' (' + names + ')' if names else ''} and {self.ignored_files} files"
                + (f"; {warn} warning{'s' if warn != 1 else ''}" if warn else ""))


def _compile(lines: list[str], where: str, warnings: list) -> pathspec.GitIgnoreSpec:
    """A gitignore spec of `lines`; lines pathspec rejects are dropped with a warning."""
    import pathspec
    try:
        return pathspec.GitIgnoreSpec.from_lines(lines)
    except ValueError:
        pass
    good = []
    for n, line in enumerate(lines, 1):
        try:
            pathspec.GitIgnoreSpec.from_lines([line])
        except ValueError as exc:
            warnings.append(f"{where} line {n}: pattern {line!r} is not valid and was ignored ({exc})")
            continue
        good.append(line)
    return pathspec.GitIgnoreSpec.from_lines(good)


class PatternError(ValueError):
    """A user exclude glob that is not a valid gitignore pattern."""


class _Ignore:
    """Nested gitignore specs: the deepest file with a decisive pattern wins."""

    def __init__(self, user_globs: tuple[str, ...], root: str, warnings: list):
        self.user = None                # without user globs: the built-in ones, `_BUILTIN_FILES`
        if user_globs:
            import pathspec
            for g in user_globs:
                try:
                    pathspec.GitIgnoreSpec.from_lines([g])
                except ValueError as exc:
                    raise PatternError(f"invalid exclude pattern {g!r}: {exc}") from None
            self.user = pathspec.GitIgnoreSpec.from_lines(list(user_globs) + list(BUILTIN_IGNORED_FILES))
        self.layers: list[tuple[str, pathspec.GitIgnoreSpec]] = []
        self.root = root
        self.warnings = warnings

    def push(self, rel_dir: str, abs_dir: str) -> bool:
        rel = f"{rel_dir}/.gitignore" if rel_dir else ".gitignore"
        try:                                # no link, no FIFO, bounded: see safeio
            data = read_beneath(self.root, rel, GITIGNORE_MAX_BYTES)
        except FileNotFoundError:
            return False
        except OSError as exc:
            self.warnings.append(f"{rel} was not read: {exc.strerror or exc}")
            return False
        lines = [ln.rstrip("\r") for ln in data.decode("utf-8", "replace").split("\n")]
        self.layers.append((rel_dir, _compile(lines, rel, self.warnings)))
        return True

    def pop(self) -> None:
        self.layers.pop()

    def ignored(self, rel: str, is_dir: bool, name: str | None = None) -> bool:
        """Whether `rel` is ignored. `name`: its last component, given by a walk that
        entered none of its parent directories a built-in glob matches (the built-in
        globs are then matched against it alone)."""
        probe = rel + "/" if is_dir else rel
        if self.user is not None:
            if self.user.match_file(probe):
                return True
        elif _builtin_name(name, is_dir) if name is not None else _BUILTIN_FILES.match(probe):
            return True
        for base, spec in reversed(self.layers):
            sub = probe[len(base) + 1:] if base else probe
            res = spec.check_file(sub)
            if res.include is not None:
                return bool(res.include)
        return False


# C0/C1 controls and the characters str.splitlines() breaks on: a name holding one cannot
# be shown on one line of a tool's answer (or would forge extra lines).
UNPRINTABLE = re.compile("[\x00-\x1f\x7f-\x9f\u2028\u2029]")


def name_problem(name: str) -> tuple[str, str | None]:
    """(name as stored, None) for a usable name; (escaped name, reason) for a name that is
    not valid UTF-8 (bytes shown as ``\\xNN``) or holds control characters."""
    if name.isascii() and name.isprintable():     # the common case: nothing to escape
        return name, None
    reason = None
    try:
        name.encode("utf-8")
    except UnicodeEncodeError:
        name = os.fsencode(name).decode("utf-8", "backslashreplace")
        reason = "name is not valid UTF-8"
    if UNPRINTABLE.search(name):
        name = UNPRINTABLE.sub(lambda m: m.group().encode("unicode_escape").decode("ascii"), name)
        reason = reason or "name contains control or line-break characters"
    return name, reason


def scan(root: str | os.PathLike, exclude: tuple[str, ...] = (), max_bytes: int = DEFAULT_MAX_BYTES,
         use_gitignore: bool = True) -> ScanResult:
    """List the files under `root` to index, with skip reasons where they will not be parsed."""
    root_path = Path(root).resolve()
    if not root_path.is_dir():
        raise NotADirectoryError(f"not a directory: {root}")
    res = ScanResult(root=str(root_path))
    root_str = str(root_path)
    ignore = _Ignore(tuple(exclude), root_str, res.warnings)

    def walk(abs_dir: str, rel_dir: str) -> None:
        try:
            with os.scandir(abs_dir) as it:
                entries = sorted(it, key=lambda e: e.name)
        except OSError as exc:
            if not rel_dir:
                raise PermissionError(exc.errno, f"cannot list the repository root {root_str}: "
                                                 f"{exc.strerror}") from None
            res.entries.append(ScanEntry(rel_dir, abs_dir, 0, 0.0,
                                         f"unreadable directory: {exc.strerror} (its files are not indexed)"))
            return
        # a .gitignore is read where the listing shows one (no open per directory otherwise)
        pushed = use_gitignore and any(e.name == ".gitignore" for e in entries) and ignore.push(rel_dir, abs_dir)
        # the built-in globs alone (no user glob, no .gitignore in force): a name of
        # printable ASCII is judged by plain string tests and needs no escaping
        builtin_only = ignore.user is None and not ignore.layers
        try:
            for e in entries:
                rel = f"{rel_dir}/{e.name}" if rel_dir else e.name
                try:
                    is_link = e.is_symlink()
                    is_dir = e.is_dir(follow_symlinks=False)
                except OSError as exc:
                    shown, _ = name_problem(rel)
                    res.entries.append(ScanEntry(shown, e.path, 0, 0.0, f"unreadable: {exc.strerror}"))
                    continue
                if is_dir:
                    if (e.name in BUILTIN_IGNORED_DIRS or ignore.ignored(rel, True, e.name)
                            or (e.name in VENV_DIR_NAMES
                                and os.path.exists(os.path.join(e.path, "pyvenv.cfg")))):
                        res.ignored_dirs[e.name] += 1
                        res.ignored_dir_paths.append(name_problem(rel)[0])
                        continue
                    shown, bad = name_problem(e.name)
                    if bad:
                        res.entries.append(ScanEntry(f"{rel_dir}/{shown}" if rel_dir else shown, e.path,
                                                     0, 0.0, f"directory {bad} (shown escaped); "
                                                             "not entered"))
                        continue
                    walk(e.path, rel)
                    continue
                name = e.name
                if builtin_only and _plain(name):
                    if name.endswith(_BUILTIN_SUFFIXES) or name in _BUILTIN_NAMES:
                        res.ignored_files += 1
                        continue
                else:
                    if ignore.ignored(rel, False, name):
                        res.ignored_files += 1
                        continue
                    shown, bad = name_problem(name)
                    if bad:
                        res.entries.append(ScanEntry(f"{rel_dir}/{shown}" if rel_dir else shown, e.path,
                                                     0, 0.0, f"file {bad} (shown escaped)"))
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
