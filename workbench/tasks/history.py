"""Task sets from a git history: the definitions whose own code changed between two
revisions (modified, added, deleted), with their line ranges in the old revision.

    >>> rows = from_git("path/to/repo", "v1.0", "v1.1")          # list of task dicts
    >>> prepare("path/to/repo", "v1.0", "old.duckdb")            # export + index the old revision

Each changed file of a parsed language is extracted at both revisions with the indexer's
own extractor (so ranges agree with an index of the old revision) and its definitions are
compared on the syntax tree (`changes.py`). An added definition points at where it goes in
the old revision (`anchor`: the sibling before it, or the header of its class); an added
definition in a new file has no range in the old revision (start_line NULL: nothing there
to reach).
"""
from __future__ import annotations

import fnmatch
import os

from ..gcpause import gc_paused
from ..indexer import _decode_note
from ..languages import detect, refine
from ..scan import DEFAULT_MAX_BYTES, is_binary
from .changes import Changed, compare, definitions
from .gitrepo import GitRepo
from .table import COLUMNS


def _spec_for(path: str, data: bytes | None):
    spec = detect(path)
    if spec is None or not spec.parse:
        return None
    return refine(spec, path, data or b"")


def _parse(path: str, data: bytes | None, spec, max_bytes: int, docstrings: bool):
    if data is None or len(data) > max_bytes or is_binary(data[:8192]):
        return None
    parse_bytes, _enc, _note = _decode_note(data)
    return definitions(path, parse_bytes, spec, docstrings)


def _wanted(path: str, include: list[str], exclude: list[str]) -> bool:
    def match(p: str) -> bool:
        return fnmatch.fnmatch(path, p) or path.startswith(p.rstrip("/") + "/") or path == p
    if include and not any(match(p) for p in include):
        return False
    return not any(match(p) for p in exclude)


def from_git(repo, from_rev: str, to_rev: str, *, task_set: str | None = None,
             include: list[str] = (), exclude: list[str] = (), max_bytes: int = DEFAULT_MAX_BYTES,
             docstrings: bool = False, progress: bool = False) -> list[dict]:
    """Task rows (dicts of the `tasks` columns) for the definitions changed between
    `from_rev` and `to_rev` of the git repository `repo`. `include` / `exclude`: path
    prefixes or globs (e.g. `src/`, `*/tests/*`); `docstrings`: a definition whose
    docstring alone changed is a task too."""
    g = repo if isinstance(repo, GitRepo) else GitRepo(repo)
    a, b = g.commit(from_rev), g.commit(to_rev)
    name = task_set or f"{g.name} {from_rev}..{to_rev}"
    origin = f"{g.name} {from_rev}..{to_rev} ({a[:10]}..{b[:10]})"
    work = []
    for ch in g.changes(a, b):
        path = ch.new_path or ch.old_path
        spec = detect(path)
        if spec is None or not spec.parse or not _wanted(path, list(include), list(exclude)):
            continue
        work.append(ch)
    specs = sorted({(a, ch.old_path) for ch in work if ch.old_path} | {(b, ch.new_path) for ch in work if ch.new_path})
    blob = dict(zip(specs, g.read_many(specs)))
    rows: list[dict] = []
    it = work
    if progress:
        from tqdm.auto import tqdm
        it = tqdm(it, desc="tasks", unit="file", leave=False)
    with gc_paused():               # extraction makes many small objects and no cycles
        for ch in it:
            old_data = blob.get((a, ch.old_path))
            new_data = blob.get((b, ch.new_path))
            old = new = None
            if ch.old_path:
                spec = _spec_for(ch.old_path, old_data)
                old = _parse(ch.old_path, old_data, spec, max_bytes, docstrings) if spec else None
            if ch.new_path:
                spec = _spec_for(ch.new_path, new_data)
                new = _parse(ch.new_path, new_data, spec, max_bytes, docstrings) if spec else None
            if old is None and new is None:
                continue
            for c in compare(old, new):
                rows.append(_row(c, ch.old_path, ch.new_path, (old or new).language, name, origin, a, b))
    return rows


def _row(c: Changed, old_path: str | None, new_path: str | None, language: str, task_set: str,
         origin: str, a: str, b: str) -> dict:
    d = c.old or c.new
    parent = d.parent[0] if d.parent else None
    row = dict.fromkeys(COLUMNS[1:])
    row.update({"task_set": task_set, "source": "git", "origin": origin, "change": c.change,
           "path": old_path or new_path, "language": language, "kind": d.kind, "name": d.name,
           "qualname": d.qualname, "from_rev": a, "to_rev": b})
    prefix = d.qualname[: len(d.qualname) - len(d.key[0])].rstrip(".")
    row["parent_qualname"] = f"{prefix}.{parent}" if parent and prefix else parent
    if c.old is not None:
        row["start_line"], row["end_line"] = c.old.start_line, c.old.end_line
    if c.new is not None:
        row["new_path"] = new_path
        row["new_start_line"], row["new_end_line"] = c.new.start_line, c.new.end_line
    if c.change == "added":
        if c.anchor is not None and old_path:
            row["start_line"], row["end_line"] = c.anchor_lines
            row["anchor"] = c.anchor.qualname
            where = "header of" if c.anchor.key == c.new.parent else "next to"
            row["note"] = f"added {where} {c.anchor.qualname}"
        else:
            row["note"] = "added in a file the old revision does not have" if not old_path \
                else "added where the old revision has no definition to anchor to"
    return row


def export_dir(db: str, repo: GitRepo, commit: str) -> str:
    """Default folder for the tree of `commit` next to database `db`."""
    base = os.path.dirname(os.path.abspath(db))
    return os.path.join(base, f"{repo.name}-{commit[:12]}")


def prepare(repo, rev: str, db: str, *, checkout: str | None = None, progress: bool = False,
            **index_kw):
    """Write the tree of `rev` to a folder (`checkout`, default next to `db` and named after
    the commit; an existing export of that commit is reused) and index it into `db`.
    Returns the index report."""
    from ..indexer import index
    g = repo if isinstance(repo, GitRepo) else GitRepo(repo)
    commit = g.commit(rev)
    dest = checkout or export_dir(db, g, commit)
    if not (checkout is None and os.path.isdir(dest) and os.listdir(dest)):
        g.export(commit, dest)
    return index(dest, db, progress=progress, **index_kw)
