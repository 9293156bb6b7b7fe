"""Java: packages (same-package types, single, static and on-demand imports, fully
qualified names), `java.lang`, `this` / `super`, constructors named after their class."""
from __future__ import annotations

from collections import defaultdict

from ..kinds import CLASS_KINDS
from ..values import BUILTIN, BUILTIN_INST, EXT, SYM, declared_type, ordered
from .base import Language, module_names, named_constructor, this_and_super

JAVA_LANG = frozenset("""String Integer Long Double Float Short Byte Character Boolean Math System
    Object Thread Runtime StringBuilder StringBuffer Exception RuntimeException Error
    IllegalArgumentException IllegalStateException NullPointerException Iterable Comparable
    Number Enum Class Void Record CharSequence AutoCloseable Override Deprecated
    UnsupportedOperationException IndexOutOfBoundsException ArithmeticException
    ClassCastException InterruptedException Cloneable Runnable SuppressWarnings
    FunctionalInterface SafeVarargs StrictMath Process ProcessBuilder""".split())


def java_package(m, mid: int) -> str:
    """The package of a Java file module: its first definition's qualname prefix."""
    q = m.qual[mid]
    for kids in m.children.get(mid, {}).values():
        for c in kids:
            cq = m.qual[c]
            n = m.name[c]
            if cq.endswith("." + n):
                return cq[: -len(n) - 1]
            return ""
    return q.rsplit(".", 1)[0] if "." in q else ""


class Java(Language):
    family = "java"
    languages = ("java",)
    literal_types = {"true": "bool", "false": "bool"}
    class_members_in_scope = True
    declared_types_win = True
    bare_names_reach_methods = True
    package_is_directory = True
    export_module_runs = False          # no code outside classes
    export_class_body_caller = True     # field initialisers: credited to their class
    export_follows_calls = True         # same-package types need no import

    def export_name(self, m, sid, name_of):
        """A file module is named by its package (`com.shop`, `` for the default package),
        so members read `com.shop.Cart.add`."""
        if m.parent.get(sid) is None:
            q = m.qual[sid]
            return q.rsplit(".", 1)[0] if "." in q else ""
        return None

    def prepare(self, m) -> None:
        packages: dict[str, list[int]] = defaultdict(list)    # package -> module ids
        for path, mid in m.file_module.items():
            if m.file_lang.get(path) == "java":
                packages[java_package(m, mid)].append(mid)
        m.ext["java"] = packages

    def provides(self, m, paths):
        out = {}
        for path in paths:
            mid = m.file_module.get(path)
            if mid is not None and m.file_lang.get(path) == "java":
                out[path] = {"p:" + java_package(m, mid): module_names(m, mid)}
        return out

    def package(self, ev, pkg: str) -> list[int]:
        """The file modules of package `pkg` (noted as read: `p:PACKAGE`)."""
        ev.read_name("p:" + pkg)
        return ev.m.ext["java"].get(pkg, ())

    def bound_names(self, row):
        target = row["module"] or ""
        if row["name"]:
            target = f"{target}.{row['name']}" if target else row["name"]
        last = target.rsplit(".", 1)[-1]
        return ["*"] if last == "*" else [row["alias"] or last]

    # ---------------------------------------------------------------- names
    def head(self, ev, scope, steps, callee, depth):
        return this_and_super(ev, scope, steps, callee)

    def qualified(self, ev, steps):
        """`com.example.Foo.bar()`: a package path, a class, its members."""
        m = ev.m
        names = []
        for k, st in enumerate(steps):
            if st[0] not in ("name", "attr"):
                break
            names.append(st[1])
            pkg = ".".join(names)
            if k + 1 < len(steps) and steps[k + 1][0] == "attr" and self.package(ev, pkg):
                cls = steps[k + 1][1]
                for mid in self.package(ev, pkg):
                    for c in m.children.get(mid, {}).get(cls, ()):
                        return frozenset({(SYM, c)}), "import", k + 2
        return frozenset(), "unresolved", len(steps)

    def global_value(self, ev, scope, mod, name, depth):
        got = self.package_type(ev, scope, name)
        if got:
            return got
        if name in JAVA_LANG:
            return frozenset({(BUILTIN, "java.lang." + name)}), "builtin"
        return None

    def package_type(self, ev, scope, name):
        """A type of the scope's package, or one an on-demand import brings in."""
        m = ev.m
        mod = m.module_of(scope)
        if mod is None:
            return None
        pkg = java_package(m, mod)
        for other in self.package(ev, pkg):
            for c in m.children.get(other, {}).get(name, ()):
                if m.kind.get(c) in CLASS_KINDS:
                    return frozenset({(SYM, c)}), "local" if other == mod else "import"
        for row in m.star_imports.get(mod, ()):
            got, _ = ev.import_member(row, name, 0)
            if got:
                return frozenset(got), "import"
        return None

    # ---------------------------------------------------------------- imports
    def import_values(self, ev, row, depth):
        m = ev.m
        target = row["module"] or ""
        if row["name"]:
            target = f"{target}.{row['name']}" if target else row["name"]
        target = target.replace("static ", "").strip()
        pkg, _, last = target.rpartition(".")
        for mid in self.package(ev, pkg):
            for c in m.children.get(mid, {}).get(last, ()):
                return {(SYM, c)}, False
        # static import of a member: pkg.Class.member
        ppkg, _, cls = pkg.rpartition(".")
        for mid in self.package(ev, ppkg):
            for c in m.children.get(mid, {}).get(cls, ()):
                for mm in m.children.get(c, {}).get(last, ()):
                    return {(SYM, mm)}, False
        if target.startswith(("java.", "javax.")):
            return {(BUILTIN, target)}, False
        return {(EXT, target)}, False

    def import_member(self, ev, row, name, depth):
        m = ev.m
        pkg = (row["module"] or "")
        if row["name"]:
            pkg = f"{pkg}.{row['name']}" if pkg else row["name"]
        pkg = pkg.rsplit(".", 1)[0]
        for mid in self.package(ev, pkg):
            for c in m.children.get(mid, {}).get(name, ()):
                return {(SYM, c)}, False
        return set(), False

    def resolve_import(self, ev, row):
        vals, _ = self.import_values(ev, row, 0)
        rpath = None
        for v in ordered(vals):
            if v[0] == SYM:
                rpath = ev.m.path.get(v[1])
        return vals, "import", rpath

    # ---------------------------------------------------------------- calls and classes
    def call_builtin(self, ev, name, args, scope, depth):
        return {(BUILTIN_INST, name)} if name.startswith("java.lang.") else set()

    constructor = named_constructor

    def self_name(self, ev, fn):
        return "this"

    def declared_return(self, ev, fn):
        head = (ev.m.sig.get(fn) or "").split("(", 1)[0].split()
        return declared_type(head[-2]) if len(head) >= 2 else None
