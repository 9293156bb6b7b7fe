"""Edits of the kinds people make to real Python code, and the comparison of an incremental
re-index with a fresh index of the edited tree (ids aside). Used by `test_resolve_drift.py`
and `bench/drift_bench.py`.

Each trial picks files of a copied corpus with a seeded random generator and applies one
edit to each: a new function that calls into the file and a builtin method, a deleted
top-level definition, a renamed top-level definition, a changed base class, a new module
that defines a name defined elsewhere (name-based guesses change), a deleted module.
"""
from __future__ import annotations

import ast
import os
import random
import shutil
import sysconfig
from pathlib import Path

import duckdb

# rows compared without ids: ids become the qualnames/paths they point to
EDGES = ("SELECT src.qualname, e.kind, e.dst_name, d.qualname, e.dst_qualname, e.path, e.line, "
         "e.resolution, e.candidates FROM edges e JOIN symbols src ON src.symbol_id = e.src_id "
         "LEFT JOIN symbols d ON d.symbol_id = e.dst_id")
STDLIB = Path(sysconfig.get_paths()["stdlib"])


def copy_stdlib(dst: Path, parts) -> Path:
    """Copy packages and modules of the running interpreter's standard library (their own
    tests and caches left out) into `dst`, a corpus to edit."""
    for part in parts:
        src = STDLIB / part
        if src.is_dir():
            shutil.copytree(src, dst / part, ignore=shutil.ignore_patterns("__pycache__", "test*"))
        elif src.exists():
            (dst / part).parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(src, dst / part)
    return dst


IMPORTS = ("SELECT i.path, s.qualname, i.module, i.name, i.alias, i.line, i.resolved_path "
           "FROM imports i LEFT JOIN symbols s ON s.symbol_id = i.src_id")


def rows(db: str, sql: str) -> set[tuple]:
    con = duckdb.connect(db, read_only=True)
    try:
        return {tuple(tuple(v) if isinstance(v, list) else v for v in r) for r in con.execute(sql).fetchall()}
    finally:
        con.close()


def differences(inc_db: str, fresh_db: str) -> list[tuple]:
    """Edge and import rows present in one database and not the other: ('+'/'-', row)."""
    out = []
    for sql in (EDGES, IMPORTS):
        a, b = rows(inc_db, sql), rows(fresh_db, sql)
        out += [("incremental", r) for r in sorted(a - b, key=repr)]
        out += [("fresh", r) for r in sorted(b - a, key=repr)]
    return out


def _touch_later(path: Path) -> None:
    st = os.stat(path)
    os.utime(path, (st.st_atime, st.st_mtime + 5))


def _top_defs(text: str) -> list[ast.stmt]:
    try:
        tree = ast.parse(text)
    except (SyntaxError, ValueError):
        return []
    return [n for n in tree.body if isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef))
            and not n.decorator_list]


def _add_function(text: str, rng: random.Random) -> str | None:
    defs = [d for d in _top_defs(text) if isinstance(d, ast.FunctionDef)]
    callee = rng.choice(defs).name if defs else "len"
    return text + (f"\n\ndef _drift_added(sep=','):\n    parts = str(sep).partition(sep)\n"
                   f"    return {callee}, parts[0].strip().split(sep)\n")


def _pick(text: str, rng: random.Random, classes: bool = False):
    """A random undecorated top-level definition (a class with `classes`) and the lines."""
    defs = [d for d in _top_defs(text) if not classes or isinstance(d, ast.ClassDef)]
    return (rng.choice(defs), text.splitlines(keepends=True)) if defs else (None, None)


def _delete_def(text: str, rng: random.Random) -> str | None:
    d, lines = _pick(text, rng)
    return None if d is None else "".join(lines[:d.lineno - 1] + lines[d.end_lineno:])


def _rename_def(text: str, rng: random.Random) -> str | None:
    d, lines = _pick(text, rng)
    if d is None:
        return None
    i = d.lineno - 1
    lines[i] = lines[i].replace(f" {d.name}", f" {d.name}_renamed", 1)
    return "".join(lines)


def _change_base(text: str, rng: random.Random) -> str | None:
    d, lines = _pick(text, rng, classes=True)
    if d is None:
        return None
    i = d.lineno - 1
    head = lines[i]
    if "(" in head:
        k = head.index("(") + 1
        head = head[:k] + ("dict" if head[k:k + 1] == ")" else "dict, ") + head[k:]
    else:
        head = head.replace(f"class {d.name}", f"class {d.name}(dict)", 1)
    lines[i] = head
    return "".join(lines)


EDITS = (_add_function, _delete_def, _rename_def, _change_base)


def mutate(root: Path, rng: random.Random, n_files: int = 4, add_delete: bool = False) -> list[str]:
    """Apply one edit to each of `n_files` Python files under `root`; with `add_delete`,
    also add one module that redefines a name of another file and delete one module.
    Returns what was done."""
    files = sorted(p for p in root.rglob("*.py") if p.is_file() and not p.is_symlink())
    done = []
    for p in rng.sample(files, min(n_files, len(files))):
        text = p.read_text(encoding="utf-8", errors="surrogateescape")
        edit = rng.choice(EDITS)
        new = edit(text, rng)
        if new is None or new == text:
            new = _add_function(text, rng)
            edit = _add_function
        p.write_text(new, encoding="utf-8", errors="surrogateescape")
        _touch_later(p)
        done.append(f"{edit.__name__[1:]} {p.relative_to(root)}")
    if not add_delete:
        return done
    # a new module defining (and using) a name another file defines
    donor = rng.choice(files)
    defs = _top_defs(donor.read_text(encoding="utf-8", errors="surrogateescape"))
    name = rng.choice(defs).name if defs else "helper"
    new_mod = donor.parent / f"_drift_new_{rng.randrange(10**6)}.py"
    new_mod.write_text(f"def {name}(*args, **kwargs):\n    return args\n\n\n"
                       f"def _drift_user():\n    return {name}(1)\n", encoding="utf-8")
    done.append(f"add {new_mod.relative_to(root)} defining {name}")
    victim = rng.choice([f for f in files if f.exists() and f.name != "__init__.py"])
    victim.unlink()
    done.append(f"delete {victim.relative_to(root)}")
    return done
