"""C and C++: functions and function-like macros of other files by their linker-global
name through included headers, the C standard library, `std::` as external."""
from __future__ import annotations

import posixpath
from collections import defaultdict

from ... import store
from ..kinds import FUNCTION_KINDS
from ..values import BUILTIN, EXT, SYM
from .base import Language, named_constructor

# the C standard library's functions and function-like macros (C11 headers)
C_STDLIB = frozenset("""printf fprintf sprintf snprintf vprintf vfprintf vsprintf vsnprintf scanf
fscanf sscanf vscanf vsscanf puts fputs fgets fputc putc putchar getc getchar fgetc ungetc fopen
freopen fclose fread fwrite fflush fseek ftell fgetpos fsetpos rewind perror remove rename tmpfile
tmpnam setvbuf setbuf feof ferror clearerr malloc calloc realloc free aligned_alloc abort exit
_Exit quick_exit atexit at_quick_exit atoi atol atoll atof strtol strtoul strtoll strtoull strtod
strtof strtold qsort bsearch abs labs llabs div ldiv lldiv rand srand getenv system mblen mbtowc
wctomb strlen strcpy strncpy strcat strncat strcmp strncmp strcoll strxfrm strchr strrchr strstr
strtok strdup strndup memcpy memmove memset memcmp memchr strerror strspn strcspn strpbrk sqrt
cbrt pow fabs floor ceil round trunc lround sin cos tan asin acos atan atan2 sinh cosh tanh exp
exp2 log log2 log10 log1p expm1 hypot fmod remainder fmin fmax fma frexp ldexp modf copysign
nan isnan isinf isfinite signbit isalpha isdigit isspace isupper islower isalnum isxdigit
ispunct isprint iscntrl isgraph isblank toupper tolower assert static_assert time clock
difftime mktime localtime gmtime strftime asctime ctime timespec_get signal raise setjmp
longjmp va_start va_end va_arg va_copy offsetof sizeof alignof errno""".split())


class _Globals:
    """C/C++ name of a function, macro or type -> (id, path, is a declaration, is static);
    file -> headers it includes."""

    def __init__(self, m):
        self.by_name: dict[str, list[tuple]] = defaultdict(list)
        for n, sid, path, decl, vis in store.run(m.con, """
                SELECT s.name, s.symbol_id, s.path, s.is_declaration, s.visibility
                FROM symbols s JOIN symbols p ON p.symbol_id = s.parent_id
                WHERE s.language IN ('c', 'cpp')
                  AND s.kind IN ('function', 'macro', 'class', 'struct', 'union', 'enum', 'namespace')
                  AND p.kind IN ('module', 'namespace') ORDER BY s.symbol_id"""):
            self.by_name[n].append((sid, path, bool(decl), vis == "private"))
        self.by_base: dict[str, list[str]] = defaultdict(list)       # basename -> paths
        for path in sorted(m.file_module):
            if m.file_lang.get(path) in ("c", "cpp"):
                self.by_base[posixpath.basename(path)].append(path)
        self.includes: dict[str, set[str]] = defaultdict(set)
        for row in m.imports:
            if row["family"] in ("c", "cpp") and row["module"]:
                self.includes[row["path"]].add(posixpath.basename(row["module"]))


def _member_path(m, sid: int) -> str:
    """A symbol's qualified name below its file (`geo.Square.area`)."""
    q, mq = m.qual[sid], m.qual.get(m.module_of(sid), "")
    return q[len(mq) + 1:] if mq and q.startswith(mq + ".") else q


class C(Language):
    family = "c"
    languages = ("c",)
    literal_types = {"concatenated_string": "str", "true": "bool", "false": "bool"}
    callable_kinds = FUNCTION_KINDS | {"macro"}     # a function-like macro
    export_module_runs = False                      # no code runs at file level
    export_follows_calls = True                     # the definition behind a header

    def export_name(self, m, sid, name_of):
        """By qualified name: the file without extension, then namespaces and classes
        (`shape.geo.Square.area`), so an out-of-line `Square::area` in `shape.cpp` reads
        as its class's member."""
        return m.qual[sid] if m.parent.get(sid) is not None else None

    def export_definition(self, m, sid):
        """A member declared in a class body (`void push(int);` in `stack.h`) stands for
        its out-of-line definition (`IntStack::push` in any file)."""
        if sid not in m.declarations:
            return sid
        defs = m.ext.get("c.definitions")
        if defs is None:
            defs = m.ext["c.definitions"] = {}
            for d, k in sorted(m.kind.items()):
                if k in FUNCTION_KINDS and m.fam.get(d) in ("c", "cpp") and d not in m.declarations:
                    defs.setdefault(_member_path(m, d), d)
        return defs.get(_member_path(m, sid), sid)

    def export_package_files(self, m, path):
        """Along with a file, the files defining what it declares (a header's prototypes
        and out-of-line members): what the linker brings into the program."""
        idx = m.ext.get("c.defined_in")
        if idx is None:
            defined: dict[str, set[str]] = defaultdict(set)
            declared: dict[str, set[str]] = defaultdict(set)
            for sid, k in m.kind.items():
                if k in FUNCTION_KINDS and m.fam.get(sid) in ("c", "cpp"):
                    (declared if sid in m.declarations else defined)[m.path[sid]].add(m.name[sid])
            by_name: dict[str, set[str]] = defaultdict(set)
            for p, names in defined.items():
                for n in names:
                    by_name[n].add(p)
            idx = m.ext["c.defined_in"] = (declared, by_name)
        declared, by_name = idx
        out = {p for n in declared.get(path, ()) for p in by_name.get(n, ()) if p != path}
        g = m.ext.get("c.globals")
        if g is None:
            g = m.ext["c.globals"] = _Globals(m)
        here = posixpath.dirname(path)
        for base in g.includes.get(path, ()):
            # an included file of the repository: the one beside the includer, else any
            same = [p for p in g.by_base.get(base, ()) if posixpath.dirname(p) == here]
            out.update(same or g.by_base.get(base, ()))
        return sorted(out)

    def provides(self, m, paths):
        out: dict[str, dict[str, list[str]]] = {}
        for sid in m.symbols_in(paths):
            k = m.kind[sid]
            if k in ("function", "macro") and m.fam.get(sid) == self.family:
                out.setdefault(m.path[sid], {}).setdefault("c:" + m.name[sid], []).append(
                    f"{m.qual[sid]}|{k}|{m.sig.get(sid)}|{sid in m.declarations}")
        return out

    def global_value(self, ev, scope, mod, name, depth):
        ev.read_name("c:" + name)
        got = self.linked(ev.m, scope, name)
        if got:
            return got
        if name in C_STDLIB:
            return frozenset({(BUILTIN, name)}), "builtin"
        return None

    def before_helper(self, m) -> None:
        if m.ext.get("c.globals") is None:
            m.ext["c.globals"] = _Globals(m)

    def linked(self, m, scope: int, name: str):
        """A function, macro or type of another C/C++ file, by its (linker-global) name, when the
        caller's file includes a header that declares or defines it: the one definition
        (`static` ones only from their own file), else the declarations."""
        g = m.ext.get("c.globals")
        if g is None:
            g = m.ext["c.globals"] = _Globals(m)
        cands = g.by_name.get(name)
        if not cands:
            return None
        here = m.path.get(scope)
        seen = [c for c in cands if not (c[3] and c[1] != here)]
        includes = g.includes.get(here, ())
        if not any(c[1] == here or posixpath.basename(c[1]) in includes for c in seen):
            return None                       # no include says which one: a guess by name
        pick = [c for c in seen if not c[2]] or seen
        return frozenset((SYM, c[0]) for c in pick), "import"


class Cpp(C):
    family = "cpp"
    languages = ("cpp",)
    literal_types = {"concatenated_string": "str", "true": "bool", "false": "bool",
                     "raw_string_literal": "string"}

    constructor = named_constructor           # the member named after its class

    def import_values(self, ev, row, depth):
        """`using ns::name;`: the name looked up as `ns::name` where the using stands."""
        mod, name = row["module"], row["name"]
        if not mod or not name or name == "*":
            return set(), False
        scope = row["scope"] if row["scope"] is not None else ev.m.file_module.get(row["path"])
        if scope is None:
            return set(), False
        vals, _ = ev.eval_text(scope, f"{mod}::{name}", depth=depth + 1)
        return set(vals), False

    def global_value(self, ev, scope, mod, name, depth):
        got = super().global_value(ev, scope, mod, name, depth)
        if got is None and name == "std":
            return frozenset({(EXT, "std")}), "external"
        return got
