"""Rust: `impl` blocks belong to their type, module paths (`crate::`, `super::`, `self::`,
`mod x;` files), `use` imports and re-exports, the prelude and the standard macros,
`macro_rules!` by name, `self` / `Self`."""
from __future__ import annotations

import posixpath
from collections import defaultdict

import re

from ..kinds import CLASS_KINDS
from ..values import BUILTIN, EXT, INST, SYM, Param, declared_type, param_parts
from .base import Language

# names every Rust module sees (the std prelude) and the standard library's macros
RUST_PRELUDE = frozenset("""Some None Ok Err Box Vec String Option Result drop Default Clone Copy
Send Sync Sized Unpin Fn FnMut FnOnce Drop Iterator IntoIterator DoubleEndedIterator
ExactSizeIterator Extend FromIterator ToOwned ToString AsRef AsMut Into From TryFrom TryInto
PartialEq Eq PartialOrd Ord Debug Hash""".split())
RUST_STD_MACROS = frozenset("""assert assert_eq assert_ne debug_assert debug_assert_eq
debug_assert_ne panic print println eprint eprintln format format_args write writeln vec
matches todo unimplemented unreachable dbg cfg env option_env concat stringify include
include_str include_bytes file line column module_path compile_error thread_local
is_x86_feature_detected""".split())
# a file module's children live in a directory: `src/a.rs` -> `src/a/`, `src/a/mod.rs` /
# `src/lib.rs` / `src/main.rs` -> their own directory
_DIR_OWNERS = ("mod.rs", "lib.rs", "main.rs")


_FN_HEAD = re.compile(r"\bfn\s+\w+\s*")
_TYPE_PREFIX = re.compile(r"^(?:&\s*(?:'\w+\s+)?|mut\s+|dyn\s+|impl\s+)+")


def _skip_generics(sig: str) -> str:
    """`fn f<F: Fn(i32) -> i32>(f: F)` -> `fn f(f: F)`: the parameter list comes first."""
    mm = _FN_HEAD.search(sig)
    if not mm or not sig.startswith("<", mm.end()):
        return sig
    depth, j = 0, mm.end()
    while j < len(sig):
        c = sig[j]
        if c == "<":
            depth += 1
        elif c == ">" and sig[j - 1] != "-":
            depth -= 1
            if depth == 0:
                return sig[:mm.end()] + sig[j + 1:]
        j += 1
    return sig


def rust_type(text: str | None) -> str | None:
    """`&'a mut dyn Log` / `impl Shape` / `Box<Foo>` -> the type name (`Log`, `Shape`, `Box`)."""
    if not text:
        return None
    t = _TYPE_PREFIX.sub("", text.strip()).replace("::", ".")
    return declared_type(t)


class _Crate:
    """Per-model Rust indexes: impl block -> its type, lazily macros and directory owners."""

    def __init__(self):
        self.impl_type: dict[int, int] = {}
        self.macros: dict[str, list[int]] | None = None       # built on the first macro call
        self.dir_owner: dict[str, int] | None = None          # built on the first module path


def _children_dir(path: str) -> str:
    base = posixpath.basename(path)
    d = posixpath.dirname(path)
    if base in _DIR_OWNERS:
        return d
    return posixpath.join(d, base[:-3]) if base.endswith(".rs") else d


class Rust(Language):
    family = "rust"
    prepare_adds_members = True
    languages = ("rust",)
    literal_types = {"raw_string_literal": "string"}
    type_part_kinds = frozenset({"impl"})
    export_module_runs = False           # items only: no code runs at module level
    export_follows_calls = True          # `mod x;` files are part of the crate unasked

    def export_name(self, m, sid, name_of):
        """Module paths from the crate root, dotted: `crate`, `crate.util`, `crate.a.b`
        (`a/b.rs` or `a/b/mod.rs`), inline `mod t {}` inside its module; an `impl` block's
        items are named through their type (`crate.util.Counter.new`)."""
        k = m.kind.get(sid)
        if m.parent.get(sid) is None:
            up = self.parent_module(m, sid)
            if up is None or up == sid:
                return "crate"
            path = m.path.get(sid, "")
            base = posixpath.basename(path)
            stem = posixpath.basename(posixpath.dirname(path)) if base == "mod.rs" else base[:-3]
            return f"{name_of(up)}.{stem}"
        if k == "module":
            owner = self.module(m, m.parent.get(sid))
            return f"{name_of(owner)}.{m.name[sid]}" if owner is not None else None
        if k == "impl":
            t = m.ext["rust"].impl_type.get(sid)
            return name_of(t) if t is not None else None
        return None

    def export_builtin(self, name):
        """Macros expand (`println!`), enum variants construct (`Some(x)`): no calls."""
        if name.endswith("!") or name in ("Some", "None", "Ok", "Err"):
            return None
        return super().export_builtin(name)

    def prepare(self, m) -> None:
        """An impl block's items are members of the type it implements (same qualname)."""
        crate = m.ext["rust"] = _Crate()
        for i in m.type_parts:
            if m.fam.get(i) != "rust":
                continue
            t = next((t for t in m.by_qual.get(m.qual[i], ()) if m.kind.get(t) in CLASS_KINDS), None)
            if t is None:
                continue
            crate.impl_type[i] = t
            for n, kids in m.children.get(i, {}).items():
                m.children[t].setdefault(n, []).extend(kids)

    def provides(self, m, paths):
        out: dict[str, dict[str, list[str]]] = {}
        for i, t in m.ext["rust"].impl_type.items():
            path = m.path.get(i)
            if path in paths and m.path.get(t) != path:
                out.setdefault(path, {}).setdefault("f:" + m.path[t], []).extend(
                    f"{m.qual[c]}|{m.kind.get(c)}|{m.sig.get(c)}"
                    for kids in m.children.get(i, {}).values() for c in kids)
        for sid in m.symbols_in(paths):
            k = m.kind[sid]
            if k == "macro" and m.fam.get(sid) == "rust":
                out.setdefault(m.path[sid], {}).setdefault("r:" + m.name[sid], []).append(m.qual[sid])
        return out

    def prepare_bases(self, m) -> None:
        """`impl Trait for T`: T gets the trait's methods."""
        for i, t in m.ext["rust"].impl_type.items():
            for dst in m.bases_written.get(i, ()):
                m.bases_written[t].append(dst)
                m.subclasses_written[dst.rsplit(".", 1)[-1]].append(t)

    def bound_names(self, row):
        mod, name, alias = row["module"], row["name"], row["alias"]
        if name == "*":
            return ["*"]
        if name == "self":                  # `use std::io::{self}` binds `io`
            return [alias or (mod or "").rsplit("::", 1)[-1]]
        return [alias or (name or mod or "").rsplit("::", 1)[-1]]

    # ---------------------------------------------------------------- module paths
    def dirs(self, m) -> dict[str, int]:
        """Directory -> the file module whose children live there."""
        crate = m.ext["rust"]
        if crate.dir_owner is None:
            crate.dir_owner = {}
            for path, mid in m.file_module.items():
                if m.file_lang.get(path) == "rust":
                    crate.dir_owner.setdefault(_children_dir(path), mid)
        return crate.dir_owner

    def mod_file(self, m, d: int) -> int:
        """The file module a `mod name;` declaration loads (itself for an inline module)."""
        if m.children.get(d) or m.parent.get(d) is None:
            return d
        owner = m.module_of(d)
        sub = posixpath.join(_children_dir(m.path.get(owner, "")), m.name[d])
        return m.file_module.get(sub + ".rs") or m.file_module.get(sub + "/mod.rs") or d

    def module(self, m, scope: int | None) -> int | None:
        """The module (inline or file) whose items `scope` sees."""
        s = scope
        while s is not None and m.kind.get(s) != "module":
            s = m.parent.get(s)
        return s

    def parent_module(self, m, mod: int) -> int | None:
        p = m.parent.get(mod)
        if p is not None:                    # an inline module: the module around it
            return self.module(m, p)
        path = m.path.get(mod, "")
        base = posixpath.basename(path)
        if base in ("lib.rs", "main.rs"):
            return None
        d = posixpath.dirname(path)
        if base == "mod.rs":
            d = posixpath.dirname(d)
        return self.dirs(m).get(d)           # `src/a.rs` or `src/a/mod.rs` owns `src/a/`

    def crate_root(self, m, mod: int) -> int:
        seen = set()
        while mod not in seen:
            seen.add(mod)
            up = self.parent_module(m, mod)
            if up is None:
                return mod
            mod = up
        return mod

    def child_module(self, m, mod: int, name: str) -> int | None:
        for d in m.children.get(mod, {}).get(name, ()):
            if m.kind.get(d) == "module":
                return self.mod_file(m, d)
        if m.parent.get(mod) is None:        # a file module: a file below its directory
            sub = posixpath.join(_children_dir(m.path.get(mod, "")), name)
            return m.file_module.get(sub + ".rs") or m.file_module.get(sub + "/mod.rs")
        return None

    def path_start(self, m, scope: int, head: str) -> int | None:
        """The repository module a path starting with `head` begins at, or None (another crate)."""
        here = self.module(m, scope)
        if here is None:
            return None
        if head == "crate":
            return self.crate_root(m, here)
        if head == "self":
            return here
        if head == "super":
            return self.parent_module(m, here)
        got = self.child_module(m, here, head)
        if got is None:                      # 2015-style paths start at the crate root
            got = self.child_module(m, self.crate_root(m, here), head)
        return got

    def self_type(self, m, scope: int | None) -> int | None:
        """The type `self` / `Self` stand for in `scope`: the type of the enclosing `impl`
        block, or the enclosing trait (its default methods) or type."""
        s = scope
        impl_type = m.ext["rust"].impl_type
        while s is not None:
            k = m.kind.get(s)
            if k == "impl":
                return impl_type.get(s)
            if k in CLASS_KINDS:
                return s
            s = m.parent.get(s)
        return None

    # ---------------------------------------------------------------- names
    def head(self, ev, scope, steps, callee, depth):
        name = steps[0][1]
        m = ev.m
        if name in ("self", "Self"):
            t = self.self_type(m, scope)
            if t is not None:
                return frozenset({(INST if name == "self" else SYM, t)}), "self", 1
            here = self.module(m, scope)     # `self::f()` outside an impl: this module
            return (frozenset({(SYM, here)}) if here is not None else frozenset()), "local", 1
        if name in ("crate", "super") and len(steps) > 1:
            start = self.path_start(m, scope, name)
            return (frozenset({(SYM, start)}) if start is not None else frozenset()), "local", 1
        return None

    # ---------------------------------------------------------------- signatures
    def params(self, sig):
        """`fn f(&self, name: Type, mut n: u8)`: the named parameters with their types
        (`self` is the head `self`, patterns are left out)."""
        parts = param_parts(_skip_generics(sig)) if sig else None
        if parts is None:
            return None
        out = []
        for part in parts:
            name, sep, typ = part.partition(":")
            name = name.replace("mut ", "").strip()
            if sep and name.isidentifier():
                out.append(Param(name, rust_type(typ)))
        return out

    def declared_return(self, ev, fn):
        sig = _skip_generics(ev.m.sig.get(fn) or "")
        i = sig.rfind("->")
        if i < 0 or sig.rfind(")") > i:
            return None
        return rust_type(re.split(r"\bwhere\b", sig[i + 2:], 1)[0])

    def global_value(self, ev, scope, mod, name, depth):
        if name in RUST_PRELUDE:
            return frozenset({(BUILTIN, name)}), "builtin"
        return None

    def definition_values(self, ev, d, depth):
        m = ev.m
        if m.kind.get(d) == "module":
            d = self.mod_file(m, d)          # `mod util;` stands for the file util.rs
        return {(SYM, d)}

    # ---------------------------------------------------------------- imports
    def import_values(self, ev, row, depth):
        """`use a::b::c [as d]`: the item `c` walked from module `a` in the repository, or
        an external name (`std.sync.Arc`) when the path starts in another crate."""
        m = ev.m
        mod, name = row["module"] or "", row["name"]
        segs = [x for x in mod.split("::") if x]
        if name and name not in ("self", "*"):
            segs += [x for x in name.split("::") if x]
        if not segs:
            return set(), False
        scope = row["scope"]
        cur = self.path_start(m, scope, segs[0]) if scope is not None else None
        if cur is None:
            return {(EXT, ".".join(x for x in segs if x not in ("crate", "self", "super")))}, False
        for i, seg in enumerate(segs[1:], 1):
            if seg == "super":
                cur = self.parent_module(m, cur)
            elif i < len(segs) - 1:
                cur = self.child_module(m, cur, seg)
            else:
                sub = self.child_module(m, cur, seg)
                if sub is not None:
                    return {(SYM, sub)}, False
                got, via = ev.module_attr(cur, seg, depth + 1)
                if not got:                  # a `const`, `static` or type alias: the item itself
                    got = {(SYM, d) for d in m.children.get(cur, {}).get(seg, ())}
                return set(got), via
            if cur is None:
                return set(), False
        return {(SYM, cur)}, False

    def resolve_import(self, ev, row):
        vals, via = self.import_values(ev, row, 0)
        how = "reexport" if via else ("alias" if row["alias"] else "import")
        rpath = None
        for v in sorted(vals, key=repr):
            if v[0] == SYM:
                rpath = ev.m.path.get(v[1])
                break
        return vals, how, rpath

    # ---------------------------------------------------------------- macros
    def special_call(self, ev, scope, text):
        """A macro call `path!(...)`: a `macro_rules!` of the repository by name (the one in
        the caller's file first), else a standard library macro, else unresolved."""
        if not text.endswith("!"):
            return None
        m = ev.m
        crate = m.ext["rust"]
        if crate.macros is None:
            crate.macros = defaultdict(list)
            for i, k in m.kind.items():
                if k == "macro" and m.fam.get(i) == "rust":
                    crate.macros[m.name[i]].append(i)
        name = text[:-1].rsplit("::", 1)[-1]
        ev.read_name("r:" + name)
        found = crate.macros.get(name, ())
        here = [i for i in found if m.path.get(i) == m.path.get(scope)]
        if here:
            return [(SYM, here[-1])], "local"
        if found:
            return [(SYM, i) for i in found], "inferred"
        if name in RUST_STD_MACROS:
            return [(BUILTIN, name + "!")], "builtin"
        return [], "unresolved"
