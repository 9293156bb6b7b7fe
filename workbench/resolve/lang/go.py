"""Go: packages are directories (module path from `go.mod`), methods declared beside their
type, receivers, declared result and field types, builtins."""
from __future__ import annotations

import os
import posixpath
import re
from collections import defaultdict

from ... import store
from ..exprs import split_top
from ..kinds import CLASS_KINDS, NAMESPACE_KINDS, VALUE_KINDS
from ..values import BUILTIN, EXT, INST, SYM, Param, declared_type, param_parts
from .base import Language, module_names

GO_BUILTINS = frozenset("""append cap clear close complex copy delete imag len make max min new
    panic print println real recover string int int8 int16 int32 int64 uint uint8 uint16
    uint32 uint64 uintptr float32 float64 byte rune bool error any complex64 complex128""".split())
# predeclared types: `T(x)` converts, it calls nothing
GO_TYPES = frozenset("""string int int8 int16 int32 int64 uint uint8 uint16 uint32 uint64 uintptr
    float32 float64 byte rune bool error any complex64 complex128""".split())
_RECEIVER = re.compile(r"func\s*\(\s*(\w+)")
_RECEIVER_TYPE = re.compile(r"func\s*\(\s*(\w+)\s+\*?\s*([\w.]+)")


class _Packages:
    """Go packages of the repository: module ids by directory, the module path prefix."""

    def __init__(self, m):
        self.dirs: dict[str, list[int]] = defaultdict(list)         # directory -> module ids
        for path, mid in m.file_module.items():
            if m.file_lang.get(path) == "go":
                self.dirs[posixpath.dirname(path)].append(mid)
        self.prefix = _module_prefix(m) if self.dirs else None     # no Go file: no Go import
        self.attached: dict[int, int] = {}                           # method -> its type
        self.import_cache: dict[str, int | None] = {}
        self.names_cache: dict[tuple[str, bool], dict[str, list[int]]] = {}


def _root(m) -> str | None:
    """The repository root the database names (`meta`), or None. A database error is raised."""
    rows = store.run(m.con, "SELECT value FROM meta WHERE key = 'root'")
    return rows[0][0] if rows else None


def _module_prefix(m) -> str | None:
    """The module path `go.mod` declares (at the root, else the first one below it); None
    when the database names no root, no `go.mod` can be read or none declares a module.
    A database error is not a missing `go.mod`: it is raised."""
    root = _root(m)
    if root is None:
        return None
    for cand in ("go.mod",) + tuple(sorted(p for p in m.paths if p.endswith("/go.mod"))):
        try:
            with open(os.path.join(root, cand), encoding="utf-8", errors="replace") as fh:
                for line in fh:
                    words = line.split()
                    if line.startswith("module ") and len(words) >= 2:
                        return words[1]
        except OSError:         # not there (or not readable): the next one
            continue
    return None


_PACKAGE = re.compile(r"^package\s+(\w+)", re.M)


def _package_clause(m, path: str) -> str | None:
    """The package clause of a Go file of the repository (read from disk), or None when the
    database names no root or the file cannot be read. A database error is raised."""
    root = _root(m)
    if root is None:
        return None
    try:
        with open(os.path.join(root, path), encoding="utf-8", errors="replace") as fh:
            mm = _PACKAGE.search(fh.read(65536))
    except OSError:
        return None
    return mm.group(1) if mm else None


class Go(Language):
    family = "go"
    prepare_adds_members = True
    languages = ("go",)
    literal_types = {"true": "bool", "false": "bool", "interpreted_string_literal": "string",
                     "raw_string_literal": "string", "int_literal": "int"}
    declared_types_win = True
    package_is_directory = True
    field_types_at_module_level = True
    bases_are_fields = True
    export_follows_calls = True

    def export_name(self, m, sid, name_of):
        """A package is named by its directory relative to the root (`internal.store`), the
        root's own package by its package clause (`main`); a method by its receiver type
        (`store.DB.Get`)."""
        if m.parent.get(sid) is None:
            d = posixpath.dirname(m.path.get(sid, ""))
            return d.replace("/", ".") if d else (_package_clause(m, m.path.get(sid, "")) or m.qual[sid])
        t = m.ext["go"].attached.get(sid)
        if t is not None:
            return f"{name_of(t)}.{m.name[sid]}"
        mod = m.parent.get(sid)
        if m.kind.get(sid) == "method" and m.parent.get(mod) is None:
            # a method of a type that is no struct (`type HandlerFunc func(...)`)
            q, mq = m.qual[sid], m.qual[mod]
            if q.startswith(mq + "."):
                return f"{name_of(mod)}.{q[len(mq) + 1:]}"
        return None

    def export_builtin(self, name):
        return None if name in GO_TYPES else super().export_builtin(name)

    def export_package_files(self, m, path):
        """The other `.go` files of the package (test files only along with a test file)."""
        tests = path.endswith("_test.go")
        return [m.path[x] for x in m.ext["go"].dirs.get(posixpath.dirname(path), ())
                if m.path[x].endswith(".go") and (tests or not m.path[x].endswith("_test.go"))]

    def prepare(self, m) -> None:
        pk = m.ext["go"] = _Packages(m)
        # methods are declared beside their type: attach them to it
        if not set(self.languages) & set(m.file_lang.values()):
            return
        for i, k in m.kind.items():
            if k == "method" and m.fam.get(i) == "go" and m.kind.get(m.parent.get(i)) == "module":
                owner = m.qual[i].rsplit(".", 1)[0]
                for t in m.by_qual.get(owner, ()):
                    if m.kind.get(t) in CLASS_KINDS:
                        m.children[t].setdefault(m.name[i], []).append(i)
                        pk.attached[i] = t
                        break

    def provides(self, m, paths):
        out: dict[str, dict[str, list[str]]] = {}
        for path in paths:
            mid = m.file_module.get(path)
            if mid is not None and m.file_lang.get(path) == "go":
                out[path] = {"d:" + posixpath.dirname(path): module_names(m, mid)}
        for i, t in m.ext["go"].attached.items():
            path = m.path.get(i)
            if path in paths and m.path.get(t) != path:
                out.setdefault(path, {}).setdefault("f:" + m.path[t], []).append(
                    f"{m.qual[i]}|{m.sig.get(i)}")
        return out

    def bound_names(self, row):
        alias = row["alias"]
        if alias in ("_",):
            return []
        if alias == ".":
            return ["*"]
        return [alias or (row["module"] or "").rstrip("/").rsplit("/", 1)[-1]]

    # ---------------------------------------------------------------- packages
    def import_dir(self, m, spec: str | None) -> int | None:
        """A module of the repository's package an import path names, or None."""
        if not spec:
            return None
        pk = m.ext["go"]
        cache = pk.import_cache
        if spec in cache:
            return cache[spec]
        pre = pk.prefix
        rel = None
        if pre and (spec == pre or spec.startswith(pre + "/")):
            rel = spec[len(pre):].lstrip("/")
        else:
            for d in pk.dirs:
                if spec.endswith("/" + d) or spec == d:
                    rel = d
                    break
        mods = pk.dirs.get(rel) if rel is not None else None
        cache[spec] = got = mods[0] if mods else None
        return got

    def package_names(self, ev, d: str, with_tests: bool) -> dict[str, list[int]]:
        """Top-level definitions of the Go package in directory `d`, by name (files in
        directory order; `_test.go` files only for code that is itself in a test file)."""
        ev.read_name("d:" + d)
        m = ev.m
        pk = m.ext["go"]
        key = (d, with_tests)
        got = pk.names_cache.get(key)
        if got is None:
            got = pk.names_cache[key] = {}
            for other in pk.dirs.get(d, ()):
                if not with_tests and m.path[other].endswith("_test.go"):
                    continue
                for name, kids in m.children.get(other, {}).items():
                    got.setdefault(name, []).extend(kids)
        return got

    def package_member(self, ev, mid: int | None, name: str):
        if mid is None:
            return None
        m = ev.m
        path = m.path.get(mid, "")
        out = []
        for c in self.package_names(ev, posixpath.dirname(path), path.endswith("_test.go")).get(name, ()):
            if m.kind.get(c) in NAMESPACE_KINDS and m.kind.get(c) != "method":
                out.append((SYM, c))
            elif m.kind.get(c) in VALUE_KINDS:
                out.extend(ev.field_values(c, 1) or [(SYM, c)])
        return out or None

    # ---------------------------------------------------------------- names
    def global_value(self, ev, scope, mod, name, depth):
        got = self.package_member(ev, mod, name)
        if got:
            return frozenset(got), "local"
        if name in GO_BUILTINS:
            return frozenset({(BUILTIN, name)}), "builtin"
        return None

    def import_values(self, ev, row, depth):
        mod = self.import_dir(ev.m, row["module"])
        if mod is not None:
            return {(SYM, mod)}, False
        return {(EXT, row["module"])}, False

    def module_attr_missing(self, ev, mid, name, depth):
        got = self.package_member(ev, mid, name)
        if got:
            return set(got), False
        return set(), False

    def resolve_import(self, ev, row):
        m = ev.m
        mid = self.import_dir(m, row["module"])
        vals = {(SYM, mid)} if mid is not None else {(EXT, row["module"])}
        rpath = (posixpath.dirname(m.path[mid]) or ".") if mid is not None else None
        return vals, "import", rpath

    # ---------------------------------------------------------------- calls and types
    def self_name(self, ev, fn):
        mm = _RECEIVER.match(ev.m.sig.get(fn) or "")
        return mm.group(1) if mm else None

    def declared_return(self, ev, fn):
        sig = ev.m.sig.get(fn) or ""
        i = sig.rfind(")")
        rest = sig[i + 1:].strip()
        if rest.startswith("("):
            rest = split_top(rest[1:-1], (",",))[0] if rest.endswith(")") else ""
        return declared_type(rest.split()[-1] if rest else None)

    def declared_field_type(self, ev, fid):
        sig = (ev.m.sig.get(fid) or "").split("=", 1)[0].strip().rstrip(";")
        bits = sig.split()
        return declared_type(bits[-1]) if len(bits) >= 2 else None

    def params(self, sig):
        if not sig:
            return None
        s = sig
        if s.startswith("func ("):                  # skip the receiver
            j = s.find(")")
            s = "func" + s[j + 1:]
        parts = param_parts(s)
        if parts is None:
            return None
        out = []
        pending: list[str] = []
        for part in parts:
            bits = part.split(None, 1)
            if len(bits) == 1:
                pending.append(bits[0])
            else:
                # the whole type: `fn func(string) string` is a function, not a string
                typ = bits[1].strip()
                for n in pending:
                    out.append(Param(n, typ))
                pending = []
                out.append(Param(bits[0], typ))
        return out

    def special_param(self, ev, fn, name, depth):
        """The receiver of a method: an instance of its type."""
        m = ev.m
        mm = _RECEIVER_TYPE.match(m.sig.get(fn) or "")
        if mm and mm.group(1) == name:
            tv, _ = ev.eval_text(m.module_of(fn), mm.group(2), depth=depth + 1)
            return frozenset((INST, x[1]) for x in tv if x[0] == SYM), "self"
        return None
