"""The git plumbing task sets need: resolve revisions, list the files changed between two,
read file contents at a revision, write a revision's tree to a folder. Runs the `git`
command (a work tree or a bare repository both work); nothing here parses code.

    >>> g = GitRepo("path/to/repo")
    >>> a, b = g.commit("v1.0"), g.commit("v1.1")
    >>> g.changes(a, b)            # [Change('M', 'pkg/mod.py', 'pkg/mod.py'), ...]
    >>> g.read_many([(a, "pkg/mod.py")])
    >>> g.export(a, "old-tree/")
"""
from __future__ import annotations

import io
import os
import shutil
import subprocess
import tarfile
from dataclasses import dataclass


class GitError(RuntimeError):
    """A git command failed; the message says which and why."""


@dataclass(frozen=True)
class Change:
    status: str           # M (modified), A (added), D (deleted), R (renamed), C (copied), T (type)
    old_path: str | None  # None for an added file
    new_path: str | None  # None for a deleted file


class GitRepo:
    def __init__(self, path: str | os.PathLike):
        self.path = os.path.abspath(os.fspath(path))
        if not os.path.isdir(self.path):
            raise GitError(f"not a directory: {self.path}")
        if shutil.which("git") is None:
            raise GitError("the git command is not installed")
        try:
            self.git("rev-parse", "--git-dir")
        except GitError:
            raise GitError(f"not a git repository: {self.path}") from None

    @property
    def name(self) -> str:
        base = os.path.basename(self.path.rstrip(os.sep))
        if base in (".git", "repo") or base.endswith(".git"):
            parent = os.path.basename(os.path.dirname(self.path.rstrip(os.sep)))
            base = base[:-4] if base.endswith(".git") and base != ".git" else parent
        return base

    def git(self, *args: str, input: bytes | None = None) -> bytes:
        r = subprocess.run(["git", "-C", self.path, *args], input=input, capture_output=True)
        if r.returncode != 0:
            err = r.stderr.decode("utf-8", "replace").strip().splitlines()
            raise GitError(f"git {' '.join(args[:3])}: {err[-1] if err else f'exit {r.returncode}'}")
        return r.stdout

    def commit(self, rev: str) -> str:
        """The full commit id a revision (tag, branch, hash) names."""
        try:
            return self.git("rev-parse", "--verify", "--quiet", f"{rev}^{{commit}}").decode().strip()
        except GitError:
            raise GitError(f"unknown revision {rev!r} in {self.path}") from None

    def changes(self, a: str, b: str) -> list[Change]:
        """Files that differ between commits `a` and `b` (renames detected)."""
        out = self.git("diff", "--no-color", "--no-ext-diff", "-z", "--name-status", "-M", a, b)
        parts = out.decode("utf-8", "surrogateescape").split("\0")
        changes, i = [], 0
        while i < len(parts) and parts[i]:
            status = parts[i][0]
            if status in "RC":
                changes.append(Change(status, parts[i + 1], parts[i + 2]))
                i += 3
            else:
                path = parts[i + 1]
                changes.append(Change(status, None if status == "A" else path,
                                      None if status == "D" else path))
                i += 2
        return changes

    def read_many(self, specs: list[tuple[str, str]]) -> list[bytes | None]:
        """Contents of (commit, path) pairs through one `git cat-file --batch`; None for a
        path that is not a file at that commit."""
        if not specs:
            return []
        req = "".join(f"{rev}:{path}\n" for rev, path in specs).encode("utf-8", "surrogateescape")
        out = self.git("cat-file", "--batch", input=req)
        res: list[bytes | None] = []
        pos = 0
        for _ in specs:
            nl = out.index(b"\n", pos)
            line = out[pos:nl]
            pos = nl + 1
            if line.endswith((b" missing", b" ambiguous")):
                res.append(None)
                continue
            _sha, kind, size = line.split()
            body = out[pos:pos + int(size)]
            pos += int(size) + 1
            res.append(body if kind == b"blob" else None)
        return res

    def export(self, rev: str, dest: str | os.PathLike) -> str:
        """Write the tree of `rev` into folder `dest` (absent or empty) and return its
        absolute path."""
        dest = os.path.abspath(os.fspath(dest))
        if os.path.isdir(dest) and os.listdir(dest):
            raise GitError(f"cannot export {rev} into {dest}: the folder is not empty")
        os.makedirs(dest, exist_ok=True)
        data = self.git("archive", "--format=tar", rev)
        with tarfile.open(fileobj=io.BytesIO(data)) as tar:
            tar.extractall(dest, filter="data")
        return dest
