"""Fingerprints of the code that derived data depends on.

An index is a cache of what the extractor and the resolver computed. When either changes
(a new release, an edited query file), rows written by the old code would otherwise stay
until their source file changes. `extractor_version()` and `resolver_version()` hash the
source files each depends on; the database keeps the values it was built with (`meta`),
and a run that finds different ones re-extracts every file or re-resolves every edge.
"""
from __future__ import annotations

import hashlib
from functools import lru_cache
from pathlib import Path

_PKG = Path(__file__).resolve().parent

# the files whose content decides the rows of files/symbols/edges/imports/bindings
_EXTRACTOR = ("extract.py", "languages/__init__.py", "languages/indent_repair.py", "languages/*.scm")
# the files whose content decides dst_id / resolution / candidates / resolved_path
_RESOLVER = ("resolve/*.py", "resolve/lang/*.py", "resolve/lang/*.txt")


def _fingerprint(patterns: tuple[str, ...]) -> str:
    h = hashlib.sha256()
    for pattern in patterns:
        for path in sorted(_PKG.glob(pattern)):
            h.update(path.relative_to(_PKG).as_posix().encode() + b"\0")
            h.update(path.read_bytes() + b"\0")
    return h.hexdigest()[:16]


@lru_cache(maxsize=None)
def extractor_version() -> str:
    return _fingerprint(_EXTRACTOR)


@lru_cache(maxsize=None)
def resolver_version() -> str:
    return _fingerprint(_RESOLVER)
