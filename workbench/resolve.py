"""Cross-file resolution of `calls`, `imports`, `inherits` and `implements` edges (issue 3).

`resolve_edges(con, changed_paths)` fills `edges.dst_id`, `dst_qualname`, `resolution`
and `candidates`, and `imports.resolved_path`, reading only the tables (symbols, edges,
imports, bindings): the pipeline runs one way and nothing is re-parsed.

How an edge was resolved is always said (`edges.resolution`):

=============  ==========================================================================
local          a definition in the same file reached through lexical scope
self           `self.m()` / `cls.m()` / `this.m()`: the enclosing class or a base (MRO)
super          `super().m()` / `super.m()`: the next class in the MRO
import         through an import of the defining module (`from m import f`, `m.f()`)
alias          through an import under another name (`import m as n`, `from m import f as g`)
reexport       through a module that re-exports the name (`__init__.py`, a barrel `index.ts`)
inferred       through a value the code makes evident: `x = A(); x.m()`, `self.x = B()`,
               a typed parameter or declaration, a function passed as an argument, ...
name-unique    the receiver is unknown; exactly one callable of that name exists in the repo
ambiguous      several targets are possible: `candidates` lists them (qualnames), dst_id NULL
builtin        a builtin of the language (`len`, `print`, `console.log`, Go `append`)
external       outside the repository, named by its import path (`os.path.join`)
unresolved     nothing evident; dst_id NULL
=============  ==========================================================================

No edge is bound by its name alone unless it says `name-unique`. Resolution works on the
whole set at once: the needed columns are loaded into dicts, every edge is evaluated, and
only changed rows are written back with one `UPDATE ... FROM` over an Arrow table.

Incremental runs (`changed_paths` given) re-resolve the edges of the changed files, the
edges that pointed into them (their `dst_id` no longer exists, or a candidate vanished),
and the edges whose target name or class hierarchy the change may affect. They turn
bindings into Python objects only for the files evaluation reaches (argument rows: only
for the callee names it asks about), from the same bulk query kept as Arrow, and rebuild
`call_candidates` only for the edges they touched (plus rows a change made stale).
"""
from __future__ import annotations

import builtins as _py_builtins
import posixpath
import re
import time
from collections import defaultdict
from dataclasses import dataclass, field

import pyarrow as pa

from . import store
from .gcpause import gc_paused
from .versions import resolver_version
from .exprs import (alternatives, first_arg, literal_items, literal_pairs, parse_chain,
                    split_top, string_value)

RESOLVER_VERSION = resolver_version()      # a database resolved by other code is resolved again in full
RESOLUTIONS = ("local", "self", "super", "import", "alias", "reexport", "inferred",
               "name-unique", "ambiguous", "builtin", "external", "unresolved")
RESOLVED_KINDS = ("calls", "imports", "inherits", "implements")
MAX_CANDIDATES = 25

FAMILY = {"python": "python", "javascript": "ecma", "typescript": "ecma", "tsx": "ecma",
          "java": "java", "go": "go"}
NS_KINDS = frozenset({"module", "function", "method", "class", "lambda", "interface", "struct",
                      "enum", "trait", "impl", "namespace", "record", "constructor", "object"})
CLASS_KINDS = frozenset({"class", "interface", "struct", "enum", "trait", "record", "object"})
FUNC_KINDS = frozenset({"function", "method", "lambda", "constructor"})
CALLABLE_KINDS = frozenset({"function", "method", "constructor", "class", "struct", "record"})
VALUE_KINDS = frozenset({"variable", "field", "constant", "property"})

PY_BUILTINS = frozenset(dir(_py_builtins))
PY_BUILTIN_TYPES = frozenset(n for n in PY_BUILTINS if isinstance(getattr(_py_builtins, n), type))
PY_LITERAL_TYPES = {"list": "list", "list_comprehension": "list", "dictionary": "dict",
                    "dictionary_comprehension": "dict", "set": "set", "set_comprehension": "set",
                    "tuple": "tuple", "string": "str", "concatenated_string": "str",
                    "integer": "int", "float": "float", "true": "bool", "false": "bool",
                    "array": "Array", "object": "Object", "template_string": "String",
                    "number": "Number", "interpreted_string_literal": "string",
                    "raw_string_literal": "string", "int_literal": "int"}
PY_VALUE_DECORATORS = frozenset({"property", "staticmethod", "classmethod", "cached_property",
                                 "functools.cached_property", "abstractmethod", "abc.abstractmethod",
                                 "functools.wraps", "wraps", "dataclass", "dataclasses.dataclass",
                                 "functools.total_ordering", "total_ordering", "overload",
                                 "typing.overload", "override", "typing.override", "final",
                                 "functools.lru_cache", "lru_cache", "functools.cache", "cache",
                                 "contextlib.contextmanager", "contextmanager"})
ECMA_GLOBALS = frozenset("""console Math JSON Object Array Promise Date Number String Boolean Symbol
    Map Set WeakMap WeakSet Error TypeError RangeError SyntaxError ReferenceError RegExp parseInt
    parseFloat isNaN isFinite setTimeout clearTimeout setInterval clearInterval setImmediate fetch
    require process Buffer document window globalThis encodeURIComponent decodeURIComponent
    encodeURI decodeURI structuredClone queueMicrotask Reflect Proxy BigInt Intl URL
    URLSearchParams AbortController TextEncoder TextDecoder alert atob btoa crypto performance
    navigator localStorage sessionStorage module exports __dirname __filename Function
    ArrayBuffer Uint8Array Int32Array Float64Array DataView Atomics WebAssembly eval
    Headers Request Response FormData Blob File Event EventTarget CustomEvent""".split())
ECMA_CLASSES = frozenset("""Object Array Promise Date Number String Boolean Symbol Map Set WeakMap
    WeakSet Error TypeError RangeError SyntaxError ReferenceError RegExp URL URLSearchParams
    AbortController TextEncoder TextDecoder ArrayBuffer Uint8Array Int32Array Float64Array DataView
    Headers Request Response FormData Blob File Event EventTarget CustomEvent Proxy""".split())
GO_BUILTINS = frozenset("""append cap clear close complex copy delete imag len make max min new
    panic print println real recover string int int8 int16 int32 int64 uint uint8 uint16
    uint32 uint64 uintptr float32 float64 byte rune bool error any complex64 complex128""".split())
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

JAVA_LANG = frozenset("""String Integer Long Double Float Short Byte Character Boolean Math System
    Object Thread Runtime StringBuilder StringBuffer Exception RuntimeException Error
    IllegalArgumentException IllegalStateException NullPointerException Iterable Comparable
    Number Enum Class Void Record CharSequence AutoCloseable Override Deprecated
    UnsupportedOperationException IndexOutOfBoundsException ArithmeticException
    ClassCastException InterruptedException Cloneable Runnable SuppressWarnings
    FunctionalInterface SafeVarargs StrictMath Process ProcessBuilder""".split())
_CONTAINER_METHODS = frozenset({"get", "pop", "setdefault", "values", "copy", "__getitem__",
                                "find", "at", "shift", "__iter__"})
ECMA_EXTS = (".ts", ".tsx", ".d.ts", ".js", ".jsx", ".mjs", ".cjs", ".mts", ".cts")

# A value the evaluator tracks (plain tuples, hashable):
#   ("s", id)     a symbol: function, method, class, module, lambda
#   ("b", id)     a method reached through an instance (its first parameter is implicit)
#   ("i", id)     an instance of the class `id`
#   ("x", name)   something outside the repository, by dotted import path
#   ("xi", name)  what calling that external thing returned
#   ("B", name)   a builtin (`len`, `list.append`)
#   ("Bi", name)  an instance of a builtin type (`list`, `str`, `Array`)
#   ("c", scope, name)  the elements of a container named `name` in `scope` ("<yield>": yields)
#   ("L", scope, text)  the elements of a literal written `text` in `scope`
#   ("S", cls, inst)    `super()` inside class `cls`
#   ("m", id)     an ES / CommonJS module object as a value (`import * as ns`, `require`)


@dataclass
class ResolveStats:
    edges: int = 0                  # edges evaluated
    updated: int = 0                # rows written back
    files: int = 0                  # source files whose edges were evaluated
    full: bool = True
    seconds: float = 0.0
    by_resolution: dict = field(default_factory=dict)

    def __str__(self) -> str:
        kinds = ", ".join(f"{k} {v}" for k, v in sorted(self.by_resolution.items(), key=lambda kv: -kv[1]))
        return (f"resolved {self.edges} edges of {self.files} files "
                f"({'full' if self.full else 'incremental'}) in {self.seconds:.2f}s, "
                f"{self.updated} rows updated: {kinds}")


def _cols(con, sql: str, params=None) -> dict[str, list]:
    tbl = con.sql(sql, params=params).to_arrow_table() if params is not None else con.sql(sql).to_arrow_table()
    return {name: tbl.column(name).to_pylist() for name in tbl.column_names}


# ====================================================================== the model

class Model:
    """Everything resolution needs, loaded once: symbols, modules, imports, bindings."""

    def __init__(self, con, bulk_bindings: bool = True):
        self.con = con
        f = _cols(con, "SELECT file_id, path, language, module FROM files WHERE status <> 'skipped'")
        self.file_lang = dict(zip(f["path"], f["language"]))
        self.paths = set(f["path"])
        s = _cols(con, """SELECT symbol_id, path, language, kind, name, qualname, parent_id, signature,
                                 decorators, start_line FROM symbols ORDER BY symbol_id""")
        self.kind = dict(zip(s["symbol_id"], s["kind"]))
        self.name = dict(zip(s["symbol_id"], s["name"]))
        self.qual = dict(zip(s["symbol_id"], s["qualname"]))
        self.parent = dict(zip(s["symbol_id"], s["parent_id"]))
        self.path = dict(zip(s["symbol_id"], s["path"]))
        self.lang = dict(zip(s["symbol_id"], s["language"]))
        self.sig = dict(zip(s["symbol_id"], s["signature"]))
        self.decos = {i: d for i, d in zip(s["symbol_id"], s["decorators"]) if d}
        self.line = dict(zip(s["symbol_id"], s["start_line"]))
        self.fam = {i: FAMILY.get(lang, lang) for i, lang in zip(s["symbol_id"], s["language"])}
        self.static = set()                 # @staticmethod
        self.classmeth = set()              # @classmethod
        self.prop = set()                   # @property and friends
        for i, decos in self.decos.items():
            for d in decos:
                if d.startswith("@staticmethod"):
                    self.static.add(i)
                elif d.startswith("@classmethod"):
                    self.classmeth.add(i)
                elif d.startswith(("@property", "@functools.cached_property", "@cached_property")):
                    self.prop.add(i)
        self.children: dict[int, dict[str, list[int]]] = defaultdict(dict)
        self.file_module: dict[str, int] = {}
        self.by_name: dict[tuple[str, str], list[int]] = defaultdict(list)
        self.by_qual: dict[str, list[int]] = defaultdict(list)
        impls = []                          # Rust `impl` blocks: not names, parts of a type
        for i, k, n, p, path, lang, q in zip(s["symbol_id"], s["kind"], s["name"], s["parent_id"],
                                             s["path"], s["language"], s["qualname"]):
            if p is None:
                if k == "module":
                    self.file_module[path] = i
                continue
            self.by_qual[q].append(i)
            if k == "impl" and lang == "rust":
                impls.append(i)
                continue
            self.children[p].setdefault(n, []).append(i)
            if k in CALLABLE_KINDS:
                self.by_name[(FAMILY.get(lang, lang), n)].append(i)
        # Rust: an impl block's items are members of the type it implements (same qualname)
        self.impl_type: dict[int, int] = {}
        for i in impls:
            t = next((t for t in self.by_qual.get(self.qual[i], ()) if self.kind.get(t) in CLASS_KINDS), None)
            if t is None:
                continue
            self.impl_type[i] = t
            for n, kids in self.children.get(i, {}).items():
                self.children[t].setdefault(n, []).extend(kids)
        # Go methods are declared beside their type: attach them to it
        for i, k in self.kind.items():
            if k == "method" and self.fam.get(i) == "go" and self.kind.get(self.parent.get(i)) == "module":
                owner = self.qual[i].rsplit(".", 1)[0]
                for t in self.by_qual.get(owner, ()):
                    if self.kind.get(t) in CLASS_KINDS:
                        self.children[t].setdefault(self.name[i], []).append(i)
                        break
        # modules by dotted name (Python, Java packages) and ES module files
        self.py_modules: dict[str, int] = {}
        self.py_module_alias: dict[str, int | None] = {}
        py_dirs_with_init = set()
        for path, lang in self.file_lang.items():
            if lang == "python" and posixpath.basename(path).startswith("__init__."):
                py_dirs_with_init.add(posixpath.dirname(path))
        for path, mid in self.file_module.items():
            lang = self.file_lang.get(path)
            if lang == "python":
                q = self.qual[mid]
                if q not in self.py_modules or path.endswith(".py"):
                    self.py_modules[q] = mid
                parts = q.split(".")
                d = posixpath.dirname(path)
                dirs = []
                while d:
                    dirs.append(d)
                    d = posixpath.dirname(d)
                dirs.reverse()          # outermost first
                # importable as parts[k:] when the directories below the root are packages
                for k in range(1, len(parts)):
                    if not all(x in py_dirs_with_init for x in dirs[k:]):
                        continue
                    if dirs[k - 1] in py_dirs_with_init and k - 1 >= 0 and all(
                            x in py_dirs_with_init for x in dirs[k - 1:]):
                        continue        # parent is a package too: not a source root
                    alias = ".".join(parts[k:])
                    if alias in self.py_module_alias and self.py_module_alias[alias] != mid:
                        self.py_module_alias[alias] = None
                    else:
                        self.py_module_alias[alias] = mid
        self.ecma_files = {p for p, lang in self.file_lang.items() if FAMILY.get(lang) == "ecma"}
        self.java_packages: dict[str, list[int]] = defaultdict(list)   # package -> module ids
        self.go_dirs: dict[str, list[int]] = defaultdict(list)         # directory -> module ids
        for path, mid in self.file_module.items():
            lang = self.file_lang.get(path)
            if lang == "java":
                self.java_packages[self._java_package(mid)].append(mid)
            elif lang == "go":
                self.go_dirs[posixpath.dirname(path)].append(mid)
        self.go_module_prefix = self._go_module_prefix()
        self.fallback_cache: dict[tuple, tuple] = {}   # (family, name|attr, name) -> guess by name
        self.rust_macros: dict[str, list[int]] | None = None   # built on the first macro call
        self.c_globals: dict[str, list[tuple]] | None = None   # C/C++ name -> (id, path, decl, static)
        self.c_includes: dict[str, set[str]] = {}               # file -> basenames it #includes
        self.rust_dir_owner: dict[str, int] | None = None      # built on the first module path
        # imports
        imp = _cols(con, """SELECT rowid AS rid, path, src_id, module, name, alias, line, resolved_path
                            FROM imports""")
        self.imports = [dict(zip(imp.keys(), row)) for row in zip(*imp.values())] if imp else []
        self.imports_by_scope: dict[int, dict[str, list[dict]]] = defaultdict(dict)
        self.star_imports: dict[int, list[dict]] = defaultdict(list)
        for row in self.imports:
            lang = self.file_lang.get(row["path"])
            fam = FAMILY.get(lang, lang)
            row["family"] = fam
            scope = self.ns(row["src_id"]) if row["src_id"] is not None else self.file_module.get(row["path"])
            row["scope"] = scope
            for bound in self._bound_names(row, fam):
                if bound == "*":
                    self.star_imports[scope].append(row)
                else:
                    self.imports_by_scope[scope].setdefault(bound, []).append(row)
        # inherits / implements (all of them: MRO crosses files)
        inh = _cols(con, """SELECT src_id, dst_name, kind FROM edges
                            WHERE kind IN ('inherits', 'implements') ORDER BY edge_id""")
        self.bases_written: dict[int, list[str]] = defaultdict(list)
        self.subclasses_written: dict[str, list[int]] = defaultdict(list)
        for src, dst, k in zip(inh["src_id"], inh["dst_name"], inh["kind"]):
            self.bases_written[src].append(dst)
            self.subclasses_written[dst.rsplit(".", 1)[-1]].append(src)
        for i, t in self.impl_type.items():     # `impl Trait for T`: T gets the trait's methods
            for dst in self.bases_written.get(i, ()):
                self.bases_written[t].append(dst)
                self.subclasses_written[dst.rsplit(".", 1)[-1]].append(t)
        # bindings: by scope, loaded per file on demand (or all at once)
        self._bind_loaded = False
        self.binds: dict[int, dict[str, list[tuple]]] = defaultdict(dict)   # scope -> name -> rows
        self.returns: dict[int, list[tuple]] = defaultdict(list)            # scope -> rows
        self.yields: dict[int, list[tuple]] = defaultdict(list)
        self.elements: dict[int, dict[str, list[tuple]]] = defaultdict(dict)
        self.attr_binds: dict[int, list[tuple]] = defaultdict(list)         # scope -> (target, row)
        self.exports: dict[int, dict[str, list[tuple]]] = defaultdict(dict)  # module -> name -> rows
        self.receivers: dict[tuple, list[str]] = {}     # (scope, line, method) -> receiver texts
        self.args_by_callee: dict[str, list[tuple]] = defaultdict(list)
        self._lazy = not bulk_bindings     # incremental: bindings per file, arguments per callee
        self._lazy_tbl = None
        self._lazy_paths: dict[str, tuple[int, int]] = {}
        self._lazy_keys: dict[str, tuple[int, int]] = {}
        self._lazy_key_idx = None
        self._lazy_loaded: set[str] = set()
        if bulk_bindings:
            self._load_bindings(None)

    # ------------------------------------------------------------ small helpers
    def ns(self, sid: int | None) -> int | None:
        """The namespace a symbol's code runs in: itself, or its nearest namespace ancestor."""
        k = self.kind
        while sid is not None and k.get(sid) not in NS_KINDS:
            sid = self.parent.get(sid)
        return sid

    def family(self, sid: int) -> str:
        return self.fam.get(sid)

    def module_of(self, sid: int) -> int | None:
        return self.file_module.get(self.path.get(sid))

    def enclosing_class(self, sid: int | None) -> int | None:
        while sid is not None:
            if self.kind.get(sid) in CLASS_KINDS:
                return sid
            sid = self.parent.get(sid)
        return None

    def _java_package(self, mid: int) -> str:
        q = self.qual[mid]
        for kids in self.children.get(mid, {}).values():
            for c in kids:
                cq = self.qual[c]
                n = self.name[c]
                if cq.endswith("." + n):
                    return cq[: -len(n) - 1]
                return ""
        return q.rsplit(".", 1)[0] if "." in q else ""

    def _go_module_prefix(self) -> str | None:
        try:
            rows = store.run(self.con, "SELECT value FROM meta WHERE key = 'root'")
            if not rows:
                return None
            import os
            root = rows[0][0]
            for cand in ("go.mod",) + tuple(sorted(p for p in self.paths if p.endswith("/go.mod"))):
                fp = os.path.join(root, cand)
                if os.path.exists(fp):
                    with open(fp, encoding="utf-8", errors="replace") as fh:
                        for line in fh:
                            if line.startswith("module "):
                                return line.split()[1].strip()
        except Exception:
            return None
        return None

    @staticmethod
    def _bound_names(row: dict, fam: str) -> list[str]:
        mod, name, alias = row["module"], row["name"], row["alias"]
        if fam == "python":
            if name == "*":
                return ["*"]
            if name:
                return [alias or name.split(".")[-1]]
            if alias:
                return [alias]
            return [(mod or "").lstrip(".").split(".")[0]] if mod else []
        if fam == "ecma":
            if name == "*" and not alias:
                return ["*"]
            if alias:
                return [alias]
            if name and name not in ("default", "*"):
                return [name]
            return []
        if fam == "java":
            target = mod or ""
            if name:
                target = f"{target}.{name}" if target else name
            last = target.rsplit(".", 1)[-1]
            return ["*"] if last == "*" else [alias or last]
        if fam == "go":
            if alias in ("_",):
                return []
            if alias == ".":
                return ["*"]
            return [alias or (mod or "").rstrip("/").rsplit("/", 1)[-1]]
        if fam == "rust":
            if name == "*":
                return ["*"]
            if name == "self":                  # `use std::io::{self}` binds `io`
                return [alias or (mod or "").rsplit("::", 1)[-1]]
            return [alias or (name or mod or "").rsplit("::", 1)[-1]]
        return [alias or name or (mod or "").rsplit(".", 1)[-1]]

    # ------------------------------------------------------------ bindings
    def ensure_bindings(self, path: str | None) -> None:
        """The bindings of `path`: all of them once, in bulk (see `_load_bindings`), or in
        incremental runs only those of the files evaluation reaches (`_load_path`)."""
        if self._bind_loaded:
            return
        if not self._lazy:
            self._load_bindings(None)
        elif path is not None and path not in self._lazy_loaded:
            self._load_path(path)

    # the callee's last name, computed by DuckDB (`self.items.append#0` -> `append`)
    _CALLEE_KEY = ("CASE WHEN kind = 'arg' THEN regexp_extract(name, "
                   "'([A-Za-z_$][A-Za-z0-9_$]*)[^A-Za-z0-9_$#]*#[^#]*$', 1) END")

    def _load_bindings(self, path: str | None = None) -> None:
        """All bindings, grouped by scope (one query; ~0.5 s for the standard library)."""
        if self._bind_loaded:
            return
        rows = _cols(self.con, f"""SELECT src_id, kind, name, value, value_type, value_id, line,
                                          {self._CALLEE_KEY} AS callee_key
                                   FROM bindings ORDER BY path, line, rowid""")
        self._bind_loaded = True
        self.args_by_callee = defaultdict(list)
        if not rows:
            return
        self._add_rows(rows["src_id"], rows["kind"], rows["name"], rows["value"], rows["value_type"],
                       rows["value_id"], rows["line"], rows["callee_key"])

    def _add_rows(self, srcs, kinds, names, values, vtypes, vids, lines, keys) -> None:
        """Group bindings rows (in `path, line` order) by scope; `arg` rows by callee key."""
        ns_cache: dict = {}
        ns = self.ns
        binds, elements, returns, yields = self.binds, self.elements, self.returns, self.yields
        args = self.args_by_callee
        for src, kind, name, value, vtype, vid, line, key in zip(
                srcs, kinds, names, values, vtypes, vids, lines, keys):
            scope = ns_cache.get(src, -1)
            if scope == -1:
                scope = ns_cache[src] = ns(src)
            if scope is None:
                continue
            row = (scope, kind, name, value, vtype, vid, line)
            if kind == "arg":
                if key:
                    args[key].append(row)
            elif kind in ("assign", "iter", "with", "declare", "param"):
                if name is None:
                    continue
                if kind == "assign" and "." in name:
                    head, _, rest = name.partition(".")
                    self.attr_binds[scope].append((head, rest, row))
                    if head in ("module", "exports") and self.kind.get(scope) == "module":
                        key2 = rest[len("exports."):] if rest.startswith("exports.") else rest
                        if rest == "exports":
                            key2 = "default"
                        self.exports[scope].setdefault(key2, []).append(row)
                    continue
                binds[scope].setdefault(name, []).append(row)
            elif kind == "unpack":
                if name:
                    binds[scope].setdefault(name.rpartition("#")[0], []).append(row)
            elif kind == "element":
                if name:
                    elements[scope].setdefault(name, []).append(row)
            elif kind == "return":
                returns[scope].append(row)
            elif kind == "yield":
                yields[scope].append(row)
            elif kind == "export_default":
                self.exports[scope].setdefault("default", []).append(row)
            elif kind == "export":
                self.exports[scope].setdefault(name or value, []).append(row)
            elif kind == "receiver" and name:
                self.receivers.setdefault((scope, line, name), []).append(value)

    def arg_rows(self, callee_name: str) -> list[tuple]:
        """Argument bindings of calls whose callee's last name is `callee_name`."""
        if self._lazy and not self._bind_loaded:
            got = self.args_by_callee.get(callee_name)
            if got is None:
                got = self.args_by_callee[callee_name] = self._load_args(callee_name)
            return got
        self.ensure_bindings(None)
        return self.args_by_callee.get(callee_name, ())

    # ------------------------------------------------------------ incremental: lazy bindings
    # The bulk query itself, kept as Arrow (no Python objects yet) and indexed by path and by
    # callee key: a file's rows (or a callee's argument rows) become tuples only when
    # evaluation reaches them, in exactly the order the bulk load would give them.
    def _lazy_index(self):
        if self._lazy_tbl is not None:
            return self._lazy_tbl
        import pyarrow.compute as pc
        tbl = self.con.sql(f"""SELECT src_id, kind, name, value, value_type, value_id, line,
                                      {self._CALLEE_KEY} AS callee_key
                               FROM bindings ORDER BY path, line, rowid""").to_arrow_table().combine_chunks()
        self._lazy_tbl = tbl
        if tbl.num_rows == 0:
            return tbl
        start = 0                   # rows are sorted by path: one range per path
        for path, n in store.run(self.con, "SELECT path, count(*) FROM bindings GROUP BY path ORDER BY path"):
            self._lazy_paths[path] = (start, start + n)
            start += n
        if start != tbl.num_rows:   # changed under us: fall back to the bulk load
            self._lazy = False
            self._load_bindings(None)
            return tbl
        key = tbl.column("callee_key").chunk(0)
        sel = pc.indices_nonzero(pc.fill_null(pc.not_equal(key, ""), False))
        keys = key.take(sel)
        order = pc.sort_indices(keys)                 # stable: bulk order within a key
        self._lazy_key_idx = sel.take(order)
        kruns = pc.run_end_encode(keys.take(order))
        start = 0
        for k, end in zip(kruns.values.to_pylist(), kruns.run_ends.to_pylist()):
            self._lazy_keys[k] = (start, end)
            start = end
        return tbl

    def _load_path(self, path: str) -> None:
        self._lazy_loaded.add(path)
        self._lazy_index()
        rng = self._lazy_paths.get(path)
        if rng is None or self._bind_loaded:
            return
        t = self._lazy_tbl.slice(rng[0], rng[1] - rng[0])
        c = {n: t.column(n).to_pylist() for n in t.column_names}
        keep = [i for i, k in enumerate(c["kind"]) if k != "arg"]   # arguments: `_load_args`
        if len(keep) != len(c["kind"]):
            c = {n: [v[i] for i in keep] for n, v in c.items()}
        self._add_rows(c["src_id"], c["kind"], c["name"], c["value"], c["value_type"],
                       c["value_id"], c["line"], [None] * len(keep))

    def _load_args(self, callee_name: str) -> list[tuple]:
        self._lazy_index()
        if self._bind_loaded:
            return self.args_by_callee.get(callee_name, [])
        rng = self._lazy_keys.get(callee_name)
        if rng is None:
            return []
        t = self._lazy_tbl.take(self._lazy_key_idx.slice(rng[0], rng[1] - rng[0]))
        c = {n: t.column(n).to_pylist() for n in t.column_names}
        out = []
        ns = self.ns
        for src, kind, name, value, vtype, vid, line in zip(
                c["src_id"], c["kind"], c["name"], c["value"], c["value_type"], c["value_id"], c["line"]):
            scope = ns(src)
            if scope is not None:
                out.append((scope, kind, name, value, vtype, vid, line))
        return out


def _ordered(vals):
    """`vals` in a canonical order. Values are tuples holding strings, whose hashes (and so a
    set's iteration order) change from one process to the next; evaluation that walks a
    set in that order would enter value cycles at different points and label edges
    differently between runs. Sorting by `repr` makes every run walk the same way."""
    if len(vals) < 2:
        return vals
    return sorted(vals, key=repr)


def _last_name(callee: str) -> str:
    ch = parse_chain(callee)
    if ch is None:
        return callee
    for step in reversed(ch[0]):
        if step[0] in ("name", "attr"):
            return step[1]
    return ""


# ====================================================================== parameters

_PY_DEF = re.compile(r"^\s*(?:async\s+)?def\s+[\w$]+\s*(?:\[[^\]]*\])?\s*\(")


@dataclass
class Param:
    name: str
    annotation: str | None = None
    default: str | None = None
    kind: str = "pos"                   # pos | kwonly | var | varkw


def py_params(sig: str | None) -> list[Param] | None:
    """Parameters of a Python `def`/`lambda` signature as stored in `symbols.signature`."""
    if not sig:
        return None
    s = sig.strip()
    if s.startswith("lambda"):
        inner = s[6:].strip()
        if inner.endswith(":"):
            inner = inner[:-1]
    else:
        m = _PY_DEF.match(s)
        if not m:
            return None
        i = m.end() - 1
        from .exprs import match_bracket
        j = match_bracket(s, i)
        if j < 0:                                   # clipped signature: names only
            return [Param(n) for n in re.findall(r"(?:^|,)\s*\**([A-Za-z_]\w*)", s[i + 1:])]
        inner = s[i + 1:j - 1]
    out: list[Param] = []
    kwonly = False
    for part in split_top(inner, (",",)):
        if part in ("/",):
            continue
        if part == "*":
            kwonly = True
            continue
        kind = "kwonly" if kwonly else "pos"
        if part.startswith("**"):
            kind, part = "varkw", part[2:]
        elif part.startswith("*"):
            kind, part = "var", part[1:]
            kwonly = True
        default = None
        bits = split_top(part, ("=",))
        if len(bits) > 1:
            part, default = bits[0], "=".join(bits[1:])
        ann = None
        bits = split_top(part, (":",))
        if len(bits) > 1:
            part, ann = bits[0], bits[1]
        name = part.strip()
        if name.isidentifier():
            out.append(Param(name, ann, default, kind))
    return out


_C_PARAM = re.compile(r"([A-Za-z_$][\w$.<>\[\]]*(?:\s*[*&]+)?)\s+[*&]?([A-Za-z_$][\w$]*)\s*(?:=.*)?$")


def typed_params(sig: str | None, family: str) -> list[Param] | None:
    """Parameters of a TS/JS, Java or Go signature: names and declared types."""
    if not sig:
        return None
    s = sig
    if family == "go" and s.startswith("func ("):     # skip the receiver
        j = s.find(")")
        s = "func" + s[j + 1:]
    i = s.find("(")
    if i < 0:
        return None
    depth, j = 0, i
    while j < len(s):
        if s[j] in "([{<":
            depth += 1
        elif s[j] in ")]}>":
            depth -= 1
            if depth == 0:
                break
        j += 1
    inner = s[i + 1:j]
    out = []
    pending: list[str] = []
    for part in split_top(inner, (",",)):
        part = part.strip()
        if not part:
            continue
        if family == "ecma":
            part = re.sub(r"^(?:public|private|protected|readonly|override)\s+", "", part)
            nm, _, ann = part.partition(":")
            nm = nm.split("=")[0].strip().lstrip(".").rstrip("?")
            ann = ann.split("=")[0].strip() or None
            default = part.split("=", 1)[1].strip() if "=" in part else None
            if re.fullmatch(r"[A-Za-z_$][\w$]*", nm):
                out.append(Param(nm, ann, default))
        elif family == "go":
            bits = part.split()
            if len(bits) == 1:
                pending.append(bits[0])
            else:
                for n in pending:
                    out.append(Param(n, bits[-1]))
                pending = []
                out.append(Param(bits[0], bits[-1]))
        else:                            # java, C-like: `final Type name`
            part = re.sub(r"@\w+(\([^)]*\))?\s*", "", part).replace("final ", "")
            m = _C_PARAM.search(part)
            if m:
                out.append(Param(m.group(2), m.group(1)))
    return out


def declared_type(text: str | None) -> str | None:
    """`*pkg.Store` / `List<Foo>` / `Promise<Bar>` / `Foo[]` -> the base type name written."""
    if not text:
        return None
    t = text.strip().lstrip("*&").strip()
    t = re.sub(r"^(?:readonly|final|const)\s+", "", t)
    m = re.match(r"(?:Promise|Optional|Observable)<(.+)>$", t)
    if m:
        t = m.group(1)
    t = t.split("<", 1)[0].split("[", 1)[0].split("|", 1)[0].strip()
    if not re.fullmatch(r"[A-Za-z_$][\w$]*(?:\.[A-Za-z_$][\w$]*)*", t):
        return None
    return t


# ====================================================================== the evaluator

class Resolver:
    """Evaluates callee and value texts to sets of values, per language family.

    `export=True` switches on the call-graph export's semantics: a decorated function's
    name evaluates to what its decorators return (the wrapper), not to the function.
    """

    MAX_DEPTH = 40

    def __init__(self, model: Model, export: bool = False, param_flow_cap: int = 60):
        self.m = model
        self.export = export
        self.param_flow_cap = param_flow_cap
        self._memo: dict = {}
        self._active: set = set()
        self._mro: dict[int, list] = {}
        self._params: dict[int, list[Param] | None] = {}
        self._param_names: dict[int, frozenset] = {}
        self._param_vals: dict[tuple[int, str], frozenset] = {}
        self._class_attrs: dict[int, dict[str, list[tuple]]] = {}
        self._deco_flows: dict[str, list[tuple]] | None = None
        self._go_import_cache: dict[str, int | None] = {}
        self._go_pkg_cache: dict[tuple[str, bool], dict[str, list[int]]] = {}
        self.implicit_calls: list[tuple[int, int | str, str]] = []   # export: (scope, target, how)

    # ------------------------------------------------------------ public
    def callee_text(self, src_id: int, text: str, line: int | None) -> str:
        """The callee as an expression: a method called on a computed receiver is stored
        as its bare name (`make().run()` -> `run`); the receiver comes from `bindings`."""
        m = self.m
        scope = m.ns(src_id)
        if line is None or scope is None or not text.isidentifier():
            return text
        if m._lazy:                    # incremental runs load bindings per file
            m.ensure_bindings(m.path.get(scope))
        recv = m.receivers.get((scope, line, text))
        if not recv:
            return text
        if len(recv) == 1:
            return f"({recv[0]}).{text}"
        return " or ".join(f"({r}).{text}" for r in dict.fromkeys(recv))

    def resolve_call(self, src_id: int, text: str, line: int | None = None) -> tuple[list, str]:
        """Targets of a call written `text` inside symbol `src_id` (at `line`), and how
        they were found. Targets are ("s", symbol_id) | ("x", dotted_name) | ("B", name).
        """
        m = self.m
        scope = m.ns(src_id)
        if scope is None:
            return [], "unresolved"
        fam = m.fam.get(scope)
        if m._lazy:                    # incremental runs load bindings per file
            m.ensure_bindings(m.path.get(scope))
        text = self.callee_text(src_id, text, line)
        if fam == "rust" and text.endswith("!"):
            return self._rust_macro(scope, text[:-1])
        vals, how = self.eval_text(scope, text, callee=True)
        targets = []
        for v in _ordered(vals):
            t = self.call_target(v, fam)
            if t is not None and t not in targets:
                targets.append(t)
        if any(t[0] == "s" for t in targets):
            # a repo target beats a method of a builtin type reached through another value
            targets = [t for t in targets if t[0] == "s"] + [t for t in targets if t[0] != "s" and
                                                             not (t[0] == "B" and "." in t[1]) and
                                                             not (t[0] == "x" and "()" in t[1])]
        if not targets:
            # a receiver we know that lacks the member: say unresolved, do not guess by name
            parsed = parse_chain(text)
            if parsed is not None and len(parsed[0]) > 1 and parsed[0][-1][0] == "attr":
                rv, _ = self.eval_chain(scope, parsed[0][:-1], parsed[1], 0)
                if any(v[0] in ("s", "i", "m", "S") for v in rv):
                    return [], "known-receiver"
        return targets, how

    def resolve_base(self, class_id: int, text: str) -> tuple[list, str]:
        scope = self.m.ns(self.m.parent.get(class_id)) or self.m.module_of(class_id)
        vals, how = self.eval_text(scope, text)
        out = []
        for v in _ordered(vals):
            if v[0] == "s" and self.m.kind.get(v[1]) in CLASS_KINDS:
                out.append(v)
            elif v[0] in ("x", "B"):
                out.append(v)
        return out, how

    # ------------------------------------------------------------ memo with cycle cuts
    # A value that depends on itself (mutual recursion, `x = f(x)`) is cut: the inner
    # occurrence counts as empty, and results are memoised as computed. Inside such cycles
    # the result can depend on where evaluation entered the cycle, so an incremental run
    # may label a few cyclic flows differently from a full run (`workbench resolve DB`
    # re-runs everything). Not memoising incomplete results fixes that but is exponential
    # on real code (tried on the standard library: it does not finish).

    def _cut(self, key) -> bool:
        """Whether `key` is being evaluated already (a cycle): then it counts as empty."""
        return key in self._active

    def _enter(self, key) -> None:
        self._active.add(key)

    def _leave(self, key) -> bool:
        self._active.discard(key)
        return True

    def _too_deep(self, depth: int) -> bool:
        return depth > self.MAX_DEPTH

    # ------------------------------------------------------------ evaluation of texts
    def eval_text(self, scope: int, text: str, callee: bool = False, depth: int = 0):
        key = (scope, text, callee)
        got = self._memo.get(key)
        if got is not None:
            return got
        if self._cut(key) or self._too_deep(depth):
            return frozenset(), "unresolved"
        self._enter(key)
        complete = False
        try:
            res = self._eval_text(scope, text, depth, callee)
        finally:
            complete = self._leave(key)
        if complete:
            self._memo[key] = res
        return res

    def _eval_text(self, scope: int, text: str, depth: int, callee: bool = False):
        alts = alternatives(text)
        if len(alts) > 1:
            vals, hows = set(), []
            for a in alts:
                v, h = self.eval_text(scope, a, depth=depth + 1)
                vals |= v
                if v:
                    hows.append(h)
            return frozenset(vals), (hows[0] if len(set(hows)) == 1 else "inferred") if hows else "unresolved"
        parsed = parse_chain(text)
        if parsed is None:
            items = literal_items(text)
            if items is not None:
                return frozenset({("L", scope, text)}), "inferred"
            if len(split_top(text, (",",))) > 1:      # `return f, g`: a tuple
                return frozenset({("L", scope, "(" + text + ")")}), "inferred"
            return frozenset(), "unresolved"
        steps, new = parsed
        return self.eval_chain(scope, steps, new, depth, callee)

    def eval_chain(self, scope: int, steps: tuple, new: bool = False, depth: int = 0,
                   callee: bool = False):
        m = self.m
        fam = m.fam.get(scope)
        head = steps[0]
        i = 1
        if head[0] == "paren":
            vals, how = self.eval_text(scope, head[1], depth=depth + 1)
        elif head[0] == "str":
            vals, how = frozenset({("Bi", "str" if fam == "python" else "String")}), "builtin"
        else:
            name = head[1]
            if (name == "super" and fam in ("python",) and len(steps) > 1 and steps[1][0] == "call"):
                cls = m.enclosing_class(scope)
                args = [a.strip() for a in split_top(steps[1][1], (",",))]
                if args and args[0]:
                    cv, _ = self.eval_text(scope, args[0], depth=depth + 1)
                    cls = next((v[1] for v in _ordered(cv) if v[0] == "s" and m.kind.get(v[1]) in CLASS_KINDS), cls)
                vals, how = (frozenset({("S", cls, True)}) if cls else frozenset()), "super"
                i = 2
            elif name in ("super", "this") and fam in ("ecma", "java") and len(steps) == 1 and callee:
                cls = m.enclosing_class(scope)                    # `super(...)` / `this(...)`
                if cls is None:
                    return frozenset(), "unresolved"
                init = self.ctor_of_bases(cls, fam) if name == "super" else self.ctor_of(cls, fam)
                if init is None and name == "super":
                    ext = [b for b in self.mro(cls)[1:] if b[0] in ("x", "B")]
                    return (frozenset(ext[:1])), "super"
                return (frozenset({("s", init)}) if init else frozenset()), "super" if name == "super" else "self"
            elif name == "super" and fam in ("ecma", "java"):
                cls = m.enclosing_class(scope)
                if len(steps) > 1 and steps[1][0] == "call":      # `super(...)`: base constructor
                    if cls is None:
                        return frozenset(), "unresolved"
                    init = self.ctor_of_bases(cls, fam)
                    return (frozenset({("s", init)}) if init else frozenset()), "super"
                vals, how = (frozenset({("S", cls, True)}) if cls else frozenset()), "super"
            elif name == "this" and fam in ("ecma", "java"):
                cls = m.enclosing_class(scope)
                vals, how = (frozenset({("i", cls)}) if cls else frozenset()), "self"
            elif name in ("self", "Self") and fam == "rust":
                t = self._rust_self_type(scope)
                if t is not None:
                    vals, how = frozenset({("i" if name == "self" else "s", t)}), "self"
                else:                        # `self::f()` outside an impl: this module
                    here = self._rust_module(scope)
                    vals, how = (frozenset({("s", here)}) if here is not None else frozenset()), "local"
            elif name in ("crate", "super") and fam == "rust" and len(steps) > 1:
                start = self._rust_path_start(scope, name)
                vals, how = (frozenset({("s", start)}) if start is not None else frozenset()), "local"
            else:
                vals, how = self.lookup(scope, name, depth)
                if not vals and fam == "java" and len(steps) > 1:
                    # a fully qualified name: com.example.Foo.bar()
                    vals, how, i = self._java_qualified(steps)
        for step in steps[i:]:
            if not vals:
                return frozenset(), how
            kind = step[0]
            nv = set()
            if kind == "attr":
                for v in _ordered(vals):
                    got, via = self.member(v, step[1], depth)
                    nv |= got
                    if via == "reexport" and how in ("import", "alias", "local"):
                        how = "reexport"
                    elif via == "inferred" and how in ("local", "import", "alias", "self"):
                        how = "inferred"
            elif kind == "call":
                for v in _ordered(vals):
                    nv |= self.call_result(v, step[1], scope, depth, new=new)
                if any(v[0] not in ("s", "b") for v in nv):
                    pass
            elif kind == "index":
                for v in _ordered(vals):
                    nv |= self.elements_of(v, depth)
                if how not in ("builtin", "external"):
                    how = "inferred"
            vals = frozenset(nv)
        return vals, how

    # ------------------------------------------------------------ names
    def lookup(self, scope: int, name: str, depth: int = 0):
        """Values a bare name has in `scope` (lexical scoping of the scope's language)."""
        m = self.m
        fam = m.fam.get(scope)
        s = scope
        first = True
        containers = []
        while s is not None:
            k = m.kind.get(s)
            if first or fam != "python" or k not in CLASS_KINDS:
                if m._lazy:                    # incremental runs load bindings per file
                    m.ensure_bindings(m.path.get(s))
                if name in m.elements.get(s, {}):
                    containers.append(("c", s, name))
                r = self.lookup_in(s, name, depth, fam, first)
                if r is not None:
                    if containers:
                        return r[0] | frozenset(containers), r[1] if r[0] else "inferred"
                    return r
            first = False
            s = m.ns(m.parent.get(s))
        if containers:
            return frozenset(containers), "inferred"
        mod = m.module_of(scope)
        if fam == "python":
            if mod is not None:
                for row in m.star_imports.get(mod, ()):
                    got, via = self.import_member(row, name, depth)
                    if got:
                        return got, "reexport" if via else "import"
            if name in ("None", "True", "False", "NotImplemented", "Ellipsis", "__debug__"):
                return frozenset(), "builtin"
            if name in PY_BUILTINS:
                return frozenset({("B", name)}), "builtin"
        elif fam == "ecma":
            if name in ECMA_GLOBALS:
                return frozenset({("B", name)}), "builtin"
        elif fam == "java":
            got = self._java_type(scope, name)
            if got:
                return got
            if name in JAVA_LANG:
                return frozenset({("B", "java.lang." + name)}), "builtin"
        elif fam == "go":
            got = self._go_package_member(mod, name)
            if got:
                return frozenset(got), "local"
            if name in GO_BUILTINS:
                return frozenset({("B", name)}), "builtin"
        elif fam == "rust":
            if name in RUST_PRELUDE:
                return frozenset({("B", name)}), "builtin"
        elif fam in ("c", "cpp"):
            got = self._c_global(scope, name)
            if got:
                return got
            if name in C_STDLIB:
                return frozenset({("B", name)}), "builtin"
            if name == "std" and fam == "cpp":
                return frozenset({("x", "std")}), "external"
        return frozenset(), "unresolved"

    def lookup_in(self, s: int, name: str, depth: int, fam: str, first: bool):
        """Values `name` has in scope `s` itself, or None when `s` does not bind it."""
        m = self.m
        vals: set = set()
        how = None
        defs = m.children.get(s, {}).get(name)
        if defs:
            for d in defs:
                k = m.kind.get(d)
                if k in NS_KINDS:
                    vals |= self.def_values(d, depth)
                    how = "local"
                elif k in VALUE_KINDS and fam == "ecma" and self._holds_functions(d):
                    vals.add(("s", d))       # `const api = { run() {} }`: `api.run` is a symbol
                    how = "local"
        if m._lazy:                    # incremental runs load bindings per file
            m.ensure_bindings(m.path.get(s))
        rows = m.binds.get(s, {}).get(name)
        if rows:
            declared = [r for r in rows if r[1] == "declare"]
            if declared and fam in ("java", "go", "ecma"):
                rows = declared              # a declared type says more than one assignment
            for row in rows:
                if fam == "ecma" and row[3].startswith("require(") and name in m.imports_by_scope.get(s, {}):
                    continue
                vals |= self.binding_values(row, depth)
            how = how or "inferred"
        imps = m.imports_by_scope.get(s, {}).get(name)
        if imps:
            via_any, alias_any = False, False
            for row in imps:
                got, via = self.import_values(row, depth)
                vals |= got
                via_any |= via
                alias_any |= bool(row["alias"]) and row["alias"] != (row["name"] or "").split(".")[-1]
            if vals:
                how = how or ("reexport" if via_any else "alias" if alias_any else "import")
            else:
                how = how or "unresolved"
                return frozenset(), "unresolved"
        if not vals and not defs and not rows and m.kind.get(s) in FUNC_KINDS:
            pv = self.param_values(s, name, depth)
            if pv is not None:
                return pv
        if not vals and fam in ("java", "ecma") and m.kind.get(s) in CLASS_KINDS and fam == "java":
            got = self.member(("i", s), name, depth)[0]
            if got:
                return got, "self"
        if how is None and not vals:
            # a class-level field/variable symbol with no evaluable binding still binds the name
            if defs:
                return frozenset(), "unresolved"
            return None
        return frozenset(vals), how or "inferred"

    def _holds_functions(self, d: int) -> bool:
        """Whether variable `d` has functions among its children (an object literal's)."""
        return any(self.m.kind.get(c) in FUNC_KINDS
                   for cs in self.m.children.get(d, {}).values() for c in cs)

    def def_values(self, d: int, depth: int) -> set:
        """The value a definition binds its name to (export mode: after its decorators)."""
        m = self.m
        if m.kind.get(d) == "module" and m.fam.get(d) == "rust":
            d = self._rust_mod_file(d)       # `mod util;` stands for the file util.rs
        v = {("s", d)}
        if not self.export:
            return v
        decos = m.decos.get(d)
        if not decos or m.fam.get(d) != "python":
            return v
        scope = m.ns(m.parent.get(d))
        for dec in reversed(decos):
            text = dec.lstrip("@").strip()
            base = text.split("(", 1)[0]
            if base in PY_VALUE_DECORATORS or base.endswith((".setter", ".getter", ".deleter")):
                continue
            dv, _ = self.eval_text(scope, text, depth=depth + 1)
            nv = set()
            for f in _ordered(dv):
                if f[0] in ("s", "b") and m.kind.get(f[1]) in FUNC_KINDS:
                    nv |= self.returns_of(f[1], depth + 1)
                elif f[0] == "s" and m.kind.get(f[1]) in CLASS_KINDS:
                    nv.add(("i", f[1]))
                else:
                    nv |= v                  # unknown decorator: keep the function
            if nv:
                v = nv
        return v

    def binding_values(self, row: tuple, depth: int) -> set:
        scope, kind, name, value, vtype, vid, line = row
        if vid is not None:
            return {("s", vid)}
        if kind == "iter":
            vals, _ = self.eval_text(scope, value, depth=depth + 1)
            out = set()
            for v in _ordered(vals):
                out |= self.elements_of(v, depth + 1)
            return out
        if kind == "unpack":                  # `a, b = f, g`: item `slot` of the value
            slot = int(name.rpartition("#")[2] or 0)
            vals, _ = self.eval_text(scope, value, depth=depth + 1)
            out = set()
            for v in _ordered(vals):
                if v[0] == "L":
                    items = literal_items(v[2]) or ()
                    if slot < len(items):
                        out |= set(self.eval_text(v[1], items[slot], depth=depth + 1)[0])
                else:
                    out |= self.elements_of(v, depth + 1)
            return out
        if kind == "declare":                 # a declared type: `Foo x = ...`, `var x Foo`
            t = declared_type(value)
            if not t:
                return set()
            vals, _ = self.eval_text(scope, t, depth=depth + 1)
            return {("i", v[1]) if v[0] == "s" and self.m.kind.get(v[1]) in CLASS_KINDS else
                    ("xi", v[1]) if v[0] == "x" else ("Bi", v[1]) if v[0] == "B" else v
                    for v in vals if v[0] in ("s", "x", "B")}
        lt = PY_LITERAL_TYPES.get(vtype or "")
        if lt is not None and vtype not in ("list", "tuple", "set", "dictionary", "array", "object"):
            return {("Bi", lt)}
        vals, _ = self.eval_text(scope, value, depth=depth + 1)
        if kind == "with" and vals:
            out = set()
            for v in _ordered(vals):
                if v[0] == "i":
                    enter = self.mro_lookup(v[1], "__enter__")
                    if enter is not None and enter[0] == "s":
                        out |= self.returns_of(enter[1], depth + 1)
                        continue
                out.add(v)
            return out
        if lt is not None:
            return set(vals) | {("Bi", lt)}
        return set(vals)

    # ------------------------------------------------------------ imports
    def import_values(self, row: dict, depth: int) -> tuple[set, bool]:
        """(values, went-through-a-re-export) of the name an import row binds."""
        fam = row["family"]
        if fam == "python":
            return self._py_import_values(row, depth)
        if fam == "ecma":
            return self._ecma_import_values(row, depth)
        if fam == "java":
            return self._java_import_values(row)
        if fam == "go":
            mod = self._go_import_dir(row["module"])
            if mod is not None:
                return {("s", mod)}, False
            return {("x", row["module"])}, False
        if fam == "rust":
            return self._rust_import_values(row, depth)
        return set(), False

    def import_member(self, row: dict, name: str, depth: int) -> tuple[set, bool]:
        """`name` looked up in what a star import row brings in."""
        fam = row["family"]
        if fam == "python":
            mid = self.py_module_of_row(row)
            if mid is None:
                return set(), False
            if name.startswith("_"):
                return set(), False
            got, _ = self.module_attr(mid, name, depth + 1)
            return got, True
        if fam == "ecma":
            target = self.ecma_resolve(row["path"], row["module"])
            mid = self.m.file_module.get(target) if target else None
            if mid is None:
                return set(), False
            got, _ = self.module_attr(mid, name, depth + 1)
            return got, True
        if fam == "java":
            pkg = (row["module"] or "")
            if row["name"]:
                pkg = f"{pkg}.{row['name']}" if pkg else row["name"]
            pkg = pkg.rsplit(".", 1)[0]
            for mid in self.m.java_packages.get(pkg, ()):
                for c in self.m.children.get(mid, {}).get(name, ()):
                    return {("s", c)}, False
            return set(), False
        return set(), False

    # -- python
    def py_module_name(self, row: dict) -> str | None:
        mod = row["module"] or ""
        if not mod.startswith("."):
            return mod
        level = len(mod) - len(mod.lstrip("."))
        rest = mod[level:]
        path = row["path"]
        mid = self.m.file_module.get(path)
        if mid is None:
            return None
        pkg = self.m.qual[mid].split(".")
        if not posixpath.basename(path).startswith("__init__."):
            pkg = pkg[:-1]
        if level - 1 > len(pkg):
            return None
        base = pkg[: len(pkg) - (level - 1)]
        parts = base + ([rest] if rest else [])
        return ".".join(p for p in parts if p)

    def py_module(self, dotted: str | None) -> int | None:
        if not dotted:
            return None
        mid = self.m.py_modules.get(dotted)
        if mid is None:
            mid = self.m.py_module_alias.get(dotted)
        return mid

    def py_module_of_row(self, row: dict) -> int | None:
        return self.py_module(self.py_module_name(row))

    def _py_import_values(self, row: dict, depth: int) -> tuple[set, bool]:
        dotted = self.py_module_name(row)
        if dotted is None:
            return set(), False
        name, alias = row["name"], row["alias"]
        if name:                                   # from m import name [as alias]
            mid = self.py_module(dotted)
            if mid is None:
                sub = self.py_module(f"{dotted}.{name}" if dotted else name)
                if sub is not None:
                    return {("s", sub)}, False
                return ({("x", f"{dotted}.{name}")} if not (row["module"] or "").startswith(".") else set()), False
            got, via = self.module_attr(mid, name, depth + 1)
            return got, via
        if alias:                                  # import a.b as c
            mid = self.py_module(dotted)
            return ({("s", mid)} if mid is not None else {("x", dotted)}), False
        top = dotted.split(".")[0]                 # import a.b.c binds a
        mid = self.py_module(top)
        if mid is None:
            # `import pkg.mod` where only pkg.mod is in the repo (namespace package)
            if self.py_module(dotted) is not None:
                return {("x", top)}, False
            return {("x", top)}, False
        return {("s", mid)}, False

    def module_attr(self, mid: int, name: str, depth: int) -> tuple[set, bool]:
        """`name` in module `mid`'s namespace: (values, whether a re-export was followed)."""
        key = ("modattr", mid, name)
        got = self._memo.get(key)
        if got is not None:
            return got
        if self._cut(key) or self._too_deep(depth):
            return set(), False
        self._enter(key)
        complete = False
        try:
            res = self._module_attr(mid, name, depth)
        finally:
            complete = self._leave(key)
        if complete:
            self._memo[key] = res
        return res

    def _module_attr(self, mid: int, name: str, depth: int) -> tuple[set, bool]:
        m = self.m
        fam = m.fam.get(mid)
        if fam == "ecma":
            return self._ecma_export(mid, name, depth)
        vals: set = set()
        for d in m.children.get(mid, {}).get(name, ()):
            if m.kind.get(d) in NS_KINDS:
                vals |= self.def_values(d, depth)
        if m._lazy:                    # incremental runs load bindings per file
            m.ensure_bindings(m.path.get(mid))
        for row in m.binds.get(mid, {}).get(name, ()):
            vals |= self.binding_values(row, depth + 1)
        if name in m.elements.get(mid, {}):
            vals.add(("c", mid, name))
        if vals:
            return vals, False
        via = False
        for row in m.imports_by_scope.get(mid, {}).get(name, ()):
            got, _ = self.import_values(row, depth + 1)
            vals |= got
            via = True
        if vals:
            return vals, via
        if fam == "python":
            sub = self.py_module(f"{m.qual[mid]}.{name}")
            if sub is not None:
                return {("s", sub)}, False
            for row in m.star_imports.get(mid, ()):
                got, _ = self.import_member(row, name, depth + 1)
                if got:
                    return got, True
        elif fam == "go":
            got = self._go_package_member(mid, name)
            if got:
                return set(got), False
        return set(), False

    # -- ecma
    def ecma_resolve(self, from_path: str, spec: str | None) -> str | None:
        """The repository file an ES/CommonJS module specifier names, or None (a package)."""
        if not spec:
            return None
        files = self.m.ecma_files
        if spec.startswith((".", "/")):
            base = posixpath.normpath(posixpath.join(posixpath.dirname(from_path), spec))
            cands = [base]
        else:
            cands = [spec, "src/" + spec]
            if spec.startswith(("@/", "~/")):
                cands = ["src/" + spec[2:], spec[2:]]
        for b in cands:
            if b.endswith((".js", ".jsx", ".mjs", ".cjs")):
                stem = b.rsplit(".", 1)[0]
                tries = [b] + [stem + e for e in ECMA_EXTS]
            else:
                tries = [b] + [b + e for e in ECMA_EXTS]
            tries += [b + "/index" + e for e in ECMA_EXTS]
            for t in tries:
                if t in files:
                    return t
        return None

    def _ecma_import_values(self, row: dict, depth: int) -> tuple[set, bool]:
        target = self.ecma_resolve(row["path"], row["module"])
        name = row["name"]
        mid = self.m.file_module.get(target) if target else None
        if mid is None:
            spec = row["module"] or ""
            if spec.startswith("."):
                return set(), False
            pkg = spec
            if name and name not in ("*", "default"):
                return {("x", f"{pkg}.{name}")}, False
            return {("x", pkg)}, False
        if name is None or name == "*":            # require('m') / import * as ns
            return {("m", mid)}, False
        got, via = self.module_attr(mid, name, depth + 1)
        return got, via

    def _ecma_export(self, mid: int, name: str, depth: int) -> tuple[set, bool]:
        m = self.m
        if m._lazy:                    # incremental runs load bindings per file
            m.ensure_bindings(m.path.get(mid))
        vals: set = set()
        for row in m.exports.get(mid, {}).get(name, ()):
            vals |= self.binding_values(row, depth + 1)
        if name == "default":
            for kids in m.children.get(mid, {}).values():
                for d in kids:
                    if (m.sig.get(d) or "").startswith("export default"):
                        vals.add(("s", d))
            if not vals:
                for row in m.exports.get(mid, {}).get("module.exports", ()):
                    vals |= self.binding_values(row, depth + 1)
            return vals, False
        if vals:
            return vals, False
        for d in m.children.get(mid, {}).get(name, ()):
            if m.kind.get(d) in NS_KINDS:
                vals.add(("s", d))
            else:
                if m.kind.get(d) in VALUE_KINDS and self._holds_functions(d):
                    vals.add(("s", d))       # `api` of `const api = { run() {} }`
                for row in m.binds.get(mid, {}).get(name, ()):
                    vals |= self.binding_values(row, depth + 1)
        if vals:
            return vals, False
        for row in m.binds.get(mid, {}).get(name, ()):
            vals |= self.binding_values(row, depth + 1)
        if vals:
            return vals, False
        # CommonJS `module.exports = { name }` / `module.exports = X` with X.name
        for row in m.exports.get(mid, {}).get("default", ()):
            pairs = literal_pairs(row[3] or "")
            if pairs:
                for k, v in pairs:
                    if k == name:
                        vals |= set(self.eval_text(mid, v, depth=depth + 1)[0])
        if vals:
            return vals, False
        for row in m.imports_by_scope.get(mid, {}).get(name, ()):
            got, _ = self.import_values(row, depth + 1)
            vals |= got
        if vals:
            return vals, True
        for row in m.star_imports.get(mid, ()):
            got, _ = self.import_member(row, name, depth + 1)
            if got:
                return got, True
        return set(), False

    # -- java
    def _java_import_values(self, row: dict) -> tuple[set, bool]:
        target = row["module"] or ""
        if row["name"]:
            target = f"{target}.{row['name']}" if target else row["name"]
        target = target.replace("static ", "").strip()
        pkg, _, last = target.rpartition(".")
        for mid in self.m.java_packages.get(pkg, ()):
            for c in self.m.children.get(mid, {}).get(last, ()):
                return {("s", c)}, False
        # static import of a member: pkg.Class.member
        ppkg, _, cls = pkg.rpartition(".")
        for mid in self.m.java_packages.get(ppkg, ()):
            for c in self.m.children.get(mid, {}).get(cls, ()):
                for mm in self.m.children.get(c, {}).get(last, ()):
                    return {("s", mm)}, False
        if target.startswith(("java.", "javax.")):
            return {("B", target)}, False
        return {("x", target)}, False

    def _java_type(self, scope: int, name: str):
        m = self.m
        mod = m.module_of(scope)
        if mod is None:
            return None
        pkg = m._java_package(mod)
        for other in m.java_packages.get(pkg, ()):
            for c in m.children.get(other, {}).get(name, ()):
                if m.kind.get(c) in CLASS_KINDS:
                    return frozenset({("s", c)}), "local" if other == mod else "import"
        for row in m.star_imports.get(mod, ()):
            got, _ = self.import_member(row, name, 0)
            if got:
                return frozenset(got), "import"
        return None

    def _java_qualified(self, steps):
        names = []
        for k, st in enumerate(steps):
            if st[0] not in ("name", "attr"):
                break
            names.append(st[1])
            pkg = ".".join(names)
            if k + 1 < len(steps) and steps[k + 1][0] == "attr" and pkg in self.m.java_packages:
                cls = steps[k + 1][1]
                for mid in self.m.java_packages[pkg]:
                    for c in self.m.children.get(mid, {}).get(cls, ()):
                        return frozenset({("s", c)}), "import", k + 2
        return frozenset(), "unresolved", len(steps)

    # -- c / c++
    def _c_global(self, scope: int, name: str):
        """A function or macro of another C/C++ file, by its (linker-global) name, when the
        caller's file includes a header that declares or defines it: the one definition
        (`static` ones only from their own file), else the declarations."""
        m = self.m
        if m.c_globals is None:
            m.c_globals = defaultdict(list)
            for n, sid, path, decl, vis in store.run(m.con, """
                    SELECT s.name, s.symbol_id, s.path, s.is_declaration, s.visibility
                    FROM symbols s JOIN symbols p ON p.symbol_id = s.parent_id
                    WHERE s.language IN ('c', 'cpp') AND s.kind IN ('function', 'macro')
                      AND p.kind IN ('module', 'namespace') ORDER BY s.symbol_id"""):
                m.c_globals[n].append((sid, path, bool(decl), vis == "private"))
            m.c_includes = defaultdict(set)
            for row in m.imports:
                if row["family"] in ("c", "cpp") and row["module"]:
                    m.c_includes[row["path"]].add(posixpath.basename(row["module"]))
        cands = m.c_globals.get(name)
        if not cands:
            return None
        here = m.path.get(scope)
        seen = [c for c in cands if not (c[3] and c[1] != here)]
        includes = m.c_includes.get(here, ())
        if not any(c[1] == here or posixpath.basename(c[1]) in includes for c in seen):
            return None                       # no include says which one: a guess by name
        pick = [c for c in seen if not c[2]] or seen
        return frozenset(("s", c[0]) for c in pick), "import"

    # -- rust
    def _rust_macro(self, scope: int, path: str) -> tuple[list, str]:
        """A macro call `path!(...)`: a `macro_rules!` of the repository by name (the one in
        the caller's file first), else a standard library macro, else unresolved."""
        m = self.m
        if m.rust_macros is None:
            m.rust_macros = defaultdict(list)
            for i, k in m.kind.items():
                if k == "macro" and m.fam.get(i) == "rust":
                    m.rust_macros[m.name[i]].append(i)
        name = path.rsplit("::", 1)[-1]
        found = m.rust_macros.get(name, ())
        here = [i for i in found if m.path.get(i) == m.path.get(scope)]
        if here:
            return [("s", here[-1])], "local"
        if found:
            return [("s", i) for i in found], "inferred"
        if name in RUST_STD_MACROS:
            return [("B", name + "!")], "builtin"
        return [], "unresolved"

    # Rust module paths. A file module's children live in a directory: `src/a.rs` ->
    # `src/a/`, `src/a/mod.rs` / `src/lib.rs` / `src/main.rs` -> their own directory.
    _RUST_DIR_OWNERS = ("mod.rs", "lib.rs", "main.rs")

    def _rust_dirs(self) -> dict[str, int]:
        """Directory -> the file module whose children live there."""
        m = self.m
        if m.rust_dir_owner is None:
            m.rust_dir_owner = {}
            for path, mid in m.file_module.items():
                if m.file_lang.get(path) == "rust":
                    m.rust_dir_owner.setdefault(self._rust_children_dir(path), mid)
        return m.rust_dir_owner

    def _rust_children_dir(self, path: str) -> str:
        base = posixpath.basename(path)
        d = posixpath.dirname(path)
        if base in self._RUST_DIR_OWNERS:
            return d
        return posixpath.join(d, base[:-3]) if base.endswith(".rs") else d

    def _rust_mod_file(self, d: int) -> int:
        """The file module a `mod name;` declaration loads (itself for an inline module)."""
        m = self.m
        if m.children.get(d) or m.parent.get(d) is None:
            return d
        owner = m.module_of(d)
        sub = posixpath.join(self._rust_children_dir(m.path.get(owner, "")), m.name[d])
        return m.file_module.get(sub + ".rs") or m.file_module.get(sub + "/mod.rs") or d

    def _rust_module(self, scope: int | None) -> int | None:
        """The module (inline or file) whose items `scope` sees."""
        m = self.m
        s = scope
        while s is not None and m.kind.get(s) != "module":
            s = m.parent.get(s)
        return s

    def _rust_parent_module(self, mod: int) -> int | None:
        m = self.m
        p = m.parent.get(mod)
        if p is not None:                    # an inline module: the module around it
            return self._rust_module(p)
        path = m.path.get(mod, "")
        base = posixpath.basename(path)
        if base in ("lib.rs", "main.rs"):
            return None
        d = posixpath.dirname(path)
        if base == "mod.rs":
            d = posixpath.dirname(d)
        return self._rust_dirs().get(d)      # `src/a.rs` or `src/a/mod.rs` owns `src/a/`

    def _rust_crate_root(self, mod: int) -> int:
        seen = set()
        while mod not in seen:
            seen.add(mod)
            up = self._rust_parent_module(mod)
            if up is None:
                return mod
            mod = up
        return mod

    def _rust_child_module(self, mod: int, name: str) -> int | None:
        m = self.m
        for d in m.children.get(mod, {}).get(name, ()):
            if m.kind.get(d) == "module":
                return self._rust_mod_file(d)
        if m.parent.get(mod) is None:        # a file module: a file below its directory
            sub = posixpath.join(self._rust_children_dir(m.path.get(mod, "")), name)
            return m.file_module.get(sub + ".rs") or m.file_module.get(sub + "/mod.rs")
        return None

    def _rust_path_start(self, scope: int, head: str) -> int | None:
        """The repository module a path starting with `head` begins at, or None (another crate)."""
        here = self._rust_module(scope)
        if here is None:
            return None
        if head == "crate":
            return self._rust_crate_root(here)
        if head == "self":
            return here
        if head == "super":
            return self._rust_parent_module(here)
        got = self._rust_child_module(here, head)
        if got is None:                      # 2015-style paths start at the crate root
            got = self._rust_child_module(self._rust_crate_root(here), head)
        return got

    def _rust_import_values(self, row: dict, depth: int) -> tuple[set, bool]:
        """`use a::b::c [as d]`: the item `c` walked from module `a` in the repository, or
        an external name (`std.sync.Arc`) when the path starts in another crate."""
        mod, name = row["module"] or "", row["name"]
        segs = [x for x in mod.split("::") if x]
        if name and name not in ("self", "*"):
            segs += [x for x in name.split("::") if x]
        if not segs:
            return set(), False
        scope = row["scope"]
        cur = self._rust_path_start(scope, segs[0]) if scope is not None else None
        if cur is None:
            return {("x", ".".join(x for x in segs if x not in ("crate", "self", "super")))}, False
        for i, seg in enumerate(segs[1:], 1):
            if seg == "super":
                cur = self._rust_parent_module(cur)
            elif i < len(segs) - 1:
                cur = self._rust_child_module(cur, seg)
            else:
                sub = self._rust_child_module(cur, seg)
                if sub is not None:
                    return {("s", sub)}, False
                got, via = self.module_attr(cur, seg, depth + 1)
                if not got:                  # a `const`, `static` or type alias: the item itself
                    got = {("s", d) for d in self.m.children.get(cur, {}).get(seg, ())}
                return set(got), via
            if cur is None:
                return set(), False
        return {("s", cur)}, False

    def _rust_self_type(self, scope: int | None) -> int | None:
        """The type `self` / `Self` stand for in `scope`: the type of the enclosing `impl`
        block, or the enclosing trait (its default methods) or type."""
        m = self.m
        s = scope
        while s is not None:
            k = m.kind.get(s)
            if k == "impl":
                return m.impl_type.get(s)
            if k in CLASS_KINDS:
                return s
            s = m.parent.get(s)
        return None

    # -- go
    def _go_import_dir(self, spec: str | None) -> int | None:
        if not spec:
            return None
        cache = self._go_import_cache
        if spec in cache:
            return cache[spec]
        pre = self.m.go_module_prefix
        rel = None
        if pre and (spec == pre or spec.startswith(pre + "/")):
            rel = spec[len(pre):].lstrip("/")
        else:
            for d in self.m.go_dirs:
                if spec.endswith("/" + d) or spec == d:
                    rel = d
                    break
        mods = self.m.go_dirs.get(rel) if rel is not None else None
        cache[spec] = got = mods[0] if mods else None
        return got

    def _go_package_names(self, d: str, with_tests: bool) -> dict[str, list[int]]:
        """Top-level definitions of the Go package in directory `d`, by name (files in
        directory order; `_test.go` files only for code that is itself in a test file)."""
        key = (d, with_tests)
        got = self._go_pkg_cache.get(key)
        if got is None:
            m = self.m
            got = self._go_pkg_cache[key] = {}
            for other in m.go_dirs.get(d, ()):
                if not with_tests and m.path[other].endswith("_test.go"):
                    continue
                for name, kids in m.children.get(other, {}).items():
                    got.setdefault(name, []).extend(kids)
        return got

    def _go_package_member(self, mid: int | None, name: str):
        if mid is None:
            return None
        m = self.m
        path = m.path.get(mid, "")
        out = []
        for c in self._go_package_names(posixpath.dirname(path), path.endswith("_test.go")).get(name, ()):
            if m.kind.get(c) in NS_KINDS and m.kind.get(c) != "method":
                out.append(("s", c))
            elif m.kind.get(c) in VALUE_KINDS:
                out.extend(self.field_values(c, 1) or [("s", c)])
        return out or None

    # ------------------------------------------------------------ members and classes
    def member(self, v: tuple, name: str, depth: int) -> tuple[set, str | None]:
        """Values of attribute `name` on value `v`, and a note: 'reexport' | 'inferred' | None."""
        m = self.m
        t = v[0]
        if t == "s":
            k = m.kind.get(v[1])
            if k == "module":
                got, via = self.module_attr(v[1], name, depth + 1)
                return got, "reexport" if via else None
            if k in CLASS_KINDS:
                r = self.mro_lookup(v[1], name)
                if r is None:
                    return set(), None
                if r[0] == "s" and m.kind.get(r[1]) in VALUE_KINDS:
                    return self.field_values(r[1], depth), "inferred"
                return {r}, None
            if k in FUNC_KINDS and name in ("call", "apply", "bind") and m.fam.get(v[1]) == "ecma":
                return {v}, None
            if k in VALUE_KINDS:
                own = [c for c in m.children.get(v[1], {}).get(name, ()) if m.kind.get(c) in FUNC_KINDS]
                if own:                      # a function written in the variable's object literal
                    return {("s", c) for c in own}, None
                out: set = set()
                for x in self.field_values(v[1], depth + 1):
                    out |= self.member(x, name, depth + 1)[0]
                return out, "inferred"
            return set(), None
        if t == "m":
            got, via = self.module_attr(v[1], name, depth + 1)
            return got, "reexport" if via else None
        if t == "i":
            return self.instance_member(v[1], name, depth)
        if t == "S":
            cls = v[1]
            mro = self.mro(cls)
            for base in mro[1:]:
                if base[0] == "s":
                    for c in m.children.get(base[1], {}).get(name, ()):
                        if m.kind.get(c) in NS_KINDS:
                            return {("b", c) if v[2] else ("s", c)}, None
                elif base[0] in ("x", "B"):
                    return {(base[0], f"{base[1]}.{name}")}, None
            return set(), None
        if t == "x":
            return {("x", f"{v[1]}.{name}")}, None
        if t == "xi":
            last = v[1].rsplit(".", 1)[-1]
            if last[:1].isupper():
                return {("x", f"{v[1]}.{name}")}, None
            return {("x", f"{v[1]}().{name}")}, None
        if t == "B":
            if "." in v[1] and not v[1].startswith("java."):
                return set(), None           # `str.join.x`: builtins one level deep only
            return {("B", f"{v[1]}.{name}")}, None
        if t == "Bi":
            return {("B", f"{v[1]}.{name}")}, None
        if t == "b" and m.fam.get(v[1]) == "ecma" and name in ("call", "apply", "bind"):
            return {v}, None
        if t in ("c", "L", "E") and name in _CONTAINER_METHODS:
            return {("CM", v, name)}, "inferred"
        return set(), None

    def instance_member(self, cls: int, name: str, depth: int) -> tuple[set, str | None]:
        m = self.m
        r = self.mro_lookup(cls, name)
        if r is not None and r[0] == "s" and m.kind.get(r[1]) in FUNC_KINDS:
            if r[1] in m.static or r[1] in m.classmeth:
                return {("s", r[1])}, None
            if r[1] in m.prop:
                return self.returns_of(r[1], depth + 1), "inferred"
            return {("b", r[1])}, None
        attrs = self.class_attrs(cls).get(name)
        vals: set = set()
        if attrs:
            for row in attrs:
                vals |= self.binding_values(row, depth + 1)
        if r is None or m.kind.get(r[1]) in VALUE_KINDS:
            for base in self.mro(cls):
                if base[0] == "s":
                    if m._lazy:                    # incremental runs load bindings per file
                        m.ensure_bindings(m.path.get(base[1]))
                    for row in m.binds.get(base[1], {}).get(name, ()):
                        vals |= self.binding_values(row, depth + 1)
        if r is not None and r[0] == "s" and m.kind.get(r[1]) in VALUE_KINDS:
            vals |= self.field_values(r[1], depth)
        if vals:
            return vals, "inferred"
        if r is not None:
            if r[0] == "s" and m.kind.get(r[1]) in CLASS_KINDS:
                return {r}, None
            if r[0] in ("x", "B"):
                return {r}, None
        if r is None:
            # a mixin calling what its subclasses provide: look along their MROs
            found = self.subclass_lookup(cls, name)
            if found:
                return {("b", f[1]) if f[0] == "s" else f for f in found}, "inferred"
        return set(), None

    def subclass_lookup(self, cls: int, name: str) -> set:
        """Where `name` is found along the MROs of `cls`'s subclasses (in the repo)."""
        key = ("sub", cls, name)
        got = self._memo.get(key)
        if got is not None:
            return got
        m = self.m
        self._memo[key] = set()
        out: set = set()
        seen = {cls}
        frontier = [cls]
        while frontier and len(seen) < 200:
            c = frontier.pop()
            for sub in m.subclasses_written.get(m.name[c], ()):
                if sub in seen or ("s", c) not in self.mro(sub):
                    continue
                seen.add(sub)
                frontier.append(sub)
                r = self.mro_lookup(sub, name)
                if r is not None and r[0] == "s" and m.kind.get(r[1]) in FUNC_KINDS:
                    out.add(r)
                elif r is not None and r[0] in ("x", "B"):
                    out.add(r)
        self._memo[key] = out
        return out

    def field_values(self, fid: int, depth: int) -> set:
        """Values of a class-level field / module variable symbol (from bindings or its type)."""
        m = self.m
        owner = m.ns(m.parent.get(fid))
        if m._lazy:                    # incremental runs load bindings per file
            m.ensure_bindings(m.path.get(fid))
        vals: set = set()
        for row in m.binds.get(owner, {}).get(m.name[fid], ()):
            vals |= self.binding_values(row, depth + 1)
        if m.name[fid] in m.elements.get(owner, {}):
            vals.add(("c", owner, m.name[fid]))
        if not vals:
            t = self._declared_field_type(fid)
            if t:
                where = m.module_of(fid) if m.fam.get(fid) == "go" else owner
                vals |= self._instances_of(self.eval_text(where, t, depth=depth + 1)[0])
        return vals

    def _instances_of(self, type_values) -> set:
        """Values of a declared type -> the instances it describes (class, external, builtin)."""
        out = set()
        for x in type_values:
            if x[0] == "s" and self.m.kind.get(x[1]) in CLASS_KINDS:
                out.add(("i", x[1]))
            elif x[0] == "x":
                out.add(("xi", x[1]))
            elif x[0] == "B":
                out.add(("Bi", x[1]))
        return out

    def _declared_field_type(self, fid: int) -> str | None:
        m = self.m
        sig = (m.sig.get(fid) or "").split("=", 1)[0].strip().rstrip(";")
        fam = m.fam.get(fid)
        name = m.name[fid]
        if fam in ("python", "ecma"):
            if ":" in sig:
                return declared_type(sig.split(":", 1)[1])
            return None
        if fam == "go":
            bits = sig.split()
            return declared_type(bits[-1]) if len(bits) >= 2 else None
        bits = sig.replace(name, " ").split()
        bits = [b for b in bits if b not in ("private", "public", "protected", "static", "final",
                                             "readonly", "volatile", "transient")]
        return declared_type(bits[-1]) if bits else None

    def class_attrs(self, cls: int) -> dict[str, list[tuple]]:
        """`self.x = value` bindings of a class's methods (its bases' too), by attribute."""
        got = self._class_attrs.get(cls)
        if got is not None:
            return got
        m = self.m
        out: dict[str, list[tuple]] = defaultdict(list)
        self._class_attrs[cls] = out
        for base in self.mro(cls):
            if base[0] != "s":
                continue
            b = base[1]
            if m._lazy:                    # incremental runs load bindings per file
                m.ensure_bindings(m.path.get(b))
            stack = [b]
            while stack:
                s = stack.pop()
                for kids in m.children.get(s, {}).values():
                    for c in kids:
                        if m.kind.get(c) in FUNC_KINDS:
                            stack.append(c)
                if s == b:
                    continue
                selfname = self.self_name(s)
                for head, rest, row in m.attr_binds.get(s, ()):
                    if head == selfname and "." not in rest and rest not in out:
                        out[rest].append(row)
                    elif head == selfname and "." not in rest:
                        out[rest].append(row)
        return out

    def self_name(self, fn: int) -> str | None:
        m = self.m
        fam = m.fam.get(fn)
        if fam in ("ecma", "java"):
            return "this"
        if fam == "go":
            sig = m.sig.get(fn) or ""
            mm = re.match(r"func\s*\(\s*(\w+)", sig)
            return mm.group(1) if mm else None
        if m.kind.get(fn) != "method":
            # nested function inside a method: closes over the method's self
            p = m.ns(m.parent.get(fn))
            return self.self_name(p) if p is not None and m.kind.get(p) in FUNC_KINDS else None
        ps = self.params(fn)
        if not ps or fn in m.static:
            return None
        return ps[0].name

    def mro(self, cls: int) -> list[tuple]:
        """Method resolution order: ("s", class) for repo classes, ("x"/"B", name) for others."""
        got = self._mro.get(cls)
        if got is not None:
            return got
        self._mro[cls] = [("s", cls)]            # cycle guard
        bases = []
        for text in self.m.bases_written.get(cls, ()):
            vals, _ = self.resolve_base(cls, text)
            for v in _ordered(vals):
                if v not in bases and v != ("s", cls):
                    bases.append(v)
            if not vals:
                bases.append(("x", text))
        seqs = [self.mro(b[1]) if b[0] == "s" else [b] for b in bases] + [list(bases)]
        out = [("s", cls)]
        seqs = [list(s) for s in seqs if s]
        while seqs:
            for s in seqs:
                head = s[0]
                if not any(head in t[1:] for t in seqs):
                    break
            else:                                 # inconsistent: fall back to depth-first
                for s in seqs:
                    for x in s:
                        if x not in out:
                            out.append(x)
                break
            out.append(head)
            seqs = [[x for x in t if x != head] for t in seqs]
            seqs = [t for t in seqs if t]
        self._mro[cls] = out
        return out

    def mro_lookup(self, cls: int, name: str) -> tuple | None:
        m = self.m
        for base in self.mro(cls):
            if base[0] == "s":
                kids = m.children.get(base[1], {}).get(name)
                if kids:
                    fn = [c for c in kids if m.kind.get(c) in FUNC_KINDS]
                    return ("s", (fn or kids)[-1])
            elif base[0] in ("x", "B"):
                return (base[0], f"{base[1]}.{name}")
        return None

    def ctor_of(self, cls: int, fam: str) -> int | None:
        """The constructor an instantiation runs: `__init__` / `constructor` along the MRO."""
        m = self.m
        if fam == "python":
            r = self.mro_lookup(cls, "__init__")
            return r[1] if r is not None and r[0] == "s" else None
        if fam == "ecma":
            r = self.mro_lookup(cls, "constructor")
            return r[1] if r is not None and r[0] == "s" else None
        if fam == "java":
            for c in m.children.get(cls, {}).get(m.name[cls], ()):
                if m.kind.get(c) in FUNC_KINDS:
                    return c
        return None

    def ctor_of_bases(self, cls: int, fam: str) -> int | None:
        for base in self.mro(cls)[1:]:
            if base[0] == "s":
                c = self.ctor_of(base[1], fam)
                if c is not None:
                    return c
                if fam != "python":
                    return base[1]
        return None

    # ------------------------------------------------------------ calls
    def call_target(self, v: tuple, fam: str):
        """What calling value `v` runs: ("s", id) | ("x", name) | ("B", name) | None."""
        m = self.m
        t = v[0]
        if t in ("s", "b"):
            k = m.kind.get(v[1])
            if k in FUNC_KINDS or (k == "macro" and fam in ("c", "cpp")):   # a function-like macro
                return ("s", v[1])
            if k in CLASS_KINDS:
                ctor = self.ctor_of(v[1], fam)
                if ctor is not None:
                    return ("s", ctor)
                if self.export:
                    return None
                return ("s", v[1])
            return None
        if t == "i":
            if fam == "go" or fam == "java":
                return None
            r = self.mro_lookup(v[1], "__call__") if fam == "python" else None
            return ("s", r[1]) if r is not None and r[0] == "s" else None
        if t == "m":
            got, _ = self.module_attr(v[1], "default", 0)
            for g in _ordered(got):
                r = self.call_target(g, fam)
                if r is not None:
                    return r
            return None
        if t in ("x", "B"):
            return v
        return None

    def call_result(self, v: tuple, args: str, scope: int, depth: int, new: bool = False) -> set:
        """Values a call of `v` (with `args` as written) returns."""
        m = self.m
        t = v[0]
        if t in ("s", "b"):
            k = m.kind.get(v[1])
            if k in CLASS_KINDS:
                return {("i", v[1])}
            if k in FUNC_KINDS:
                if new:
                    cls = m.enclosing_class(v[1]) if k == "constructor" else None
                    return {("i", cls)} if cls else set()
                return self.returns_of(v[1], depth + 1)
            return set()
        if t == "m":
            got, _ = self.module_attr(v[1], "default", depth + 1)
            out = set()
            for g in _ordered(got):
                out |= self.call_result(g, args, scope, depth + 1, new)
            return out
        if t == "i":
            r = self.mro_lookup(v[1], "__call__")
            if r is not None and r[0] == "s":
                return self.returns_of(r[1], depth + 1)
            return set()
        if t == "CM":
            if v[2] in ("values", "copy", "__iter__"):
                return {v[1]}
            return self.elements_of(v[1], depth + 1)
        if t == "x":
            name = v[1]
            if name in ("functools.partial", "functools.wraps"):
                a = first_arg(args)
                if a and name == "functools.partial":
                    return set(self.eval_text(scope, a, depth=depth + 1)[0])
                return set()
            return {("xi", name)}
        if t == "B":
            name = v[1]
            if name in ("staticmethod", "classmethod", "property", "iter", "reversed", "sorted",
                        "list", "tuple", "set", "frozenset", "next") and args:
                a = first_arg(args)
                inner = set(self.eval_text(scope, a, depth=depth + 1)[0]) if a else set()
                if name in ("staticmethod", "classmethod", "property"):
                    return inner
                if name == "next":
                    out = set()
                    for x in inner:
                        out |= self.elements_of(x, depth + 1)
                    return out
                tname = "list" if name in ("sorted", "reversed", "iter") else name
                return {("Bi", tname), ("E", scope, a)}
            if name == "getattr" and args:
                parts = split_top(args, (",",))
                if len(parts) >= 2:
                    attr = string_value(parts[1])
                    if attr:
                        obj = set(self.eval_text(scope, parts[0], depth=depth + 1)[0])
                        out = set()
                        for o in obj:
                            out |= self.member(o, attr, depth + 1)[0]
                        return out
                return set()
            if name in PY_BUILTIN_TYPES or name in ECMA_CLASSES or name.startswith("java.lang."):
                return {("Bi", name)}
            return set()
        return set()

    def returns_of(self, fn: int, depth: int) -> set:
        key = ("ret", fn)
        got = self._memo.get(key)
        if got is not None:
            return got
        if self._cut(key) or self._too_deep(depth):
            return set()
        self._enter(key)
        complete = False
        try:
            m = self.m
            if m._lazy:                    # incremental runs load bindings per file
                m.ensure_bindings(m.path.get(fn))
            out: set = set()
            for row in m.returns.get(fn, ()):
                vals = self.binding_values(row, depth + 1)
                out |= vals
            if m.yields.get(fn):
                out.add(("c", fn, "<yield>"))
            if not out:
                fam = m.fam.get(fn)
                if fam in ("ecma", "java", "go"):
                    t = self._declared_return(fn, fam)
                    if t:
                        tv, _ = self.eval_text(m.ns(m.parent.get(fn)) or fn, t, depth=depth + 1)
                        for x in _ordered(tv):
                            if x[0] == "s" and m.kind.get(x[1]) in CLASS_KINDS:
                                out.add(("i", x[1]))
                elif fam == "python":
                    sig = m.sig.get(fn) or ""
                    if "->" in sig:
                        t = declared_type(sig.rsplit("->", 1)[1].strip().rstrip(":").strip("'\""))
                        if t:
                            tv, _ = self.eval_text(m.ns(m.parent.get(fn)) or fn, t, depth=depth + 1)
                            for x in _ordered(tv):
                                if x[0] == "s" and m.kind.get(x[1]) in CLASS_KINDS:
                                    out.add(("i", x[1]))
        finally:
            complete = self._leave(key)
        if complete:
            self._memo[key] = out
        return out

    def _declared_return(self, fn: int, fam: str) -> str | None:
        sig = self.m.sig.get(fn) or ""
        if fam == "ecma":
            i = sig.rfind(")")
            rest = sig[i + 1:].strip() if i >= 0 else ""
            return declared_type(rest[1:].strip()) if rest.startswith(":") else None
        if fam == "go":
            i = sig.rfind(")")
            rest = sig[i + 1:].strip()
            if rest.startswith("("):
                rest = split_top(rest[1:-1], (",",))[0] if rest.endswith(")") else ""
            return declared_type(rest.split()[-1] if rest else None)
        if fam == "java":
            head = sig.split("(", 1)[0].split()
            return declared_type(head[-2]) if len(head) >= 2 else None
        return None

    def elements_of(self, v: tuple, depth: int) -> set:
        m = self.m
        t = v[0]
        if t == "c":
            scope, name = v[1], v[2]
            if m._lazy:                    # incremental runs load bindings per file
                m.ensure_bindings(m.path.get(scope))
            if name == "<yield>":
                out: set = set()
                for row in m.yields.get(scope, ()):
                    out |= self.binding_values(row, depth + 1)
                return out
            out = set()
            for row in m.elements.get(scope, {}).get(name, ()):
                out |= self.binding_values(row, depth + 1)
            return out
        if t == "L":
            items = literal_items(v[2]) or ()
            out = set()
            for it in items:
                out |= set(self.eval_text(v[1], it, depth=depth + 1)[0])
            return out
        if t == "A":
            ps = self.params(v[1]) or []
            if v[2] < len(ps):
                return self._arg_flows(v[1], v[2], ps[v[2]], depth + 1, rest=True)
            return set()
        if t == "E":
            out = set()
            for x in _ordered(self.eval_text(v[1], v[2], depth=depth + 1)[0]):
                out |= self.elements_of(x, depth + 1)
            return out
        if t == "i":
            r = self.mro_lookup(v[1], "__iter__")
            if r is not None and r[0] == "s":
                out = set()
                for x in _ordered(self.returns_of(r[1], depth + 1)):
                    out |= self.elements_of(x, depth + 1)
                return out
        return set()

    # ------------------------------------------------------------ parameters
    def params(self, fn: int) -> list[Param] | None:
        try:
            return self._params[fn]
        except KeyError:
            pass
        fam = self.m.fam.get(fn)
        sig = self.m.sig.get(fn)
        ps = py_params(sig) if fam == "python" else typed_params(sig, fam)
        self._params[fn] = ps
        self._param_names[fn] = frozenset(p.name for p in ps) if ps else frozenset()
        return ps

    def param_values(self, fn: int, name: str, depth: int):
        """(values, how) of parameter `name` of function `fn`, or None if it is not one."""
        m = self.m
        if m.fam.get(fn) == "go":
            sig = m.sig.get(fn) or ""
            mm = re.match(r"func\s*\(\s*(\w+)\s+\*?\s*([\w.]+)", sig)
            if mm and mm.group(1) == name:
                tv, _ = self.eval_text(m.module_of(fn), mm.group(2), depth=depth + 1)
                return frozenset(("i", x[1]) for x in tv if x[0] == "s"), "self"
        names = self._param_names.get(fn)
        if names is None:
            self.params(fn)
            names = self._param_names[fn]
        if name not in names:
            return None
        ps = self._params[fn]
        idx = next((i for i, p in enumerate(ps) if p.name == name), None)
        if idx is None:
            return None
        p = ps[idx]
        fam = m.fam.get(fn)
        kind = m.kind.get(fn)
        if fam == "python" and idx == 0 and kind == "method":
            cls = m.enclosing_class(fn)
            if cls is not None and fn not in m.static:
                if fn in m.classmeth or m.name[fn] in (
                        "__new__", "__init_subclass__", "__class_getitem__"):
                    return frozenset({("s", cls)}), "self"
                return frozenset({("i", cls)}), "self"
        key = (fn, name)
        got = self._param_vals.get(key)
        if got is not None:
            return got, "inferred"
        if self._cut(key):
            return frozenset(), "inferred"
        self._enter(key)
        complete = False
        try:
            vals: set = set()
            outer = m.ns(m.parent.get(fn)) or fn
            if p.annotation:
                t = declared_type(p.annotation.strip("'\""))
                if t:
                    vals |= self._instances_of(self.eval_text(outer, t, depth=depth + 1)[0])
            if not vals:
                if p.default:
                    vals |= {v for v in self.eval_text(outer, p.default, depth=depth + 1)[0]
                             if v[0] not in ("Bi", "L")}
                if p.kind in ("pos", "kwonly"):
                    vals |= self._arg_flows(fn, idx, p, depth)
                elif p.kind == "var":
                    vals.add(("A", fn, idx))     # *args: the positional arguments from idx on
        finally:
            complete = self._leave(key)
        res = frozenset(v for v in vals if v[0] != "Bi" or len(vals) == 1)
        if complete:
            self._param_vals[key] = res
        return res, "inferred"

    def _arg_flows(self, fn: int, idx: int, p: Param, depth: int, rest: bool = False) -> set:
        """Values passed to parameter `p` (position `idx`) of `fn` at its evident call sites."""
        m = self.m
        kind = m.kind.get(fn)
        if kind == "lambda":
            return set()
        names = [m.name[fn]]
        cls = m.enclosing_class(fn) if kind in ("method", "constructor") else None
        if cls is not None and m.name[fn] in ("__init__", "constructor"):
            names.append(m.name[cls])
        rows = []
        for n in names:
            rows.extend(m.arg_rows(n))
        rows.extend(self._decorator_flows(fn))
        if len(rows) > self.param_flow_cap * 4:
            return set()
        fam = m.fam.get(fn)
        out: set = set()
        checked = 0
        for row in rows:
            scope, _, name, value, vtype, vid, _line = row
            callee, _, slot = name.rpartition("#")
            if slot.isdigit():
                pos = int(slot)
            else:
                if slot != p.name or rest:
                    continue
                pos = None
            checked += 1
            if checked > self.param_flow_cap:
                break
            deco = callee == "<decorator>"
            cvals, _ = self.eval_text(scope, value if deco else callee, depth=depth + 1)
            for cv in _ordered(cvals):
                tgt = self.call_target(cv, m.fam.get(scope))
                if tgt != ("s", fn):
                    continue
                shift = 0
                if fam == "python" and (cv[0] == "b" or (cv[0] == "s" and m.kind.get(cv[1]) in CLASS_KINDS)):
                    shift = 1
                if pos is not None and (pos + shift < idx if rest else pos + shift != idx):
                    continue
                if pos is None and rest:
                    continue
                if deco:
                    out.add(("s", vid))
                else:
                    out |= self.binding_values(row, depth + 1)
        return out

    def _decorator_flows(self, fn: int) -> list[tuple]:
        """Decorator applications as argument flows: `@d` / `@f(...)` pass the decorated
        function to `d` / to what `f(...)` returns (looked up by `d`'s or `f`'s name)."""
        m = self.m
        if self._deco_flows is None:
            flows: dict[str, list[tuple]] = defaultdict(list)
            for sid, decos in m.decos.items():
                if m.fam.get(sid) != "python" or m.kind.get(sid) not in FUNC_KINDS | CLASS_KINDS:
                    continue
                scope = m.ns(m.parent.get(sid))
                for dec in decos:
                    text = dec.lstrip("@").strip()
                    base = text.split("(", 1)[0]
                    if base in PY_VALUE_DECORATORS or base.endswith((".setter", ".getter", ".deleter")):
                        continue
                    row = (scope, "arg", "<decorator>#0", text, "decorator", sid, m.line.get(sid))
                    flows[base.rsplit(".", 1)[-1]].append(row)
            self._deco_flows = flows
        keys = [m.name[fn]]
        outer = m.ns(m.parent.get(fn))
        if outer is not None and m.kind.get(outer) in FUNC_KINDS:
            keys.append(m.name[outer])
        cls = m.enclosing_class(fn)
        if cls is not None and m.name[fn] == "__init__":
            keys.append(m.name[cls])
        out = []
        for k in keys:
            out.extend(self._deco_flows.get(k, ()))
        return out


# ====================================================================== driving

def _target_row(m: Model, targets: list, how: str, fam: str, name: str, res: Resolver):
    """(dst_id, dst_qualname, resolution, candidates) for the targets of one edge."""
    syms = [t[1] for t in targets if t[0] == "s"]
    others = [t for t in targets if t[0] != "s"]
    if len(syms) == 1 and not others:
        sid = syms[0]
        if how in ("builtin", "external", "unresolved", "name-unique", "ambiguous"):
            how = "inferred"
        return sid, m.qual[sid], how, None
    if len(targets) > 1:
        quals = sorted({m.qual[s] for s in syms}) + sorted({t[1] for t in others})
        if len(quals) == 1 and syms:    # one name defined twice (`if`/`else`, a redefinition):
            return max(syms), quals[0], how, None       # the later definition, as at run time
        if not syms:      # outside the repository for sure; which one is not evident
            kind = "builtin" if all(t[0] == "B" for t in others) else "external"
            return None, None, kind, _cap(quals)
        return None, None, "ambiguous", _cap(quals)
    if others:
        t = others[0]
        return None, t[1], "builtin" if t[0] == "B" else "external", None
    return None, None, "unresolved", None


def _cap(quals: list[str]) -> list[str]:
    if len(quals) <= MAX_CANDIDATES:
        return quals
    return quals[:MAX_CANDIDATES] + [f"... {len(quals) - MAX_CANDIDATES} more"]


def _import_bound(m: Model, scope: int | None, name: str) -> bool:
    """Whether `name` is bound by an import in `scope` or an enclosing scope."""
    while scope is not None:
        if name in m.imports_by_scope.get(scope, {}):
            return True
        scope = m.ns(m.parent.get(scope))
    return False


def _fallback(m: Model, fam: str, text: str, src_id: int):
    """Name-based candidates when evaluation found nothing: (dst_id, qual, resolution, cands).

    Not for names an import binds: an import that does not resolve (a missing module or
    name) makes the call unresolved, never a guess among same-named definitions."""
    parsed = parse_chain(text)
    if parsed is None:
        return None, None, "unresolved", None
    steps = parsed[0]
    if steps[0][0] == "name" and _import_bound(m, m.ns(src_id), steps[0][1]):
        return None, None, "unresolved", None
    last = steps[-1]
    if last[0] not in ("name", "attr") or len(alternatives(text)) > 1:
        return None, None, "unresolved", None
    if fam == "python" and last[0] == "name":
        return None, None, "unresolved", None   # an unbound bare name: NameError, not a guess
    key = (fam, last[0], last[1])               # from here on the answer depends on the name only
    got = m.fallback_cache.get(key)
    if got is None:
        got = m.fallback_cache[key] = _name_candidates(m, fam, last[0], last[1])
    return got


def _name_candidates(m: Model, fam: str, how: str, name: str):
    cands = m.by_name.get((fam, name), ())
    if how == "attr":
        cands = [c for c in cands if m.kind.get(c) in ("method", "function", "constructor", "class")]
    else:
        cands = [c for c in cands if m.kind.get(c) != "method" or fam == "java"]
    if not cands:
        return None, None, "unresolved", None
    if len(cands) == 1:
        return cands[0], m.qual[cands[0]], "name-unique", None
    return None, None, "ambiguous", _cap(sorted({m.qual[c] for c in cands}))


def _import_target_text(module: str | None, name: str | None) -> str:
    target = module or ""
    if name:
        sep = "" if target.endswith(".") or not target else "."
        target = f"{target}{sep}{name}"
    return target[:200]


def resolve_edges(con, changed_paths=None, *, full: bool | None = None,
                  progress: bool = False) -> ResolveStats:
    """Resolve calls/imports/inherits/implements edges and imports.resolved_path.

    `changed_paths=None` (or a database never resolved by this version) resolves
    everything; a list of changed/added/removed paths resolves only what they can affect;
    an empty list does nothing. `progress` shows a bar (tqdm.auto) when there are more
    than `PROGRESS_MIN_EDGES` edges to evaluate.
    """
    with gc_paused():                 # millions of small tuples, no cycles: skip the collector
        return _resolve_edges(con, changed_paths, full, progress)


PROGRESS_MIN_EDGES = 20_000


def _resolve_edges(con, changed_paths, full, progress: bool = False) -> ResolveStats:
    t0 = time.perf_counter()
    stats = ResolveStats()
    version = store.get_meta(con, "resolver_version")
    if full is None:
        full = changed_paths is None or version != RESOLVER_VERSION
    if not full and not changed_paths:
        stats.full = False
        stats.seconds = time.perf_counter() - t0
        return stats
    stats.full = full
    model = Model(con, bulk_bindings=full)
    scope_paths = None if full else _affected_paths(con, model, list(changed_paths))
    res = Resolver(model)
    rows, imp_rows, files = _resolve_set(con, model, res, scope_paths, progress)
    stats.files = files
    stats.edges = len(rows)
    stats.updated = _write_back(con, rows, imp_rows)
    if full:
        _write_candidates(con)
    else:
        _write_candidates(con, [r[0] for r in rows], sorted(changed_paths))
    for r in rows:
        stats.by_resolution[r[7]] = stats.by_resolution.get(r[7], 0) + 1
    store.set_meta(con, resolver_version=RESOLVER_VERSION)
    stats.seconds = time.perf_counter() - t0
    return stats


_LAST_NAME_SQL = "regexp_extract(e.dst_name, '([A-Za-z_$][A-Za-z0-9_$]*)[^A-Za-z0-9_$]*$', 1)"


def _affected_paths(con, m: Model, changed: list[str]) -> set[str]:
    """Source files whose edges a change to `changed` (added, edited, removed files) can
    affect:

    * the changed files themselves;
    * files with an edge into them that went stale (its `dst_id` is gone) or that lists a
      candidate that no longer exists;
    * files importing a changed module, and along re-export chains (`__init__.py`,
      barrels) the importers of the names re-exported from it (importers of a module by
      plain `import m` only when one of their calls names such a name);
    * the files the changed files import (arguments flow into their functions);
    * the other files of a changed file's directory (Java / Go packages);
    * files defining subclasses of classes in the changed files (their MROs changed);
    * files whose name-based edges (`name-unique`, `ambiguous`, `unresolved`) name a
      definition of the changed files.
    """
    chg = set(changed)
    out = {p for p in chg if p in m.paths}
    rows = store.run(con, """
        SELECT DISTINCT e.path FROM edges e LEFT JOIN symbols s ON s.symbol_id = e.dst_id
        WHERE e.dst_id IS NOT NULL AND s.symbol_id IS NULL""")
    out |= {r[0] for r in rows}
    # candidates that vanished (call_candidates keeps the symbol id each one had)
    rows = store.run(con, """
        SELECT DISTINCT e.path FROM call_candidates c JOIN edges e USING (edge_id)
        WHERE c.symbol_id IS NOT NULL
          AND NOT EXISTS (SELECT 1 FROM symbols s WHERE s.symbol_id = c.symbol_id)""")
    out |= {r[0] for r in rows}
    # names defined in the changed files (module level for re-exports; all for name-based)
    top: dict[str, set[str]] = defaultdict(set)
    all_names: set[str] = set()
    chg_syms = [sid for sid, path in m.path.items() if path in chg]
    for sid in chg_syms:
        path = m.path[sid]
        all_names.add(m.name[sid])
        if m.parent.get(sid) == m.file_module.get(path):
            top[path].add(m.name[sid])
    if all_names:
        # a name-based label changes when the set of same-named definitions changes: a
        # definition something already points at (by qualname) existed before the change
        quals = sorted({q for q in (m.qual.get(sid) for sid in chg_syms) if q is not None})
        known = {r[0] for r in store.run(con, """
            SELECT DISTINCT dst_qualname FROM edges
            WHERE dst_qualname IS NOT NULL AND NOT list_contains($chg, path)
              AND list_contains($quals, dst_qualname)
            UNION SELECT DISTINCT qualname FROM call_candidates
            WHERE list_contains($quals, qualname)""", {"chg": sorted(chg), "quals": quals})}
        fresh = {m.name[sid] for sid in chg_syms
                 if m.qual.get(sid) not in known and m.parent.get(sid) is not None}
        if fresh:
            rows = store.run(con, f"""
                SELECT DISTINCT e.path FROM edges e
                WHERE e.kind IN ('calls', 'imports', 'inherits', 'implements')
                  AND e.resolution IN ('name-unique', 'ambiguous', 'unresolved')
                  AND list_contains($names, {_LAST_NAME_SQL})""", {"names": sorted(fresh)})
            out |= {r[0] for r in rows}
    # importers, following re-exports
    by_target: dict[str, list[dict]] = defaultdict(list)
    for row in m.imports:
        if row["resolved_path"]:
            by_target[row["resolved_path"]].append(row)
    exported: dict[str, set[str] | None] = {p: None for p in chg}      # None: every name
    pending: dict[str, set[str]] = defaultdict(set)                      # plain importers to check
    queue = list(chg)
    while queue:
        c = queue.pop()
        names = exported[c]
        for row in by_target.get(c, []) + by_target.get(posixpath.dirname(c), []):
            f = row["path"]
            nm = row["name"]
            plain = nm is None or (nm == "*" and row["alias"])
            if names is None or nm == "*" and not row["alias"]:
                out.add(f)
            elif plain:
                pending[f] |= names
                continue
            elif nm in names:
                out.add(f)
            else:
                continue
            if plain or row["scope"] != m.file_module.get(f):
                continue                      # only module-level from-imports re-export
            if nm == "*":
                grow = set(top.get(c, ())) if names is None else set(names)
            else:
                grow = {row["alias"] or nm}
            have = exported.get(f)
            if have is None and f in exported:
                continue
            new = (have or set()) | grow
            if have is None or new != have:
                exported[f] = new
                queue.append(f)
    pending = {f: n for f, n in pending.items() if f not in out}
    if pending:
        pairs = sorted((f, n) for f, names in pending.items() for n in names)
        rows = store.run(con, f"""
            SELECT DISTINCT e.path FROM edges e
            JOIN (SELECT unnest($paths) AS path, unnest($names) AS name) p
              ON p.path = e.path AND p.name = {_LAST_NAME_SQL}
            WHERE e.kind = 'calls'""", {"paths": [a for a, _ in pairs], "names": [b for _, b in pairs]})
        out |= {r[0] for r in rows}
    # what the changed files import; their package mates; subclasses' files
    dirs = {posixpath.dirname(p) for p in chg}
    for row in m.imports:
        if row["path"] in chg and row["resolved_path"]:
            rp = row["resolved_path"]
            out |= {p for p in m.paths if p == rp or posixpath.dirname(p) == rp}
    for p, lang in m.file_lang.items():
        if lang in ("java", "go") and posixpath.dirname(p) in dirs:
            out.add(p)
    classes = [sid for sid, path in m.path.items() if path in chg and m.kind.get(sid) in CLASS_KINDS]
    seen = set(classes)
    while classes:
        c = classes.pop()
        for sub in m.subclasses_written.get(m.name[c], ()):
            if sub not in seen:
                seen.add(sub)
                classes.append(sub)
                out.add(m.path[sub])
    return out


def _resolve_set(con, m: Model, res: Resolver, scope_paths: set[str] | None, progress: bool = False):
    if scope_paths is None:
        e = _cols(con, """SELECT edge_id, src_id, kind, dst_name, path, line, dst_id, dst_qualname,
                                 resolution, candidates FROM edges
                          WHERE kind IN ('calls', 'imports', 'inherits', 'implements')
                          ORDER BY path, edge_id""")
        files = len(m.file_module)
    else:
        e = _cols(con, """SELECT edge_id, src_id, kind, dst_name, path, line, dst_id, dst_qualname,
                                 resolution, candidates FROM edges
                          WHERE kind IN ('calls', 'imports', 'inherits', 'implements')
                            AND path IN (SELECT unnest(?::VARCHAR[]))
                          ORDER BY path, edge_id""", [sorted(scope_paths)])
        files = len(scope_paths)
    out = []
    # imports first: rows of the imports table, matched to their edges by (path, line, text)
    imp_rows = []
    imp_edge: dict[tuple, tuple] = {}
    for row in m.imports:
        if scope_paths is not None and row["path"] not in scope_paths:
            continue
        vals, how, rpath = _resolve_import(m, res, row)
        imp_rows.append((row["rid"], rpath, row["resolved_path"]))
        text = _import_target_text(row["module"], row["name"])
        imp_edge[(row["path"], row["line"], text)] = (vals, how)
    bar = None
    total = len(e["edge_id"])
    if progress and total > PROGRESS_MIN_EDGES:
        from tqdm.auto import tqdm
        bar = tqdm(total=total, desc="resolving", unit="edge", unit_scale=True, leave=False)
    for i, (eid, src, kind, dst_name, path, line, old_id, old_q, old_res, old_c) in enumerate(zip(
            e["edge_id"], e["src_id"], e["kind"], e["dst_name"], e["path"], e["line"],
            e["dst_id"], e["dst_qualname"], e["resolution"], e["candidates"])):
        if bar is not None and not i & 4095:
            bar.update(i - bar.n)
        fam = m.fam.get(src) if src in m.kind else None
        if fam is None:
            new = (None, None, "unresolved", None)
        elif kind == "imports":
            got = imp_edge.get((path, line, dst_name))
            if got is None:
                new = (None, None, "unresolved", None)
            else:
                vals, how = got
                new = _import_edge_row(m, res, vals, how)
        elif kind in ("inherits", "implements"):
            vals, how = res.resolve_base(src, dst_name)
            targets = [v for v in _ordered(vals)]
            new = _target_row(m, targets, how, fam, dst_name, res)
            if new[2] == "unresolved":
                new = _fallback_class(m, fam, dst_name)
        else:
            try:
                targets, how = res.resolve_call(src, dst_name, line)
            except RecursionError:
                targets, how = [], "unresolved"
            if targets:
                new = _target_row(m, targets, how, fam, dst_name, res)
            elif how == "known-receiver":
                new = (None, None, "unresolved", None)
            else:
                new = _fallback(m, fam, res.callee_text(src, dst_name, line), src)
        out.append((eid, old_id, old_q, old_res, old_c) + new)
    if bar is not None:
        bar.update(total - bar.n)
        bar.close()
    return out, imp_rows, files


def _fallback_class(m: Model, fam: str, text: str):
    name = text.split("<", 1)[0].strip().rsplit(".", 1)[-1]
    cands = [c for c in m.by_name.get((fam, name), ()) if m.kind.get(c) in CLASS_KINDS]
    if not cands:
        cands = [c for c in m.by_qual.get(text, ()) if m.kind.get(c) in CLASS_KINDS]
    if len(cands) == 1:
        return cands[0], m.qual[cands[0]], "name-unique", None
    if len(cands) > 1:
        return None, None, "ambiguous", _cap(sorted({m.qual[c] for c in cands}))
    return None, None, "unresolved", None


def _resolve_import(m: Model, res: Resolver, row: dict):
    """(values, how, resolved_path) of one imports row."""
    fam = row["family"]
    rpath = None
    how = "import"
    if fam == "python":
        dotted = res.py_module_name(row)
        mid = res.py_module(dotted) if dotted is not None else None
        if row["name"] and row["name"] != "*" and mid is not None:
            sub = res.py_module(f"{dotted}.{row['name']}")
            vals, via = res.module_attr(mid, row["name"], 0)
            if not vals and sub is not None:
                vals, via = {("s", sub)}, False
            if sub is not None and vals == {("s", sub)}:
                mid = sub
            how = "reexport" if via else ("alias" if row["alias"] else "import")
        elif row["name"] and row["name"] != "*" and dotted:
            vals = {("x", f"{dotted}.{row['name']}")}
        elif row["name"] == "*":
            vals = {("s", mid)} if mid is not None else ({("x", dotted)} if dotted else set())
        elif mid is not None or dotted:
            full = res.py_module(dotted) if dotted else None
            vals = {("s", full)} if full is not None else {("x", dotted)}
            mid = full
            how = "alias" if row["alias"] else "import"
        else:
            vals = set()
        rpath = m.path.get(mid) if mid is not None else None
    elif fam == "ecma":
        target = res.ecma_resolve(row["path"], row["module"])
        rpath = target
        if row["name"] in (None, "*") or target is None:
            mid = m.file_module.get(target) if target else None
            vals = {("s", mid)} if mid is not None else (
                {("x", row["module"])} if row["module"] and not row["module"].startswith(".") else set())
        else:
            vals, via = res.import_values(row, 0)
            how = "reexport" if via else ("alias" if row["alias"] and row["alias"] != row["name"]
                                          else "import")
    elif fam == "java":
        vals, _ = res.import_values(row, 0)
        for v in _ordered(vals):
            if v[0] == "s":
                rpath = m.path.get(v[1])
    elif fam == "go":
        mid = res._go_import_dir(row["module"])
        vals = {("s", mid)} if mid is not None else {("x", row["module"])}
        if mid is not None:
            rpath = posixpath.dirname(m.path[mid]) or "."
    elif fam == "rust":
        vals, via = res.import_values(row, 0)
        how = "reexport" if via else ("alias" if row["alias"] else "import")
        for v in _ordered(vals):
            if v[0] == "s":
                rpath = m.path.get(v[1])
                break
    else:
        vals = set()
    return vals, how, rpath


def _import_edge_row(m: Model, res: Resolver, vals: set, how: str):
    targets = []
    for v in _ordered(vals):
        if v[0] in ("s", "b", "m"):
            targets.append(("s", v[1]))
        elif v[0] in ("x", "B"):
            targets.append(v)
        elif v[0] == "i":
            targets.append(("s", v[1]))
        elif v[0] == "c":
            pass
    if not targets:
        return None, None, "unresolved", None
    syms = [t for t in targets if t[0] == "s"]
    if len(syms) == 1:
        return syms[0][1], m.qual[syms[0][1]], how, None
    if len(syms) > 1:
        return None, None, "ambiguous", _cap(sorted({m.qual[t[1]] for t in syms}))
    t = targets[0]
    return None, t[1], "builtin" if t[0] == "B" else "external", None


def _write_candidates(con, edge_ids: list[int] | None = None, changed: list[str] | None = None) -> None:
    """Rebuild `call_candidates` (one row per candidate of an ambiguous edge, with the
    candidate's symbol id) from `edges.candidates`: one set-wise statement, so it never
    drifts from the edges or from re-created symbols.

    Incremental runs (`edge_ids`: the edges just re-resolved, `changed`: the changed
    paths) rebuild the rows of those edges only, plus the rows a change can make wrong
    elsewhere: rows of edges that are gone, rows whose symbol is gone, and rows naming a
    qualname defined in a changed file. The result is the same as a full rebuild."""
    if edge_ids is None:
        store.run(con, "DELETE FROM call_candidates")
        store.run(con, """
            INSERT INTO call_candidates
            SELECT c.edge_id, c.q, s.symbol_id
            FROM (SELECT edge_id, unnest(candidates) AS q FROM edges WHERE candidates IS NOT NULL) c
            LEFT JOIN symbols s ON s.qualname = c.q""")
        return
    name = f"_wb_cand_edges_{time.monotonic_ns()}"
    redo = f"_wb_cand_redo_{time.monotonic_ns()}"
    con.register(name, pa.table({"edge_id": pa.array(edge_ids, pa.int64())}))
    try:
        store.run(con, f"""
            CREATE TEMP TABLE {redo} AS
            SELECT edge_id FROM {name}
            UNION SELECT c.edge_id FROM call_candidates c
                  WHERE NOT EXISTS (SELECT 1 FROM edges e WHERE e.edge_id = c.edge_id)
                     OR c.symbol_id IS NOT NULL
                        AND NOT EXISTS (SELECT 1 FROM symbols s WHERE s.symbol_id = c.symbol_id)
            UNION SELECT c.edge_id FROM call_candidates c
                  JOIN (SELECT DISTINCT qualname FROM symbols WHERE list_contains($chg, path)) q
                    ON q.qualname = c.qualname""", {"chg": changed or []})
    finally:
        con.unregister(name)
    try:
        store.run(con, f"DELETE FROM call_candidates WHERE edge_id IN (SELECT edge_id FROM {redo})")
        store.run(con, f"""
            INSERT INTO call_candidates
            SELECT c.edge_id, c.q, s.symbol_id
            FROM (SELECT edge_id, unnest(candidates) AS q FROM edges
                  WHERE candidates IS NOT NULL AND edge_id IN (SELECT edge_id FROM {redo})) c
            LEFT JOIN symbols s ON s.qualname = c.q""")
    finally:
        store.run(con, f"DROP TABLE IF EXISTS {redo}")


def _write_back(con, rows: list, imp_rows: list) -> int:
    changed = [r for r in rows if (r[1], r[2], r[3], r[4] and list(r[4]) or None) !=
               (r[5], r[6], r[7], r[8])]
    n = 0
    if changed:
        tbl = pa.table({
            "edge_id": pa.array([r[0] for r in changed], pa.int64()),
            "dst_id": pa.array([r[5] for r in changed], pa.int64()),
            "dst_qualname": pa.array([r[6] for r in changed], pa.string()),
            "resolution": pa.array([r[7] for r in changed], pa.string()),
            "candidates": pa.array([r[8] for r in changed], pa.list_(pa.string())),
        })
        name = f"_wb_resolved_{time.monotonic_ns()}"
        con.register(name, tbl)
        try:
            store.run(con, f"""UPDATE edges SET dst_id = t.dst_id, dst_qualname = t.dst_qualname,
                                   resolution = t.resolution, candidates = t.candidates
                               FROM {name} t WHERE edges.edge_id = t.edge_id""")
        finally:
            con.unregister(name)
        n += len(changed)
    imp_changed = [r for r in imp_rows if r[1] != r[2]]
    if imp_changed:
        tbl = pa.table({"rid": pa.array([r[0] for r in imp_changed], pa.int64()),
                        "resolved_path": pa.array([r[1] for r in imp_changed], pa.string())})
        name = f"_wb_imports_{time.monotonic_ns()}"
        con.register(name, tbl)
        try:
            store.run(con, f"""UPDATE imports SET resolved_path = t.resolved_path
                               FROM {name} t WHERE imports.rowid = t.rid""")
        finally:
            con.unregister(name)
        n += len(imp_changed)
    return n


__all__ = ["resolve_edges", "ResolveStats", "Model", "Resolver", "RESOLUTIONS", "py_params",
           "typed_params"]
