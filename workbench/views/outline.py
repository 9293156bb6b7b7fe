"""Outlines of a file, a directory or the whole repository, in five formats.

    markdown  compact indented form (what models read best)
    json      for programs
    tags      dense tag markup: [CLS:Order][EXTENDS:Entity][METHOD:add(self, x) @34-39]
    stub      the language's own syntax with bodies elided
    prose     short sentences: "Class Order extends Entity (lines 17-68). Methods: ..."

Everything comes from the `symbols`, `imports` and `edges` tables (nothing is parsed).
The `Rules` decide what is shown: docs, imports, module variables, fields, private
members, decorators, signatures, line numbers, `max_children` and `max_depth` (nesting
levels shown; deeper members are counted as "+N nested").

`max_children` caps the members shown per class (and the definitions shown per file). A
cap does not cut by position: it keeps the constructor, then the public members, then the
private ones, each ranked by how often the index sees them used (resolved calls, imports
and inheritance pointing at them), and shows the kept ones in source order. The marker
says how many were left out, of which kinds, and how to see them:
"... 32 more, the least used: 20 private methods, 12 methods (all: max_children=none)".

    >>> outline(wb, "shop/orders.py").text
    >>> outline(wb, "shop", format="tags", docs=False).tokens
"""
from __future__ import annotations

import json
import re
from dataclasses import dataclass, field

from .. import rowcache, store
from ..vocab import ANONYMOUS_KINDS, DATA_LANGUAGES, MEMBER_KINDS, SIGNATURE_KINDS, VARIABLE_KINDS
from .response import Response
from .rules import FORMATS, Rules
from .source import FileInfo, all_files, file_info
from .tokens import get_tokenizer

# ---------------------------------------------------------------- data


@dataclass
class Sym:
    id: int
    kind: str
    name: str
    qualname: str
    parent_id: int | None
    start: int
    end: int
    signature: str | None
    doc: str | None
    decorators: list
    visibility: str | None
    truncated: bool
    declaration: bool
    bases: list = field(default_factory=list)      # [(relation, name)]
    children: list = field(default_factory=list)
    uses: int = 0                                  # resolved edges pointing here (filled when a cap ranks)
    owner: str | None = None                       # class of a method defined outside it (Go receiver, C++ `Circle::`)

    @property
    def private(self) -> bool:
        return self.visibility == "private"


@dataclass
class FileData:
    info: FileInfo
    doc: str | None = None
    imports: list = field(default_factory=list)     # display strings, in order
    import_rows: list = field(default_factory=list)  # (module, name, alias), in order
    top: list = field(default_factory=list)         # top-level Syms
    definitions: int = 0

    @property
    def path(self) -> str:
        return self.info.path

    @property
    def language(self) -> str | None:
        return self.info.language


_SYM_SQL = """SELECT symbol_id, path, kind, name, qualname, parent_id, start_line, end_line,
       signature, doc, decorators, visibility, coalesce(is_truncated, false),
       coalesce(is_declaration, false)
FROM symbols WHERE {where} ORDER BY path, start_line, end_line DESC, symbol_id"""


_IMPORT_SQL = "SELECT path, module, name, alias FROM imports WHERE {where} ORDER BY path, line, module, name"
_BASES_SQL = ("SELECT {path}src_id, kind, dst_name FROM edges WHERE kind IN ('inherits', 'implements') "
              "AND {where} ORDER BY edge_id")
# (cache group, the query of every row, the column the rows are grouped by: the path)
_CACHED = {"symbols": (_SYM_SQL.format(where="true"), 1),
           "imports": (_IMPORT_SQL.format(where="true"), 0),
           "bases": (_BASES_SQL.format(where="true", path="path, "), 0)}


def _cached(cache, name: str, by_path: dict) -> list:
    """The rows of `by_path`'s files of one of the loader's queries, from the row cache: the
    rows the query with that scope returns (its rows of other files are skipped anyway),
    in its order (files in path order, each file's rows in the query's order)."""
    sql, key = _CACHED[name]
    groups = cache.grouped("outline." + name, sql, key)
    out: list = []
    for path in sorted(by_path):
        out.extend(groups.get(path, ()))
    return out


def cache_rows(cache) -> None:
    """Load the rows `load` keeps in a row cache now (instead of at their first use)."""
    from .source import all_files
    all_files(cache.con)
    for name, (sql, key) in _CACHED.items():
        cache.grouped("outline." + name, sql, key)


def _where(scope: str | None, col: str = "path") -> tuple[str, list]:
    if scope is None:
        return "true", []
    if scope.endswith("/"):
        return f"starts_with({col}, ?)", [scope]
    return f"{col} = ?", [scope]


def import_label(module: str | None, name: str | None, alias: str | None,
                 language: str | None = None) -> str:
    """How one imported binding is shown: ``pkg.mod.Name``, ``./path:Name``, ``a::b::C``."""
    module = module or ""
    if name:
        if not module:
            s = name
        elif "::" in module or language == "rust":
            s = f"{module}::{name}"
        elif re.fullmatch(r"[\w.]*", module):
            s = f"{module}{'' if module.endswith('.') else '.'}{name}"
        else:
            s = f"{module}:{name}"
    else:
        s = module
    if alias and alias != name and alias != s:
        s = f"{s} as {alias}"
    return s


def load(con, scope: str | None, files: list[FileInfo]) -> list[FileData]:
    """Outline data of `files` (all under `scope`: a path, "dir/" prefix, or None = repo)."""
    where, params = _where(scope)
    by_path = {f.path: FileData(f) for f in files}
    syms: dict[int, Sym] = {}
    modules: dict[str, Sym] = {}
    order: list[tuple[str, Sym]] = []
    cache = rowcache.of(con)
    for r in (_cached(cache, "symbols", by_path) if cache is not None
              else store.run(con, _SYM_SQL.format(where=where), params)):
        (sid, path, kind, name, qual, parent, sl, el, sig, doc, decs, vis, trunc, decl) = r
        if path not in by_path or kind in ANONYMOUS_KINDS:
            continue
        s = Sym(sid, kind, name, qual, parent, sl, el, sig, doc, list(decs or []), vis, trunc, decl)
        syms[sid] = s
        if kind == "module" and parent is None:
            modules[path] = s
        else:
            order.append((path, s))
    for path, s in order:
        if s.parent_id is not None and s.parent_id not in syms:
            continue                    # inside a hidden (anonymous) definition
        fd = by_path[path]
        fd.definitions += 1
        parent = syms.get(s.parent_id) if s.parent_id is not None else None
        if parent is None or (parent.kind == "module" and parent.parent_id is None):
            fd.top.append(s)
            if s.kind == "method" and s.qualname.count(".") >= 1:
                s.owner = s.qualname.rsplit(".", 2)[-2]
        else:
            parent.children.append(s)
            if s.kind == "method" and parent.kind == "namespace":   # C++ `Circle::area` in a namespace
                mid = s.qualname[len(parent.qualname) + 1:]
                if s.qualname.startswith(parent.qualname + ".") and mid.endswith("." + s.name):
                    s.owner = mid[: -len(s.name) - 1]
    for path, m in modules.items():
        by_path[path].doc = m.doc
    iw, ip = _where(scope)
    seen: dict[str, set] = {}
    for path, module, name, alias in (_cached(cache, "imports", by_path) if cache is not None else store.run(
            con, _IMPORT_SQL.format(where=iw), ip)):
        fd = by_path.get(path)
        if fd is None:
            continue
        label = import_label(module, name, alias, fd.language)
        if label and label not in seen.setdefault(path, set()):
            seen[path].add(label)
            fd.imports.append(label)
            fd.import_rows.append((module, name, alias))
    ew, ep = _where(scope, "path")
    for src, kind, dst in (
            [r[1:] for r in _cached(cache, "bases", by_path)] if cache is not None
            else store.run(con, _BASES_SQL.format(where=ew, path=""), ep)):
        s = syms.get(src)
        if s is not None and dst:
            s.bases.append((kind, dst))
    return [by_path[f.path] for f in files]


# ---------------------------------------------------------------- shared helpers

_MODIFIERS = frozenset("""def async function func fn pub public private protected static final
abstract synchronized export default const let var override virtual inline extern unsafe
native readonly get set declare internal open suspend operator constexpr explicit friend
sealed partial new""".split())


def callable_sig(sig: str | None, name: str) -> str:
    """``name(params) -> ret`` from a full signature; the name alone when there is none."""
    if not sig:
        return name
    m = re.search(re.escape(name) + r"\s*(<[^()]*>|\[[^()]*\])?\s*\(", sig)
    if not m:
        return name
    rest = sig[m.start():]
    prefix = sig[:m.start()].strip()
    if prefix and "(" not in prefix and "->" not in rest:
        words = [w for w in prefix.split() if w not in _MODIFIERS and not w.startswith(("@", "pub("))]
        ret = " ".join(words).strip()
        if ret and not ret.endswith((".", "::")):
            rest = f"{rest} -> {ret}"
    return rest


# Patterns tried right after an occurrence of the variable's name in its signature. They
# are compiled once: a pattern built around each name would be compiled again for every
# variable (the regex cache holds 512), seconds for a module with thousands of them.
_ANNOT = re.compile(r"[?!]?\s*:\s*([^=]+?)\s*(?:=|$)")                   # name: T = v
_GO_FIELD = re.compile(r"\s+([^=`\s][^=`]*?)\s*(?:`|=|$)")                 # Name Type `tag`
_C_DECL = re.compile(r"\s*(?:\[[^\]]*\])?\s*(?:=|;|$)")                    # T name[] = v;
_SPACE = re.compile(r"\s")


def _after_name(sig: str, name: str, pattern: re.Pattern, lead: str = ""):
    """(start of the name, match of `pattern` right after it) for the first occurrence of
    `name` in `sig` at the start or after whitespace (or a character of `lead`)."""
    i = sig.find(name)
    while i >= 0:
        if i == 0 or _SPACE.match(sig[i - 1]) or sig[i - 1] in lead:
            m = pattern.match(sig, i + len(name))
            if m:
                return i, m
        i = sig.find(name, i + 1)
    return None


def var_label(s: Sym) -> str:
    """``NAME`` or ``NAME: type`` of a variable/field, whatever the language writes:
    ``name: T = v`` (Python, TS, Rust), ``name T `tag``` (Go), ``static final T name = v``
    (Java, C)."""
    sig = (s.signature or "").strip()
    name = s.name
    if not name:
        return name
    hit = _after_name(sig, name, _ANNOT)
    if hit and "(" not in hit[1].group(1):
        return f"{name}: {hit[1].group(1).strip()}"
    m = _GO_FIELD.match(sig, len(name)) if sig.startswith(name) else None   # Go: Name Type `tag`
    if m:
        return f"{name}: {m.group(1).strip()}"
    hit = _after_name(sig, name, _C_DECL, lead="*")
    if hit:                                                               # Java / C: T name = v
        words = [w for w in sig[:hit[0]].split() if w not in _MODIFIERS
                 and not w.startswith("@")]
        typ = " ".join(words).replace(" *", "*").strip()
        if typ and not typ.endswith(("=", ",")):
            return f"{name}: {typ}"
    return name


def lines_label(s: Sym, short: bool = False) -> str:
    if s.start == s.end:
        return f"{s.start}" if short else f"line {s.start}"
    return f"{s.start}-{s.end}" if short else f"lines {s.start}-{s.end}"


def _keep(s: Sym, rules: Rules, in_container: bool) -> bool:
    if not rules.private and s.private:
        return False
    if in_container and not rules.fields and s.kind in MEMBER_KINDS:
        return False
    return True


def _is_var(s: Sym) -> bool:
    """A module variable, listed on one line; one that holds functions (a JS object literal
    `const api = { run() {...} }`) is shown as a definition with its members instead."""
    return s.kind in VARIABLE_KINDS and not any(c.kind in SIGNATURE_KINDS for c in s.children)


_PLURAL = {"class": "classes", "property": "properties", "enum_member": "enum members",
           "impl": "impl blocks", "namespace": "namespaces", "type": "types"}
CONSTRUCTOR_NAMES = frozenset({"__init__", "__new__", "constructor", "new"})


@dataclass
class Cut:
    """What a `max_children` cap left out: how many, of which kinds."""
    n: int = 0
    kinds: dict = field(default_factory=dict)      # "private methods" -> 20, largest first

    def __bool__(self) -> bool:
        return self.n > 0

    @classmethod
    def of(cls, dropped: list) -> "Cut":
        counts: dict[str, int] = {}
        for c in dropped:
            word = _PLURAL.get(c.kind, c.kind.replace("_", " ") + "s")
            counts[("private " if c.private else "") + word] = counts.get(
                ("private " if c.private else "") + word, 0) + 1
        return cls(len(dropped), dict(sorted(counts.items(), key=lambda kv: (-kv[1], kv[0]))))

    def kinds_text(self) -> str:
        return ", ".join(f"{v} {k if v != 1 else _singular(k)}" for k, v in self.kinds.items())

    def text(self) -> str:
        """`32 more, the least used: 20 private methods, 12 methods (all: max_children=none)`"""
        return f"{self.n} more, the least used: {self.kinds_text()} (all: max_children=none)"


def _singular(plural: str) -> str:
    for one, many in _PLURAL.items():
        if plural.endswith(many):
            return plural[: -len(many)] + one.replace("_", " ")
    return plural[:-1] if plural.endswith("s") else plural


def rank_key(s: Sym, position: int) -> tuple:
    """What a cap keeps first: the constructor, then public members, then private ones; each
    group by use in the index, then by position in the file."""
    return (s.name not in CONSTRUCTOR_NAMES, s.private, -s.uses, position)


def cap(items: list, limit: int | None) -> tuple[list, Cut]:
    """(the `limit` best-ranked items in their original order, what was left out)."""
    if limit is None or len(items) <= limit:
        return items, Cut()
    ranked = sorted(range(len(items)), key=lambda i: rank_key(items[i], i))
    keep = sorted(ranked[:limit])
    dropped = [items[i] for i in sorted(ranked[limit:])]
    return [items[i] for i in keep], Cut.of(dropped)


def members(s: Sym, rules: Rules, depth: int) -> tuple[list, Cut, int]:
    """(shown children, what the max_children cap left out, count hidden by max_depth)
    of a symbol whose children sit at nesting level `depth` (top level = 1)."""
    kids = [c for c in s.children if _keep(c, rules, True)]
    if rules.max_depth is not None and depth > rules.max_depth:
        return [], Cut(), _count_all(kids, rules)
    kids, cut = cap(kids, rules.max_children)
    return kids, cut, 0


def load_uses(con, data: list, rules: Rules) -> None:
    """Fill `Sym.uses` for the members a `max_children` cap will rank (one query; nothing
    when no cap applies)."""
    if rules.max_children is None:
        return
    ids: list[int] = []

    def walk(syms: list) -> None:
        kept = [c for c in syms if _keep(c, rules, True)]
        if len(kept) > rules.max_children:
            ids.extend(c.id for c in kept)
        for c in syms:
            walk(c.children)

    for fd in data:
        tops = [s for s in fd.top if _keep(s, rules, False)]
        if len([s for s in tops if not _is_var(s)]) > rules.max_children:
            ids.extend(s.id for s in tops)
        for s in fd.top:
            walk(s.children)
    if not ids:
        return
    uses = dict(store.run(con, "SELECT dst_id, count(*) FROM edges WHERE kind <> 'contains' "
                               "AND dst_id IN (SELECT unnest(?::BIGINT[])) GROUP BY 1", [ids]))
    wanted = set(ids)

    def fill(syms: list) -> None:
        for c in syms:
            if c.id in wanted:
                c.uses = uses.get(c.id, 0)
            fill(c.children)

    for fd in data:
        fill(fd.top)


def _count_all(kids: list, rules: Rules) -> int:
    n = 0
    for c in kids:
        n += 1 + _count_all([k for k in c.children if _keep(k, rules, True)], rules)
    return n


def top_level(fd: FileData, rules: Rules) -> tuple[list, list, Cut]:
    """(module variables shown, other top-level definitions shown, what the max_children
    cap left out of those)."""
    tops = [s for s in fd.top if _keep(s, rules, False)]
    vars_ = [s for s in tops if _is_var(s)] if rules.module_vars else []
    defs, cut = cap([s for s in tops if not _is_var(s)], rules.max_children)
    return vars_, defs, cut


def _decorators(s: Sym, rules: Rules) -> list[str]:
    return list(s.decorators) if rules.decorators else []


def _base_names(s: Sym, relation: str | None = None) -> list[str]:
    return [n for k, n in s.bases if relation is None or k == relation]


# ---------------------------------------------------------------- markdown

def _md_label(s: Sym, rules: Rules) -> str:
    if rules.signatures and s.signature:
        label = s.signature
    else:
        label = f"{s.kind} {s.name}"
    decs = _decorators(s, rules)
    if decs:
        label = " ".join(decs) + " " + label
    return label


def _md_sym(s: Sym, rules: Rules, indent: int, depth: int, out: list[str]) -> None:
    pad = "  " * indent
    line = pad + _md_label(s, rules)
    if rules.line_numbers:
        line += f" [{lines_label(s)}]"
    if s.truncated:
        line += " (truncated)"
    kids, more, hidden = members(s, rules, depth + 1)
    if hidden:
        line += f" (+{hidden} nested)"
    if rules.docs and s.doc:
        line += f" \u2014 {s.doc}"
    out.append(line)
    flds = [c for c in kids if c.kind in MEMBER_KINDS and not c.children]
    for label, group in (("values", [c for c in flds if c.kind == "enum_member"]),
                         ("fields", [c for c in flds if c.kind != "enum_member"])):
        if group:
            out.append(pad + f"  {label}: " + ", ".join(
                var_label(c) + (f" [{lines_label(c)}]" if rules.line_numbers else "") for c in group))
    for c in kids:
        if c in flds:
            continue
        _md_sym(c, rules, indent + 1, depth + 1, out)
    if more:
        out.append(f"{pad}  ... {more.text()}")


def md_file(fd: FileData, rules: Rules) -> str:
    head = f"## {fd.path} ({fd.definitions} definition{'s' if fd.definitions != 1 else ''})"
    if rules.docs and fd.doc:
        head += f" \u2014 {fd.doc}"
    out = [head]
    if rules.imports and fd.imports:
        out.append("imports: " + ", ".join(fd.imports))
    vars_, defs, more = top_level(fd, rules)
    if vars_:
        out.append("module_vars: " + ", ".join(
            var_label(v) + (f" [{lines_label(v)}]" if rules.line_numbers else "") for v in vars_))
    for s in defs:
        _md_sym(s, rules, 0, 1, out)
    if more:
        out.append(f"... {more.text()}")
    return "\n".join(out)


# ---------------------------------------------------------------- json

def _json_sym(s: Sym, rules: Rules, depth: int) -> dict:
    d: dict = {"kind": s.kind, "name": s.name}
    if rules.signatures and s.signature:
        d["signature"] = s.signature
    decs = _decorators(s, rules)
    if decs:
        d["decorators"] = decs
    if s.bases:
        d["bases"] = _base_names(s)
    if rules.line_numbers:
        d["lines"] = [s.start, s.end]
    if s.truncated:
        d["truncated"] = True
    if rules.docs and s.doc:
        d["doc"] = s.doc
    kids, more, hidden = members(s, rules, depth + 1)
    if kids:
        d["children"] = [_json_sym(c, rules, depth + 1) for c in kids]
    if more:
        d["more"] = more.n
        d["more_kinds"] = more.kinds
    if hidden:
        d["nested_hidden"] = hidden
    return d


def json_file(fd: FileData, rules: Rules) -> dict:
    d: dict = {"path": fd.path, "language": fd.language, "lines": fd.info.line_count,
               "version": fd.info.version, "definitions": fd.definitions}
    if rules.docs and fd.doc:
        d["doc"] = fd.doc
    if rules.imports and fd.imports:
        d["imports"] = fd.imports
    vars_, defs, more = top_level(fd, rules)
    if vars_:
        d["module_vars"] = [_json_sym(v, rules, 1) for v in vars_]
    d["symbols"] = [_json_sym(s, rules, 1) for s in defs]
    if more:
        d["more"] = more.n
        d["more_kinds"] = more.kinds
    return d


# ---------------------------------------------------------------- tags

TAG_NAMES = {"class": "CLS", "interface": "IFACE", "struct": "STRUCT", "enum": "ENUM",
             "trait": "TRAIT", "impl": "IMPL", "function": "FN", "method": "METHOD",
             "constructor": "CTOR", "field": "FIELD", "property": "PROP", "variable": "VAR",
             "constant": "CONST", "module": "MOD", "namespace": "NS", "type": "TYPE",
             "macro": "MACRO", "enum_member": "MEMBER", "union": "UNION", "record": "RECORD"}


def _tag(s: Sym, rules: Rules) -> str:
    name = TAG_NAMES.get(s.kind, s.kind.upper())
    if s.kind in SIGNATURE_KINDS and rules.signatures:
        value = callable_sig(s.signature, s.name)
    elif s.kind in SIGNATURE_KINDS:
        value = s.name
    elif s.kind in MEMBER_KINDS:
        value = var_label(s) if rules.signatures else s.name
    else:
        value = s.name
    if s.owner:
        value = f"{s.owner}.{value}"
    loc = f" @{lines_label(s, short=True)}" if rules.line_numbers else ""
    out = "".join(f"[{d}]" for d in _decorators(s, rules))
    out += f"[{name}:{value}{loc}]"
    out += "".join(f"[{'EXTENDS' if k == 'inherits' else 'IMPLEMENTS'}:{n}]" for k, n in s.bases)
    if s.truncated:
        out += "[TRUNCATED]"
    if rules.docs and s.doc:
        out += f"[DOC:{s.doc}]"
    return out


def _tag_members(s: Sym, rules: Rules, depth: int) -> str:
    kids, more, hidden = members(s, rules, depth + 1)
    out = ""
    for c in kids:
        out += _tag(c, rules)
        inner = _tag_members(c, rules, depth + 1)
        if inner:
            out += "{" + inner + "}"
    if more:
        out += f"[MORE:{more.n}:{more.kinds_text()}]"
    if hidden:
        out += f"[NESTED:{hidden}]"
    return out


def tags_file(fd: FileData, rules: Rules) -> str:
    head = f"[FILE:{fd.path}" + (f" @1-{fd.info.line_count}" if rules.line_numbers else "") + "]"
    if rules.docs and fd.doc:
        head += f"[DOC:{fd.doc}]"
    out = [head]
    if rules.imports and fd.imports:
        out.append(f"[IMPORTS:{','.join(fd.imports)}]")
    vars_, defs, more = top_level(fd, rules)
    if vars_:
        out.append("".join(_tag(v, rules) for v in vars_))
    for s in defs:
        out.append(_tag(s, rules) + _tag_members(s, rules, 1))
    if more:
        out.append(f"[MORE:{more.n}:{more.kinds_text()}]")
    return "\n".join(out)


# ---------------------------------------------------------------- stub

_HASH_COMMENT = frozenset({"python", "ruby", "bash", "perl", "r", "elixir", "julia", "nim", "tcl",
                           "cmake", "make", "hcl", "powershell", "yaml", "toml"})
_DASH_COMMENT = frozenset({"lua", "haskell", "sql", "elm"})
_SEMICOLON = frozenset({"java", "c", "cpp", "csharp", "typescript", "tsx", "javascript", "jsx",
                        "php", "scala", "dart", "d", "cuda", "objc", "solidity"})


def _comment(lang: str | None) -> str:
    if lang in _HASH_COMMENT:
        return "#"
    if lang in _DASH_COMMENT:
        return "--"
    if lang == "rust":
        return "///"
    return "//"


def _stub_var(s: Sym, lang: str | None) -> str:
    sig = s.signature or s.name
    if s.name not in sig:                      # e.g. a Go `const (` block named by its first entry
        sig = f"{sig.rstrip('({[ ')} {s.name} ..."
    clipped = sig.endswith("\u2026") or s.end > s.start or sig.rstrip().endswith(("{", "[", "(", "=", ","))
    if clipped:
        if "=" in sig:
            sig = sig.split("=", 1)[0].rstrip() + " = ..."
        else:
            sig = sig.rstrip("{[(,= ") or s.name
    if s.kind == "enum_member":               # `A,` in Rust, TypeScript and Java alike
        return sig.rstrip(",; ") + ","
    if lang == "go" and s.kind in VARIABLE_KINDS and not sig.startswith(("const ", "var ")):
        sig = ("const " if s.kind == "constant" else "var ") + sig
    if lang in _SEMICOLON and not sig.endswith(";"):
        sig += ";"
    elif lang == "rust" and not sig.endswith((",", ";")):
        sig += "," if s.kind == "field" else ";"
    return sig


class _Stub:
    def __init__(self, fd: FileData, rules: Rules):
        self.fd = fd
        self.rules = rules
        self.lang = fd.language
        self.py = fd.language == "python"
        self.c = _comment(fd.language)
        self.unit = "    " if self.py else "  "
        self.out: list[str] = []

    def loc(self, s: Sym, hidden: int = 0, more: int = 0) -> str:
        bits = []
        if self.rules.line_numbers:
            bits.append(lines_label(s))
        if s.truncated:
            bits.append("truncated")
        if hidden:
            bits.append(f"+{hidden} nested")
        return f"  {self.c if self.c != '///' else '//'} {', '.join(bits)}" if bits else ""

    def doc_line(self, pad: str, doc: str) -> str:
        if self.py:
            return f'{pad}"""{doc.replace(chr(34) * 3, chr(92) + chr(34) * 3)}"""'
        return f"{pad}{self.c} {doc}"

    def header(self, s: Sym) -> str:
        if self.rules.signatures and s.signature:
            return s.signature
        if self.py:
            if s.kind in SIGNATURE_KINDS:
                return f"def {s.name}(...)"
            return f"{'class' if s.kind != 'module' else s.kind} {s.name}"
        if s.kind in SIGNATURE_KINDS:
            return f"{s.name}(...)"
        return f"{s.kind} {s.name}"

    def sym(self, s: Sym, indent: int, depth: int) -> None:
        pad = self.unit * indent
        rules, out = self.rules, self.out
        if s.kind in MEMBER_KINDS and not s.children:
            if rules.docs and s.doc and not self.py:
                out.append(self.doc_line(pad, s.doc))
            out.append(pad + (_stub_var(s, self.lang) if rules.signatures else s.name) + self.loc(s))
            return
        doc = s.doc if rules.docs else None
        if not self.py and doc:                 # doc comments go above annotations
            out.append(self.doc_line(pad, doc))
        for d in _decorators(s, rules):
            out.append(pad + d)
        kids, more, hidden = members(s, rules, depth + 1)
        head = self.header(s)
        if self.py:
            if not kids and not doc and not more:
                out.append(f"{pad}{head}: ...{self.loc(s, hidden)}")
                return
            out.append(f"{pad}{head}:{self.loc(s, hidden)}")
            inner = pad + self.unit
            if doc:
                out.append(self.doc_line(inner, doc))
            for c in kids:
                self.sym(c, indent + 1, depth + 1)
            if more:
                out.append(f"{inner}# ... {more.text()}")
            if s.kind in SIGNATURE_KINDS and kids:
                out.append(f"{inner}...")
            return
        if s.declaration:
            out.append(f"{pad}{head}{';' if self.lang in _SEMICOLON or self.lang == 'rust' else ''}"
                       f"{self.loc(s, hidden)}")
            return
        if not kids and not more:
            body = "{}" if s.kind not in SIGNATURE_KINDS and s.start == s.end else "{ ... }"
            out.append(f"{pad}{head} {body}{self.loc(s, hidden)}")
            return
        opener = head if head.endswith("{") else f"{head} {{"     # `const api = {` has its brace
        out.append(f"{pad}{opener}{self.loc(s, hidden)}")
        inner = pad + self.unit
        for c in kids:
            self.sym(c, indent + 1, depth + 1)
        if more:
            out.append(f"{inner}{self.c} ... {more.text()}")
        if s.kind in SIGNATURE_KINDS:
            out.append(f"{inner}...")
        out.append(f"{pad}}}")

    def render(self) -> str:
        fd, rules, out = self.fd, self.rules, self.out
        c = self.c if self.c != "///" else "//"
        out.append(f"{c} {fd.path}" + (f" ({fd.info.line_count} lines)" if rules.line_numbers else ""))
        if rules.docs and fd.doc:
            out.append(f'"""{fd.doc}"""' if self.py else f"{c} {fd.doc}")
        if rules.imports and fd.imports:
            if self.py:
                out.extend(_py_import_lines(fd.import_rows))
            else:
                out.append(f"{c} imports: " + ", ".join(fd.imports))
        vars_, defs, more = top_level(fd, rules)
        var_ids = {id(v) for v in vars_}
        for s in sorted(vars_ + defs, key=lambda x: (x.start, -x.end)):
            if id(s) in var_ids:
                if rules.docs and s.doc and not self.py:
                    out.append(self.doc_line("", s.doc))
                out.append((_stub_var(s, self.lang) if rules.signatures else s.name) + self.loc(s))
            else:
                self.sym(s, 0, 1)
        if more:
            out.append(f"{c} ... {more.text()}")
        return "\n".join(out)


def _py_import_lines(rows: list[tuple]) -> list[str]:
    """Python import statements from (module, name, alias) rows; consecutive names from
    the same module share one ``from ... import`` line."""
    lines: list[str] = []
    last_mod = None
    for module, name, alias in rows:
        as_ = f" as {alias}" if alias and alias != name else ""
        if not name:
            lines.append(f"import {module}{as_}")
            last_mod = None
        elif module == last_mod:
            lines[-1] += f", {name}{as_}"
        else:
            lines.append(f"from {module} import {name}{as_}")
            last_mod = module
    return lines


def stub_file(fd: FileData, rules: Rules) -> str:
    return _Stub(fd, rules).render()


# ---------------------------------------------------------------- prose

_KIND_WORD = {"function": "Function", "method": "Method", "class": "Class", "interface": "Interface",
              "struct": "Struct", "enum": "Enum", "trait": "Trait", "impl": "Impl block",
              "type": "Type", "namespace": "Namespace", "module": "Module", "macro": "Macro",
              "constructor": "Constructor", "union": "Union", "record": "Record"}


def _prose_member(c: Sym, rules: Rules, depth: int) -> str:
    text = callable_sig(c.signature, c.name) if (rules.signatures and c.kind in SIGNATURE_KINDS) else c.name
    if c.owner:
        text = f"{c.owner}.{text}"
    decs = _decorators(c, rules)
    if decs:
        text = " ".join(decs) + " " + text
    if rules.line_numbers:
        text += f" ({lines_label(c, short=True)})"
    if rules.docs and c.doc:
        text += f" \u2014 {c.doc.rstrip('.:;,')}"
    kids, more, hidden = members(c, rules, depth + 1)
    if kids or more or hidden:
        inner = [_prose_member(k, rules, depth + 1) for k in kids]
        if more:
            inner.append(more.text())
        if hidden:
            inner.append(f"{hidden} nested not shown")
        text += " [defines " + "; ".join(inner) + "]"
    return text


def _prose_sym(s: Sym, rules: Rules) -> str:
    word = _KIND_WORD.get(s.kind, s.kind.capitalize())
    own = f"{s.owner}." if s.owner else ""
    if s.kind in SIGNATURE_KINDS and rules.signatures:
        text = f"{word} {own}{callable_sig(s.signature, s.name)}"
    else:
        text = f"{word} {own}{s.name}"
    ext = _base_names(s, "inherits")
    imp = _base_names(s, "implements")
    if ext:
        text += " extends " + ", ".join(ext)
    if imp:
        text += " implements " + ", ".join(imp)
    decs = _decorators(s, rules)
    if decs:
        text += " (decorated " + " ".join(decs) + ")"
    if rules.line_numbers:
        text += f", {lines_label(s)}"
    if s.truncated:
        text += " (truncated)"
    text += "."
    if rules.docs and s.doc:
        text += f" {s.doc.rstrip('.:;,')}."
    kids, more, hidden = members(s, rules, 2)
    flds = [c for c in kids if c.kind in MEMBER_KINDS and not c.children]
    others = [c for c in kids if c not in flds]
    for label, group in (("Values", [c for c in flds if c.kind == "enum_member"]),
                         ("Fields", [c for c in flds if c.kind != "enum_member"])):
        if group:
            text += f" {label}: " + ", ".join(
                var_label(c) if rules.signatures else c.name for c in group) + "."
    if others:
        label = "Methods" if all(c.kind in SIGNATURE_KINDS for c in others) else "Members"
        if s.kind in SIGNATURE_KINDS:
            label = "Defines"
        text += f" {label}: " + "; ".join(_prose_member(c, rules, 2) for c in others) + "."
    if more:
        text += f" And {more.text()}."
    if hidden:
        text += f" ({hidden} nested definitions not shown.)"
    return text


def prose_file(fd: FileData, rules: Rules) -> str:
    lang = fd.language or "unknown-language"
    head = f"{fd.path} is a {lang} file of {fd.info.line_count} lines with {fd.definitions} definitions."
    if rules.docs and fd.doc:
        head += f" {fd.doc.rstrip('.:;,')}."
    out = [head]
    if rules.imports and fd.imports:
        out.append("It imports " + ", ".join(fd.imports) + ".")
    vars_, defs, more = top_level(fd, rules)
    if vars_:
        out.append("Module variables: " + ", ".join(
            (var_label(v) if rules.signatures else v.name)
            + (f" ({lines_label(v)})" if rules.line_numbers else "") for v in vars_) + ".")
    for s in defs:
        out.append(_prose_sym(s, rules))
    if more:
        out.append(f"And {more.text()}.")
    return "\n".join(out)


# ---------------------------------------------------------------- entry points

RENDERERS = {"markdown": md_file, "json": json_file, "tags": tags_file, "stub": stub_file,
             "prose": prose_file}


def _con(x):
    return getattr(x, "con", x)


def _no_outline_text(info: FileInfo) -> str:
    if info.status == "skipped":
        return f"{info.path}: not outlined ({info.skip_reason or 'skipped'})"
    if info.status == "failed":
        return f"{info.path}: could not be parsed; read it with read_region (it has {info.line_count} lines)"
    return (f"{info.path}: {info.language or 'unknown'} file of {info.line_count} lines; no outline "
            "for this file type, read it with read_region")


def outlinable(info: FileInfo) -> bool:
    return (info.status in ("ok", "partial") and info.language is not None
            and info.language not in DATA_LANGUAGES)


def render(con, path: str = ".", rules: Rules | None = None) -> tuple[str, dict, dict]:
    """(text, structured data, source versions) of the outline of `path` under `rules`.

    `path` is a repo-relative file, a directory, or "." for the whole repository (already
    checked by `pathsafe`). Raises LookupError with agent-facing text when nothing is there.
    """
    rules = rules or Rules()
    con = _con(con)
    info = file_info(con, path) if path != "." else None
    if info is not None:
        files, scope = [info], path
    else:
        prefix = "" if path == "." else path.rstrip("/") + "/"
        files = [f for f in all_files(con) if f.path.startswith(prefix)]
        if not files:
            raise LookupError(f"error: no indexed file or directory {path!r}; "
                              "call list_files to see what exists")
        scope = prefix or None
    if len(files) == 1 and info is not None and not outlinable(info):
        return _no_outline_text(info), {"path": info.path, "outline": None}, {}
    code = [f for f in files if outlinable(f)]
    if not code:
        return (f"no source files to outline under {path!r} ({len(files)} other files)",
                {"path": path, "files": []}, {})
    data = load(con, scope, code)
    load_uses(con, data, rules)
    versions = {fd.path: fd.info.sha256 for fd in data}
    fmt = rules.format
    if fmt == "json":
        parts = [json_file(fd, rules) for fd in data]
        obj = parts[0] if info is not None else {"path": path, "files": parts}
        text = json.dumps(obj, ensure_ascii=False, indent=rules.json_indent,
                          separators=None if rules.json_indent else (",", ":"))
        return text, obj, versions
    render_one = RENDERERS[fmt]
    text = "\n\n".join(render_one(fd, rules) for fd in data)
    obj = [json_file(fd, rules) for fd in data]
    return text, (obj[0] if info is not None else {"path": path, "files": obj}), versions


def outline(wb, path: str = ".", rules: Rules | None = None, *, format: str | None = None,
            **overrides) -> Response:
    """The outline of a file, directory or the repository as a `Response` (text + tokens).

    `format` and any `Rules` field may be given as keywords to adjust `rules`.
    """
    from . import pathsafe
    rules = rules or Rules()
    if format is not None:
        overrides["format"] = format
    if overrides:
        rules = rules.replace(**overrides)
    if rules.format not in FORMATS:
        raise ValueError(f"unknown format {rules.format!r}")
    tok = get_tokenizer(rules.tokenizer)
    args = {"path": path, "format": rules.format}
    try:
        rel = pathsafe.normalise(path)
        root = store.get_meta(_con(wb), "root")
        if root:
            rel, _ = pathsafe.check(root, rel)
        text, data, versions = render(wb, rel, rules)
        err = False
    except (pathsafe.PathError, LookupError) as exc:
        text, data, versions, err = str(exc), None, {}, True
        if isinstance(exc, LookupError):
            text = exc.args[0]
    return Response("outline", text, tok.count(text), args, tok.name, err, data, versions)


__all__ = ["outline", "render", "load", "Rules", "FORMATS", "callable_sig", "import_label"]
