"""Where databases live by default: one file per repository in a per-user cache folder, never
inside the repository being studied.

    default_db("~/src/rich")   # ~/.cache/context-workbench/rich-3f2a9c41d0.duckdb
    db_for("~/src/rich")       # a folder stands for its default database
    db_for("rich.duckdb")      # a file is itself

The folder is ``$WORKBENCH_CACHE_DIR`` when set, else ``$XDG_CACHE_HOME/context-workbench``,
else ``~/.cache/context-workbench``. The file name is the repository's folder name plus a
hash of its absolute path, so two checkouts of the same project get two databases.
"""
from __future__ import annotations

import hashlib
import os
from pathlib import Path

APP = "context-workbench"


def cache_dir() -> str:
    """The per-user folder of default databases (not created here)."""
    own = os.environ.get("WORKBENCH_CACHE_DIR")
    if own:
        return os.path.abspath(os.path.expanduser(own))
    base = os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache")
    return os.path.join(os.path.abspath(base), APP)


def default_db(root) -> str:
    """The default database file of the repository at `root` (one per absolute path)."""
    path = os.path.abspath(os.path.expanduser(os.fspath(root)))
    key = hashlib.sha256(path.encode("utf-8", "surrogateescape")).hexdigest()[:10]
    return os.path.join(cache_dir(), f"{Path(path).name or 'root'}-{key}.duckdb")


def db_for(db_or_root) -> str:
    """A database argument as a file: a folder (a repository) stands for its default
    database, anything else is taken as the database file itself."""
    s = os.fspath(db_or_root)
    return default_db(s) if os.path.isdir(s) else s
