"""What a corpus is built from: local folders, source archives (sdists: `.tar.gz`, `.zip`,
...) and revisions of git repositories, named in a list file or on the command line.

A list file has one repository per line (blank lines and `#` comments are skipped):

    sample_repos/pyshop                       # a folder, indexed where it is
    downloads/requests-2.32.3.tar.gz          # an archive, extracted safely first
    ~/src/project rev=v1.4 name=project-1.4   # a git revision, via `git archive`

Relative paths are relative to the list file. `name=` sets the repository's name (default:
the folder name, the archive name without its extension, `folder@rev` for git).

Archives are extracted without trusting them: a member whose path leaves the extraction
folder fails the repository, links that point out of it and special files are left out
(and listed in the manifest's `warnings`), and the extracted size and member count are
capped. An archive with a single top folder (`requests-2.32.3/...`) is rooted there.
"""
from __future__ import annotations

import hashlib
import os
import posixpath
import shlex
import shutil
import stat
import subprocess
import tarfile
import zipfile
from dataclasses import asdict, dataclass
from pathlib import Path

from .layout import LayoutError, check_name, safe_name

ARCHIVE_SUFFIXES = (".tar.gz", ".tgz", ".tar.bz2", ".tbz2", ".tar.xz", ".txz", ".tar", ".zip")
MAX_EXTRACT_BYTES = 1 << 30          # 1 GiB of members in all
MAX_MEMBERS = 200_000


class InputError(Exception):
    """A repository that cannot be read (recorded with the message; the run goes on)."""


class ListError(ValueError):
    """A list of inputs that cannot be understood (the run does not start)."""


@dataclass(frozen=True)
class RepoInput:
    """One repository of a corpus: `kind` is `dir`, `archive` or `git`."""
    name: str
    kind: str
    path: str                  # absolute
    rev: str | None = None     # git revision as written (`kind == "git"`)

    def describe(self) -> str:
        return f"{self.path}@{self.rev}" if self.rev else self.path

    def to_dict(self) -> dict:
        return asdict(self)


def archive_stem(path: str) -> str | None:
    """The name of an archive without its extension, or None when `path` is no archive."""
    base = os.path.basename(path)
    for suffix in ARCHIVE_SUFFIXES:
        if base.lower().endswith(suffix):
            return base[:-len(suffix)]
    return None


def make_input(path: str, rev: str | None = None, name: str | None = None,
               base: str | None = None) -> RepoInput:
    """The input for a path as written (relative to `base`, `~` expanded)."""
    path = os.path.expanduser(path)
    if base is not None and not os.path.isabs(path):
        path = os.path.join(base, path)
    path = os.path.abspath(path)
    stem = archive_stem(path)
    if rev is not None:
        kind, default = "git", f"{os.path.basename(path.rstrip('/'))}@{rev}"
    elif stem is not None:
        kind, default = "archive", stem
    else:
        kind, default = "dir", os.path.basename(path.rstrip("/"))
    try:
        name = check_name(name) if name else safe_name(default)
    except LayoutError as exc:
        raise ListError(str(exc)) from None
    return RepoInput(name, kind, path, rev)


def read_list(list_file: str) -> list[RepoInput]:
    """The inputs a list file names (ListError, with the line, on a line it cannot read)."""
    try:
        text = Path(list_file).read_text(encoding="utf-8")
    except OSError as exc:
        raise ListError(f"cannot read the list {list_file}: {exc.strerror or exc}") from None
    except UnicodeDecodeError:
        raise ListError(f"the list {list_file} is not UTF-8 text") from None
    base = os.path.dirname(os.path.abspath(list_file))
    out = []
    for n, line in enumerate(text.splitlines(), 1):
        try:
            words = shlex.split(line, comments=True)
        except ValueError as exc:
            raise ListError(f"{list_file}:{n}: {exc}") from None
        if not words:
            continue
        opts = {}
        for w in words[1:]:
            key, eq, value = w.partition("=")
            if not eq or key not in ("rev", "name") or not value:
                raise ListError(f"{list_file}:{n}: expected PATH [rev=REV] [name=NAME], got {w!r}")
            opts[key] = value
        try:
            out.append(make_input(words[0], opts.get("rev"), opts.get("name"), base))
        except ListError as exc:
            raise ListError(f"{list_file}:{n}: {exc}") from None
    return out


def parse_inputs(args) -> list[RepoInput]:
    """Inputs from command-line words: a folder or an archive stands for itself, any other
    file is a list file. Names must be unique (ListError naming the clash)."""
    out: list[RepoInput] = []
    for a in args:
        if isinstance(a, RepoInput):
            out.append(a)
        elif os.path.isfile(a) and archive_stem(a) is None:
            out.extend(read_list(a))
        else:
            out.append(make_input(a))
    seen: dict[str, RepoInput] = {}
    for inp in out:
        if inp.name in seen:
            raise ListError(f"two repositories named {inp.name!r}: {seen[inp.name].describe()} and "
                            f"{inp.describe()} (give one a name=NAME in the list)")
        seen[inp.name] = inp
    return out


# ---------------------------------------------------------------- fingerprints

def git_commit(path: str, rev: str) -> str:
    """The commit a revision names (InputError when git or the revision is missing)."""
    if not os.path.isdir(path):
        raise InputError(f"no such folder: {path}")
    try:
        r = subprocess.run(["git", "-C", path, "rev-parse", "--verify", "--quiet", f"{rev}^{{commit}}"],
                           capture_output=True, text=True, timeout=60)
    except FileNotFoundError:
        raise InputError("git is not installed (needed for rev=)") from None
    except subprocess.TimeoutExpired:
        raise InputError(f"git rev-parse timed out in {path}") from None
    if r.returncode != 0:
        err = r.stderr.strip().splitlines()
        raise InputError(f"no revision {rev!r} in {path}" + (f": {err[-1]}" if err else ""))
    return r.stdout.strip()


def fingerprint(inp: RepoInput, options: dict) -> tuple[str, dict]:
    """What decides whether a repository must be indexed again: the input (an archive's
    path, size and mtime; a git revision's commit; a folder's files as scanned: paths,
    sizes, mtimes) plus `options` (code versions, index options). Returns the fingerprint
    and facts for the manifest; InputError when the input cannot be read."""
    h = hashlib.sha256(repr(sorted(options.items())).encode())
    facts: dict = {"kind": inp.kind, "path": inp.path}
    if inp.kind == "git":
        commit = git_commit(inp.path, inp.rev)
        facts.update(rev=inp.rev, commit=commit)
        h.update(f"git\0{commit}".encode())
    elif inp.kind == "archive":
        try:
            st = os.stat(inp.path)
        except OSError as exc:
            raise InputError(f"cannot read {inp.path}: {exc.strerror or exc}") from None
        if not stat.S_ISREG(st.st_mode):
            raise InputError(f"not a file: {inp.path}")
        facts.update(size=st.st_size, mtime=st.st_mtime)
        h.update(f"archive\0{inp.path}\0{st.st_size}\0{st.st_mtime_ns}".encode())
    else:
        from ..scan import scan
        if not os.path.isdir(inp.path):
            raise InputError(f"no such folder: {inp.path}" if not os.path.exists(inp.path)
                             else f"not a folder: {inp.path}")
        try:
            os.listdir(inp.path)
        except OSError as exc:
            raise InputError(f"cannot read {inp.path}: {exc.strerror or exc}") from None
        scanned = scan(inp.path, exclude=tuple(options.get("exclude", ())),
                       max_bytes=options.get("max_bytes") or 1 << 20)
        h.update(b"dir\0")
        for e in sorted(scanned.entries, key=lambda e: e.path):
            h.update(f"{e.path}\0{e.size}\0{e.mtime}\0{e.skip_reason}\n".encode("utf-8", "replace"))
        facts.update(files=len(scanned.entries))
    return h.hexdigest()[:24], facts


# ---------------------------------------------------------------- materialising

class _Budget:
    def __init__(self, max_bytes: int, max_members: int):
        self.bytes, self.members = max_bytes, max_members

    def take(self, size: int, name: str) -> None:
        self.members -= 1
        self.bytes -= max(size, 0)
        if self.members < 0:
            raise InputError(f"archive has more than {MAX_MEMBERS:,} members; not extracting it")
        if self.bytes < 0:
            raise InputError(f"archive expands past {MAX_EXTRACT_BYTES:,} bytes (at {name!r}); "
                             "not extracting it")


def _inside(name: str) -> str:
    """The member name normalised; InputError when it is absolute or climbs out."""
    clean = posixpath.normpath(name.replace("\\", "/"))
    if name.startswith(("/", "\\")) or (len(name) > 1 and name[1] == ":") or clean == ".." \
            or clean.startswith("../"):
        raise InputError(f"archive member {name!r} leaves the extraction folder; not extracting it")
    return clean


def _tar_filter(budget: _Budget, warnings: list):
    data_filter = getattr(tarfile, "data_filter", None)

    def filt(member: tarfile.TarInfo, dest: str):
        name = _inside(member.name)
        if name == ".":
            return None
        if member.issym() or member.islnk():
            target = member.linkname if member.islnk() else posixpath.join(posixpath.dirname(name), member.linkname)
            target = posixpath.normpath(target)
            if member.linkname.startswith("/") or target == ".." or target.startswith("../"):
                warnings.append(f"left out link {name} -> {member.linkname} (points out of the archive)")
                return None
        elif not (member.isreg() or member.isdir()):
            warnings.append(f"left out {name} (not a regular file, folder or link)")
            return None
        budget.take(member.size if member.isreg() else 0, name)
        if data_filter is not None:
            try:
                member = data_filter(member, dest)
            except tarfile.FilterError as exc:
                if member.issym() or member.islnk():
                    warnings.append(f"left out link {name}: {exc}")
                    return None
                raise InputError(f"unsafe archive member {name!r}: {exc}") from None
        return member
    return filt


def _extract_tar(tf: tarfile.TarFile, dest: str, warnings: list) -> None:
    filt = _tar_filter(_Budget(MAX_EXTRACT_BYTES, MAX_MEMBERS), warnings)
    if hasattr(tarfile, "data_filter"):
        tf.extractall(dest, filter=filt)
        return
    for member in tf:                     # Python without extraction filters
        m = filt(member, dest)
        if m is not None:
            tf.extract(m, dest, set_attrs=False)


def _extract_zip(zf: zipfile.ZipFile, dest: str, warnings: list) -> None:
    budget = _Budget(MAX_EXTRACT_BYTES, MAX_MEMBERS)
    real_dest = os.path.realpath(dest)
    for info in zf.infolist():
        name = _inside(info.filename)
        if name == ".":
            continue
        mode = info.external_attr >> 16
        if stat.S_ISLNK(mode):
            warnings.append(f"left out link {name} (links are not extracted from zip archives)")
            continue
        target = os.path.join(dest, *name.split("/"))
        if info.is_dir():
            os.makedirs(target, exist_ok=True)
            continue
        budget.take(info.file_size, name)
        parent = os.path.dirname(target)
        os.makedirs(parent, exist_ok=True)
        if os.path.commonpath([os.path.realpath(parent), real_dest]) != real_dest:
            raise InputError(f"archive member {name!r} leaves the extraction folder; not extracting it")
        left = budget.bytes + info.file_size
        with zf.open(info) as src, open(target, "wb") as dst:
            while chunk := src.read(1 << 20):
                left -= len(chunk)
                if left < 0:
                    raise InputError(f"archive member {name!r} expands past its stated size or the cap")
                dst.write(chunk)


def _extract_archive(path: str, dest: str, warnings: list) -> None:
    try:
        if path.lower().endswith(".zip"):
            with zipfile.ZipFile(path) as zf:
                _extract_zip(zf, dest, warnings)
        else:
            with tarfile.open(path) as tf:
                _extract_tar(tf, dest, warnings)
    except InputError:
        raise
    except (tarfile.TarError, zipfile.BadZipFile, EOFError, ValueError, OSError) as exc:
        kind = "zip" if path.lower().endswith(".zip") else "tar"
        raise InputError(f"broken {kind} archive {os.path.basename(path)}: "
                         f"{type(exc).__name__}: {exc}") from None
    except Exception as exc:          # a decompressor error (zlib.error, lzma.LZMAError, ...)
        raise InputError(f"broken archive {os.path.basename(path)}: {type(exc).__name__}: {exc}") from None


def _extract_git(path: str, commit: str, dest: str, warnings: list) -> None:
    try:
        proc = subprocess.Popen(["git", "-C", path, "archive", "--format=tar", commit],
                                stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    except FileNotFoundError:
        raise InputError("git is not installed (needed for rev=)") from None
    failure = None
    try:
        with tarfile.open(fileobj=proc.stdout, mode="r|") as tf:
            _extract_tar(tf, dest, warnings)
    except (tarfile.TarError, OSError) as exc:
        failure = exc
    finally:
        proc.stdout.close()             # git stops at once if we stopped reading
        err = proc.stderr.read().decode("utf-8", "replace").strip()
        proc.stderr.close()
        rc = proc.wait()
    if rc != 0 or failure is not None:
        raise InputError(f"git archive {commit[:12]} failed: {err or failure or f'exit status {rc}'}")


def materialize(inp: RepoInput, dest: str, facts: dict) -> tuple[str, list[str]]:
    """The folder to index for `inp`: a folder input is indexed where it is; an archive or
    a git revision is extracted into the new folder `dest` (rooted at its single top folder
    when it has one: the result is then `dest` itself). Returns (root, warnings);
    InputError when the input cannot be read."""
    if inp.kind == "dir":
        return inp.path, []
    warnings: list[str] = []
    work = dest + ".extract"
    os.makedirs(work)
    try:
        if inp.kind == "archive":
            _extract_archive(inp.path, work, warnings)
        else:
            _extract_git(inp.path, facts.get("commit") or git_commit(inp.path, inp.rev), work, warnings)
        top = os.listdir(work)
        inner = os.path.join(work, top[0]) if len(top) == 1 else None
        if inner and os.path.isdir(inner) and not os.path.islink(inner):
            os.rename(inner, dest)
        else:
            os.rename(work, dest)
    finally:
        shutil.rmtree(work, ignore_errors=True)
    return dest, warnings
