"""The on-disk layout of exports and corpora (docs/corpus.md), and the one way to replace a
folder of it.

An *export* is a folder holding one repository's index: `manifest.json` and one Parquet
file per table (`files.parquet`, `symbols.parquet`, ...; every row starts with `repo`),
plus `src/` when the corpus keeps the source tree of an archive or a git revision. A
*corpus* is a folder of exports, one per repository, named after it, with `corpus.json`
describing its last indexing run.
"""
from __future__ import annotations

import json
import os
import re
import shutil
import time
import uuid
from pathlib import Path

from .. import schema

FORMAT = "workbench-export"
FORMAT_VERSION = 1
MANIFEST = "manifest.json"
CORPUS_FILE = "corpus.json"
SOURCES = "src"
TABLE_FILES = {t: f"{t}.parquet" for t in schema.TABLES}
_STAGING = ".staging-"
_NAME = re.compile(r"^[A-Za-z0-9][A-Za-z0-9._@+-]{0,127}$")


class LayoutError(ValueError):
    """A folder that is not what it should be (not an export, a foreign folder in the way)."""


def check_name(name: str) -> str:
    """A repository name is a folder name too: letters, digits and `._@+-`, starting with a
    letter or digit, at most 128 characters."""
    if not isinstance(name, str) or not _NAME.match(name):
        raise LayoutError(f"bad repository name {name!r}: use letters, digits and ._@+- "
                          "(starting with a letter or digit, at most 128 characters)")
    return name


def safe_name(text: str) -> str:
    """A repository name made from any text (a folder or archive name, a git revision)."""
    name = re.sub(r"[^A-Za-z0-9._@+-]+", "_", text).lstrip("._@+-")[:128]
    return name or "repo"


def read_manifest(folder) -> dict | None:
    """The manifest of an export folder; None when the folder has none. LayoutError when
    it is unreadable or not an export's."""
    path = Path(folder) / MANIFEST
    try:
        text = path.read_text(encoding="utf-8")
    except FileNotFoundError:
        return None
    except OSError as exc:
        raise LayoutError(f"cannot read {path}: {exc.strerror or exc}") from None
    try:
        data = json.loads(text)
    except ValueError as exc:
        raise LayoutError(f"{path} is not valid JSON ({exc})") from None
    if not isinstance(data, dict) or data.get("format") != FORMAT:
        raise LayoutError(f"{path} is not the manifest of a workbench export")
    if int(data.get("format_version", 0)) > FORMAT_VERSION:
        raise LayoutError(f"{path} was written by a newer workbench (export format "
                          f"{data.get('format_version')}; this one reads up to {FORMAT_VERSION})")
    return data


def write_json(path, data) -> None:
    """Write JSON atomically (a temporary file renamed over the target)."""
    path = Path(path)
    tmp = path.with_name(f".{path.name}.{uuid.uuid4().hex[:8]}.tmp")
    tmp.write_text(json.dumps(data, indent=2, sort_keys=True, default=str) + "\n", encoding="utf-8")
    os.replace(tmp, path)


def now() -> str:
    return time.strftime("%Y-%m-%dT%H:%M:%S")


def staging_dir(dest) -> Path:
    """A new empty folder next to `dest` (same filesystem, so the swap is a rename)."""
    dest = Path(dest)
    dest.parent.mkdir(parents=True, exist_ok=True)
    tmp = dest.parent / f"{_STAGING}{dest.name}-{uuid.uuid4().hex[:8]}"
    tmp.mkdir()
    return tmp


def remove_stale_staging(folder) -> int:
    """Remove staging folders a killed run left in `folder`; returns how many."""
    n = 0
    try:
        entries = list(Path(folder).iterdir())
    except OSError:
        return 0
    for p in entries:
        if p.name.startswith(_STAGING) and p.is_dir() and not p.is_symlink():
            shutil.rmtree(p, ignore_errors=True)
            n += 1
    return n


def replace_dir(staging, dest) -> None:
    """Put the folder `staging` at `dest`, replacing an export that is there (never a
    folder that is not an export: LayoutError, and `staging` is removed)."""
    staging, dest = Path(staging), Path(dest)
    old = None
    try:
        if dest.is_symlink() or (dest.exists() and not dest.is_dir()):
            raise LayoutError(f"{dest} exists and is not a folder; not replacing it")
        if dest.exists():
            if read_manifest(dest) is None and any(dest.iterdir()):
                raise LayoutError(f"{dest} is a folder that is not a workbench export; "
                                  "not replacing it (choose another name or folder)")
            old = dest.parent / f"{_STAGING}{dest.name}-old-{uuid.uuid4().hex[:8]}"
            os.rename(dest, old)
        os.rename(staging, dest)
    except BaseException:
        shutil.rmtree(staging, ignore_errors=True)
        if old is not None and not dest.exists():
            os.rename(old, dest)
        raise
    if old is not None:
        shutil.rmtree(old, ignore_errors=True)


def export_dirs(folder) -> list[Path]:
    """The export folders of a corpus folder (or the folder itself when it is one export),
    sorted by name."""
    folder = Path(folder)
    if not folder.is_dir():
        raise FileNotFoundError(f"no corpus or export folder at {str(folder)!r}")
    if (folder / MANIFEST).exists():
        return [folder]
    return sorted(p for p in folder.iterdir()
                  if p.is_dir() and not p.name.startswith(".") and (p / MANIFEST).exists())
