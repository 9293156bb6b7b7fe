"""Parse one file and extract its rows: a pure function of (path, bytes, language).

`extract_file` returns a `FileRows` whose lists hold plain tuples with *local* symbol
indexes (0 is the file's module symbol); `workbench.store` turns them into global ids.
Nothing here touches the database or the file system, so it runs in worker processes
and is tested without DuckDB.
"""
from __future__ import annotations

import re
from bisect import bisect_right
from dataclasses import dataclass, field

from tree_sitter import QueryCursor

from .languages.doctext import comment_summary, docstring_summary
from .languages import LanguageSpec, module_path
from .bindrows import doc_order, emit_bindings
from .compiled_queries import compiled

MAX_SIGNATURE = 240
MAX_DST_NAME = 200

# symbol tuple layout (local): see SYMBOL_FIELDS
SYMBOL_FIELDS = ("local_id", "kind", "name", "qualname", "parent_local", "start_line", "end_line",
                 "start_byte", "end_byte", "signature", "doc", "decorators", "visibility",
                 "is_truncated", "is_declaration", "body_start_line")
# edge tuple layout (local): src_local, kind, dst_name, dst_local (or None), line, resolution
EDGE_FIELDS = ("src_local", "kind", "dst_name", "dst_local", "line", "resolution")
IMPORT_FIELDS = ("src_local", "module", "name", "alias", "line")
# binding tuple layout (local; call-graph facts from `@bind.*` captures, read by workbench/resolve/)
BINDING_FIELDS = ("src_local", "kind", "name", "value", "value_type", "value_local", "line")


@dataclass
class FileRows:
    status: str = "ok"             # ok | partial | failed
    error_count: int = 0
    message: str | None = None
    symbols: list = field(default_factory=list)
    edges: list = field(default_factory=list)
    imports: list = field(default_factory=list)
    bindings: list = field(default_factory=list)


# ---------------------------------------------------------------- helpers

def _line_end(node) -> int:
    """1-based inclusive last line of a node (a range ending at column 0 ends the line before)."""
    row, col = node.end_point
    srow = node.start_point[0]
    if col == 0 and row > srow:
        return row
    return row + 1


def _text(data: bytes, a: int, b: int) -> str:
    return data[a:b].decode("utf-8", "replace")


_HAS_WS = re.compile(r"\s").search


def _collapse(s: str) -> str:
    """Whitespace runs as one space, none at the ends (`str.split` splits where `\\s` matches)."""
    if not _HAS_WS(s):
        return s
    return " ".join(s.split())


_LICENSE = re.compile(r"copyright|licen[cs]e|spdx-", re.I)


# ---------------------------------------------------------------- extraction

class _Def:
    __slots__ = ("node", "kind", "decl", "name_node", "decorators", "body", "doc", "qualifier",
                 "start", "start_row", "end", "truncated", "extended", "recovered", "parent",
                 "idx", "label", "suffix", "in_class", "to_file_end", "path")

    def __init__(self, node, kind, decl, name_node):
        self.node = node
        self.kind = kind
        self.decl = decl
        self.name_node = name_node
        self.decorators = []
        self.body = None
        self.doc = None
        self.qualifier = None
        self.truncated = False
        self.extended = False
        self.recovered = False
        self.parent = None
        self.label = None               # set for anonymous definitions (`<lambdaN>`)
        self.suffix = ""                # appended to the name (`(#set! name.suffix "=")`)
        self.in_class = False           # parent is the nearest class (`(#set! parent "class")`)
        self.to_file_end = False        # spans to the end of the file (`(#set! extent "file")`)
        self.path = None                # its qualname parts and its ancestors', joined (_qual_path)


def extract_file(path: str, data: bytes, spec: LanguageSpec) -> FileRows:
    """Parse `data` (the bytes of repo-relative `path`) and return its rows."""
    rows = FileRows()
    line_count = data.count(b"\n") + (1 if data and not data.endswith(b"\n") else 0)
    mod_qual = module_path(path, spec)
    if not spec.parse:
        rows.symbols.append(_module_symbol(mod_qual, line_count, len(data), None))
        return rows
    c = compiled(spec)
    tree = c.parser.parse(data)
    root = tree.root_node
    caps = None
    if root.has_error:
        caps = QueryCursor(c.errors).captures(root)
        rows.error_count = max(1, sum(len(v) for v in caps.values()))
        rows.status = "partial"
    if spec.macro_repair:               # C/C++: blank annotation macros where they broke the parse
        from .languages import macro_repair
        if root.has_error or macro_repair.suspect(data):
            tree, n = macro_repair.repair(data, tree, c.parser, c.errors, caps)
            root = tree.root_node
            rows.error_count = n
            rows.status = "partial" if n else "ok"

    defs: dict[tuple[int, int, str], _Def] = {}
    relations: list[tuple[tuple[int, int], str, object]] = []
    docs: dict[tuple[int, int], object] = {}
    calls: list = []
    imports: list = []
    binds: list = []
    comments: list = []
    module_doc = None
    package = None

    matches = c.matches(root)
    roles = c.roles
    shapes, shape_at = c.shapes, c.shape_at
    shaped: set = set()                 # anchor starts of rows from child shapes
    for _pattern, caps in matches:
        role = roles.get(_pattern)
        if role is None:                # a pattern's role is fixed: work it out once
            role = roles[_pattern] = _role_of(caps)
        code = role[0]
        if role[4]:                     # `@bind.args`: rows from its children's shapes
            args = caps.get("bind.args")
            if args:
                container = args[0]
                kid = container.kind_id
                got = shape_at.get(kid, False)
                if got is False:        # a node kind's shapes, looked up by its name once
                    got = shape_at[kid] = shapes.get(container.type)
                if got is not None and (found := got.rows(container)):
                    # anchored as the pattern's own rows are; each row carries the last node
                    # its shape matched (`bindrows` orders by it)
                    anchor = caps[role[2]][0]
                    target = caps.get("bind.target")
                    head = (anchor.start_byte, got.kind, anchor, target[0] if target else None)
                    for row in found:
                        binds.append(head + row)
                    shaped.add(head[0])
        if code == _BIND:               # call-graph bindings, see bindrows.emit_bindings
            value = caps.get("bind.value")
            if value:
                anchor = caps[role[2]][0]
                target = caps.get("bind.target")
                key = caps.get("bind.key")
                binds.append((anchor.start_byte, role[3], anchor, target[0] if target else None,
                              value[0], key[0] if key else None, None))
        elif code == _CALL:
            ns = caps["reference.call"]     # several nodes (Java `obj` + `m`): one callee
            calls.append(ns[0] if len(ns) == 1 else _Span(ns))
        elif code == _DEF:
            name_nodes = caps.get("name")
            if not name_nodes:
                continue
            def_kind = role[1]
            node = caps[def_kind][0]
            nn = name_nodes[0]
            # a pattern that appends a suffix defines a second symbol of the same name
            # node (Ruby `attr_accessor :x` defines `x` and `x=`)
            settings = c.settings.get(_pattern) or {}
            suffix = settings.get("name.suffix", "")
            key = (nn.start_byte, nn.end_byte, suffix)
            d = defs.get(key)
            # the widest node wins; for the same node a definition wins over a declaration
            # (a grammar without a `body` field cannot say "no body" in a pattern)
            if d is None or (node.end_byte - node.start_byte) > (d.node.end_byte - d.node.start_byte) or (
                    d.decl and d.node == node and def_kind.startswith("definition.")):
                nd = _Def(node, def_kind.split(".", 1)[1], def_kind.startswith("declaration."), nn)
                nd.suffix = suffix
                nd.in_class = settings.get("parent") == "class"
                nd.to_file_end = settings.get("extent") == "file"
                if d is not None:
                    nd.decorators = d.decorators
                    nd.body = d.body
                    nd.qualifier = d.qualifier
                defs[key] = nd
                d = nd
            for dec in caps.get("decorator", ()):
                if all(dec.start_byte != x.start_byte for x in d.decorators):
                    d.decorators.append(dec)
            if "body" in caps and d.body is None:
                d.body = caps["body"][0]
            if "qualifier" in caps and d.qualifier is None:
                d.qualifier = caps["qualifier"][0]
            if "doc" in caps:
                docs[key[:2]] = caps["doc"][0]
        elif code == _REL:
            name_nodes = caps["name"]
            key = (name_nodes[0].start_byte, name_nodes[0].end_byte)
            for rel in ("reference.inherits", "reference.implements"):
                for n in caps.get(rel, ()):
                    relations.append((key, rel.split(".", 1)[1], n))
        elif code == _DOC:
            name_nodes = caps["name"]
            docs[(name_nodes[0].start_byte, name_nodes[0].end_byte)] = caps["doc"][0]
        elif code == _IMPORT:
            fixed = c.settings.get(_pattern)   # `(#set! import.name "default")`
            if fixed:
                caps = {**caps, "set": fixed}
            imports.append(caps)
        elif code == _COMMENT:
            comments.extend(caps["comment"])
        elif code == _MODDOC:
            module_doc = caps["doc.module"][0]
        elif code == _PACKAGE:
            package = _text(data, caps["package"][0].start_byte, caps["package"][0].end_byte)

    # ---- symbols: order, nest, clip
    file_end = len(data)
    items = list(defs.values())
    for d in items:
        s = d.node.start_byte
        row = d.node.start_point[0]
        for dec in d.decorators:
            if dec.start_byte < s:
                s = dec.start_byte
                row = dec.start_point[0]
        d.start = s
        d.start_row = row
        d.end = d.node.end_byte
        if d.to_file_end:               # C# `namespace A.B;` holds the rest of the file
            d.end, d.extended = file_end, True
    lexical_module_doc = None
    if rows.status == "partial" and spec.indent_repair:
        from .languages.indent_repair import leading_docstring, repair
        if module_doc is None:
            lexical_module_doc = leading_docstring(data)

        def make_def(node, kind, name_node, body):
            nd = _Def(node, kind, False, name_node)
            nd.body = body
            return nd
        items = repair(data, items, make_def)
    # equal spans (`typedef struct T {..} A, *PA;`): the one with a body sorts last, so it
    # is the parent of what its body holds and the others are its siblings
    items.sort(key=lambda d: (d.start, -d.end, d.body is not None))

    module = _module_symbol(mod_qual, line_count, file_end, lexical_module_doc)
    if module_doc is not None and spec.docstrings:
        module = module[:10] + (docstring_summary(_text(data, module_doc.start_byte, module_doc.end_byte)),) + module[11:]
    sym_rows = [module]
    stack: list[_Def] = []
    ns_prefix = mod_qual
    if spec.module_naming == "package" and package:
        ns_prefix = package
    for d in items:
        while stack and (stack[-1].end <= d.start or stack[-1].node == d.node):
            stack.pop()                 # ended before d, or the same node (`a = b = 1`)
        parent = stack[-1] if stack else None
        if parent is not None and d.end > parent.end:
            d.end = parent.end          # error recovery ran past the parent: clip
            d.truncated = True
        while d.in_class and parent is not None and parent.kind not in spec.class_kinds:
            parent = parent.parent      # written in a constructor, a member of its class
        d.parent = parent
        d.idx = len(sym_rows)
        stack.append(d)
        sym_rows.append(None)           # filled below, once parents are known

    _label_anonymous(items)
    if "node_labels" in spec.extra:
        _label_by_node_type(data, items, spec.extra["node_labels"])
    if "qualified_names" in spec.extra:   # `buffer<T>::append` names `buffer::append`
        _label_qualified(data, items, spec.extra["qualified_names"], spec.extra.get("node_labels", {}))
    if "name_strip" in spec.extra:        # `:app` names `app` (Ruby symbols)
        strip = spec.extra["name_strip"]
        for d in items:
            if d.name_node.type in strip and d.label is None:
                d.label = _text(data, d.name_node.start_byte, d.name_node.end_byte).lstrip(strip[d.name_node.type])
    class_kinds = spec.class_kinds
    impl_keys = {key for key, rel, _ in relations if rel == "implements"}
    trait_impls = {id(d) for d in items if d.kind == "impl"
                   and (d.name_node.start_byte, d.name_node.end_byte) in impl_keys}
    for d in items:
        parent = d.parent
        kind = d.kind
        if kind == "function" and parent is not None and parent.kind in class_kinds:
            kind = "method"
        name = (d.label or _text(data, d.name_node.start_byte, d.name_node.end_byte)) + d.suffix
        own = name.replace("::", ".")
        if d.qualifier is not None:
            own = _text(data, d.qualifier.start_byte, d.qualifier.end_byte) + "." + own
        if parent is not None:
            qual = _qual_path(data, parent, ns_prefix) + "." + own
        else:
            qual = ns_prefix + "." + own if ns_prefix else own
        short = own.rsplit(".", 1)[-1]
        sig = _signature(data, d, spec)
        doc = None
        dn = docs.get((d.name_node.start_byte, d.name_node.end_byte))
        if dn is not None and spec.docstrings and (
                d.body is None or dn.start_point[0] == d.body.start_point[0]):
            doc = docstring_summary(_text(data, dn.start_byte, dn.end_byte))
        elif d.doc is not None:         # read lexically by a repair hook
            doc = d.doc
        decorators = [_collapse(_text(data, x.start_byte, x.end_byte)) for x in
                      sorted(d.decorators, key=lambda n: n.start_byte)]
        vis = _visibility(short, sig, spec)
        if spec.visibility == "pub" and parent is not None and (
                parent.kind == "trait" or id(parent) in trait_impls):
            vis = "public"              # trait items and trait-impl methods are the trait's API
        start_line = d.start_row + 1
        if d.truncated or d.extended:
            end_line = _line_of_end(data, d.end)
        elif spec.trailing_comments_in_body and _ends_with_comment(data, d.end):
            end_line = _last_token_end(d.node)
        else:
            end_line = _line_end(d.node)
        body_line = d.body.start_point[0] + 1 if d.body is not None else None
        sym_rows[d.idx] = (
            d.idx, kind, short, qual, parent.idx if parent is not None else 0,
            start_line, max(start_line, end_line), d.start, d.end, sig, doc,
            decorators, vis, d.truncated, d.decl, body_line)

    if not spec.docstrings and comments:
        _attach_comment_docs(data, comments, items, sym_rows)

    if spec.declaration_files and path.endswith(spec.declaration_files):
        sym_rows = _as_declarations(sym_rows)
    rows.symbols = sym_rows
    # ---- edges
    edges = rows.edges
    for d in items:
        edges.append((d.parent.idx if d.parent is not None else 0, "contains",
                      sym_rows[d.idx][3], d.idx, sym_rows[d.idx][5], "local"))
    by_name = {(d.name_node.start_byte, d.name_node.end_byte): d for d in items}
    for key, rel, n in relations:
        d = by_name.get(key)
        if d is None:
            continue
        edges.append((d.idx, "inherits" if rel == "inherits" else "implements",
                      _collapse(_text(data, n.start_byte, n.end_byte))[:MAX_DST_NAME], None,
                      n.start_point[0] + 1, "unresolved"))

    scopes = _ScopeFinder(items)
    # byte offsets are character offsets in an ASCII file: decode it once, slice the text
    text = data.decode("ascii") if data.isascii() else None
    source = text if text is not None else data
    callees = _Callees()                # the callee written at a..b: callees[source[a:b]]
    if calls:
        resolver = _LocalResolver(items, sym_rows, spec)
        resolved: dict = {}             # (scope, callee) -> (symbol, how): the same answer
        bounds, inner, inner_idx = scopes.bounds, scopes.inner, scopes.inner_idx
        names = resolver.names
        calls.sort(key=doc_order)      # an enclosing callee (`super().f`) before `super`
        append = edges.append
        for n in calls:
            a = n.start_byte
            i = bisect_right(bounds, a)
            sidx = inner_idx[i]
            name = callees[source[a:n.end_byte]]
            if name[name.find(".") + 1:] not in names:
                got = _UNRESOLVED       # its last part names nothing in the file
            else:
                got = resolved.get((sidx, name))
                if got is None:
                    got = resolved[(sidx, name)] = resolver.resolve(inner[i], name)
            append((sidx, "calls", name, got[0], n.start_point[0] + 1, got[1]))

    imports.sort(key=lambda caps: (caps.get("import") or caps.get("import.module")
                                   or caps.get("import.name"))[0].start_byte)
    for caps in imports:
        stmt = (caps.get("import") or caps.get("import.module") or caps.get("import.name"))[0]
        mod = caps.get("import.module")
        nm = caps.get("import.name")
        al = caps.get("import.alias")
        module_txt = _strip_quotes(_text(data, mod[0].start_byte, mod[0].end_byte)) if mod else None
        fixed = caps.get("set") or {}
        name_txt = _text(data, nm[0].start_byte, nm[0].end_byte) if nm else fixed.get("import.name")
        alias_txt = _text(data, al[0].start_byte, al[0].end_byte) if al else fixed.get("import.alias")
        if module_txt is not None:
            module_txt = _collapse(module_txt)
        src = scopes.at(stmt.start_byte)
        line = stmt.start_point[0] + 1
        rows.imports.append((src.idx if src is not None else 0, module_txt, name_txt, alias_txt, line))
        target = module_txt or ""
        if name_txt:
            sep = "" if target.endswith(".") or not target else "."
            target = f"{target}{sep}{name_txt}"
        edges.append((src.idx if src is not None else 0, "imports", target[:MAX_DST_NAME], None,
                      line, "unresolved"))
    if binds:
        emit_bindings(data, source, callees, binds, shaped, items, scopes, rows, MAX_DST_NAME)
    return rows


def _as_declarations(sym_rows: list) -> list:
    """Every symbol but the module marked `is_declaration` (a stub file declares)."""
    i = SYMBOL_FIELDS.index("is_declaration")
    return [r if r[1] == "module" else r[:i] + (True,) + r[i + 1:] for r in sym_rows]


def _ends_with_comment(data: bytes, end: int) -> bool:
    """Whether the last line of a range is a comment line (cheap pre-check)."""
    line_start = data.rfind(b"\n", 0, end) + 1
    return data[line_start:end].lstrip().startswith(b"#")


def _last_token_end(node) -> int:
    """Last line of the last non-comment token: indentation grammars put comments that
    follow a block inside it, while the block (for Python's `ast` too) ends before them."""
    n = node
    while n.child_count:
        c = n.child(n.child_count - 1)
        while c is not None and c.type == "comment":
            c = c.prev_sibling
        if c is None:
            break
        n = c
    return _line_end(n)


def _qual_path(data: bytes, d: _Def, ns_prefix: str) -> str:
    """`ns_prefix` (when set) and the qualname parts of `d`'s ancestors and `d`, dot-joined:
    the qualname before a member of `d`; kept on `d`, worked out once."""
    chain = []
    p = d
    while p is not None and p.path is None:
        chain.append(p)
        p = p.parent
    path = p.path if p is not None else None
    for p in reversed(chain):
        part = _qual_name_part(data, p)
        if path is not None:
            path = path + "." + part
        else:
            path = ns_prefix + "." + part if ns_prefix else part
        p.path = path
    return d.path


def _qual_name_part(data: bytes, d: _Def) -> str:
    if d.label:
        return d.label
    own = _text(data, d.name_node.start_byte, d.name_node.end_byte).replace("::", ".")
    if d.qualifier is not None:
        own = _text(data, d.qualifier.start_byte, d.qualifier.end_byte) + "." + own
    return own


def _module_symbol(qual: str, line_count: int, size: int, doc):
    name = qual.rsplit(".", 1)[-1]
    return (0, "module", name, qual, None, 1, max(1, line_count), 0, size, None, doc, [],
            "public", False, False, None)


def _line_of_end(data: bytes, end_byte: int) -> int:
    line = data.count(b"\n", 0, end_byte) + 1
    if end_byte > 0 and data[end_byte - 1:end_byte] == b"\n":
        line -= 1
    return line


_MEMBER_WS = re.compile(r"\s*(\?\.|\.|::|->)\s*")


class _Callees(dict):
    """`callees[source[a:b]]`: the callee written at a..b of a file (`_callee`, cut to
    MAX_DST_NAME), worked out once per distinct text (most are repeated: `self`, `len`,
    `os.path.join`). `source` is the file decoded when it is ASCII (byte offsets are character
    offsets), else its bytes. (A dict looked up inline: no call per callee.)"""
    __slots__ = ()

    def __missing__(self, raw) -> str:
        got = self[raw] = _callee(raw.decode("utf-8", "replace") if isinstance(raw, bytes)
                                  else raw)[:MAX_DST_NAME]
        return got


def _callee(s: str) -> str:
    """A callee as written, whitespace-collapsed; a chain split over lines
    (`s\n  .normalize`) reads `s.normalize`."""
    if not _HAS_WS(s):
        return s                        # the common case: nothing to collapse
    s = " ".join(s.split())
    # spaces left are single ' ': the substitution changes only a separator with a space
    # next to it (one starts with ? . : -, ends with . : >); elsewhere it gives `s` back
    if (" ." in s or ". " in s or " :" in s or ": " in s or " -" in s or "> " in s
            or " ?" in s):
        return _MEMBER_WS.sub(r"\1", s)
    return s


class _Span:
    """The source range from the first to the last of several nodes (a callee written as
    receiver + name where the grammar has no node for the pair)."""

    def __init__(self, nodes):
        first = min(nodes, key=lambda n: n.start_byte)
        self.start_byte, self.start_point = first.start_byte, first.start_point
        self.end_byte = max(n.end_byte for n in nodes)


def _strip_quotes(s: str) -> str:
    s = s.strip()
    if len(s) >= 2 and s[0] in "\"'`<" and s[-1] in "\"'`>":
        return s[1:-1]
    return s


def _signature(data: bytes, d: _Def, spec: LanguageSpec) -> str:
    start = d.node.start_byte
    for dec in d.decorators:              # annotations inside the node come before the signature
        if d.node.start_byte <= dec.start_byte and dec.end_byte > start:
            start = dec.end_byte
    end = d.body.start_byte if d.body is not None else d.node.end_byte
    if d.body is None and d.kind in ("field", "variable", "constant"):
        text = _text(data, start, end).split("\n", 1)[0]
    else:
        text = _text(data, start, end)
    sig = _collapse(text)
    if d.body is None:
        sig = sig.rstrip(";").rstrip()
    for suffix in spec.strip_signature_suffix:
        if d.body is not None and sig.endswith(suffix):
            sig = sig[: -len(suffix)].rstrip()
            break
    if len(sig) > MAX_SIGNATURE:
        sig = sig[: MAX_SIGNATURE - 1] + "\u2026"
    return sig


_VIS_WORDS = ("private", "protected", "public", "internal")


def _visibility(name: str, sig: str, spec: LanguageSpec) -> str:
    """Visibility from modifiers in the signature, then the language's rule (its spec's
    `visibility` field): `pub` (Rust), `case` (Go exports by capital), `static` (C: file-local)."""
    head = sig.split("(", 1)[0].split()
    for w in _VIS_WORDS:
        if w in head:
            return w
    rule = spec.visibility
    if rule == "pub":
        return "public" if head and head[0].startswith("pub") else "private"
    if rule == "case":
        return "public" if name[:1].isupper() else "private"
    if rule == "static" and "static" in head:
        return "private"
    if spec.private_prefix and name.startswith(spec.private_prefix):
        if name.startswith("__") and name.endswith("__"):
            return "public"             # Python dunders are public protocol
        return "private"
    return "public"


def _attach_comment_docs(data: bytes, comments: list, items: list, sym_rows: list) -> None:
    """Doc of a definition = the comment block directly above it (no blank line between),
    its first sentence (languages/doctext.py), license headers excluded."""
    by_end_line: dict[int, object] = {}
    for cnode in comments:
        by_end_line[_line_end(cnode)] = cnode
    for d in items:
        row = sym_rows[d.idx]
        if row[10] is not None:
            continue
        start_line = row[5]
        block = []
        ln = start_line - 1
        while ln in by_end_line:
            cnode = by_end_line[ln]
            block.append(cnode)
            ln = cnode.start_point[0]
        if not block:
            continue
        block.reverse()
        text = "\n".join(_text(data, x.start_byte, x.end_byte) for x in block)
        if _LICENSE.search(text):
            continue
        doc = comment_summary(text.splitlines())
        if doc:
            sym_rows[d.idx] = row[:10] + (doc,) + row[11:]


class _ScopeFinder:
    """Innermost definition whose body contains a byte offset, for positions in any order.

    A definition's scope is its body (its whole span when it has none). The answer for a
    position is the top of a stack walked through the spans in start order, where a span
    is pushed once its start is reached and popped once its end is; it changes only at a
    span's start or end. It is worked out once at each of those boundaries (`bounds`,
    ascending): `inner[i]` is the definition at positions from `bounds[i - 1]` up to
    `bounds[i]` (`inner[0]`, before the first boundary, is None), so a position is one
    bisection away (`inner[bisect_right(bounds, pos)]`); `inner_idx` holds the symbol
    indexes of the same (0, the module, for None)."""

    def __init__(self, items: list[_Def]):
        spans = []
        for d in items:
            if d.body is not None:
                s, e = d.body.start_byte, min(d.body.end_byte, d.end)
            else:
                s, e = d.start, d.end
            spans.append((s, -e, e, d))
        spans.sort(key=_span_order)
        bounds = sorted({t[0] for t in spans} | {t[2] for t in spans})
        inner: list = [None]
        stack: list[tuple[int, int, _Def]] = []
        ptr, n = 0, len(spans)
        for pos in bounds:
            while ptr < n and spans[ptr][0] <= pos:
                s, _, e, d = spans[ptr]
                while stack and stack[-1][1] <= s:
                    stack.pop()
                stack.append((s, e, d))
                ptr += 1
            while stack and stack[-1][1] <= pos:
                stack.pop()
            inner.append(stack[-1][2] if stack else None)
        self.bounds = bounds
        self.inner = inner
        self.inner_idx = [0 if d is None else d.idx for d in inner]

    def at(self, pos: int):
        return self.inner[bisect_right(self.bounds, pos)]


def _span_order(t):
    return t[0], t[1]


_UNRESOLVED = (None, "unresolved")


class _LocalResolver:
    """Same-file resolution of bare names and self/this members; cross-file is workbench/resolve/."""

    def __init__(self, items: list[_Def], sym_rows: list, spec: LanguageSpec):
        self.spec = spec
        self.children: dict[int, dict[str, list[int]]] = {}
        for d in items:
            pidx = d.parent.idx if d.parent is not None else 0
            self.children.setdefault(pidx, {}).setdefault(sym_rows[d.idx][2], []).append(d.idx)
        self.kind = {d.idx: sym_rows[d.idx][1] for d in items}
        # the names defined in the file: `resolve` finds nothing for a name (`f`, `self.f`)
        # whose last part is not one of them (names hold no dot)
        self.names = {name for by_name in self.children.values() for name in by_name}
        self.parent = {d.idx: (d.parent.idx if d.parent is not None else 0) for d in items}

    def _lookup(self, scope: int, name: str):
        found = self.children.get(scope, {}).get(name)
        if not found:
            return None, None
        if len(found) > 1:
            found = [found[-1]]         # later definition rebinds the name in the same scope
        return found[0], "local"

    def resolve(self, src, name: str):
        parts = name.split(".")
        scope = src.idx if src is not None else 0
        if len(parts) == 1 and name.isidentifier():
            first = True
            while True:
                kind = self.kind.get(scope)
                if first or self.spec.class_scope_visible or kind not in self.spec.class_kinds:
                    idx, how = self._lookup(scope, name)
                    if idx is not None:
                        return idx, how
                first = False
                if scope == 0:
                    return None, "unresolved"
                scope = self.parent.get(scope, 0)
        if len(parts) == 2 and parts[0] in ("self", "this", "cls") and parts[1].isidentifier():
            s = scope
            while s and self.kind.get(s) not in self.spec.class_kinds:
                s = self.parent.get(s, 0)
            if s:
                idx, _ = self._lookup(s, parts[1])
                if idx is not None:
                    return idx, "self"
        return None, "unresolved"


# ---------------------------------------------------------------- call-graph captures

_BIND_PARTS = ("bind.target", "bind.value", "bind.key", "bind.args")
_DEF, _CALL, _REL, _DOC, _BIND, _IMPORT, _COMMENT, _MODDOC, _PACKAGE, _OTHER = range(10)


def _role_of(caps: dict) -> tuple:
    """What a query pattern's matches are, from their capture names (decided once per
    pattern): (role, definition capture, binding capture, binding kind: the capture without
    its `bind.` prefix, whether it captures `@bind.args`). The order is the precedence (a
    call pattern may capture `@bind.args` too)."""
    def_kind = next((k for k in caps if k.startswith(("definition.", "declaration."))), None)
    bind_kind = next((k for k in caps if k.startswith("bind.") and k not in _BIND_PARTS), None)
    if def_kind is not None:
        code = _DEF
    elif "reference.call" in caps:
        code = _CALL
    elif "name" in caps and ("reference.inherits" in caps or "reference.implements" in caps):
        code = _REL
    elif "doc" in caps and "name" in caps:
        code = _DOC
    elif bind_kind is not None:
        code = _BIND
    elif "import.module" in caps or "import.name" in caps:
        code = _IMPORT
    elif "comment" in caps:
        code = _COMMENT
    elif "doc.module" in caps:
        code = _MODDOC
    elif "package" in caps:
        code = _PACKAGE
    else:
        code = _OTHER
    return (code, def_kind, bind_kind, bind_kind[5:] if bind_kind is not None else None,
            bind_kind is not None and "bind.args" in caps)


def _label_anonymous(items: list[_Def]) -> None:
    """Name `@definition.lambda` symbols `<lambdaN>`, N counted from 1 in source order
    within the enclosing definition (the module when there is none)."""
    counters: dict[int, int] = {}
    for d in items:
        if d.kind == "lambda":
            k = id(d.parent)
            counters[k] = counters.get(k, 0) + 1
            d.label = f"<lambda{counters[k]}>"


def _label_by_node_type(data: bytes, items: list[_Def], labels: dict) -> None:
    """Name definitions whose name node is of a listed type `prefix + text of a field`."""
    for d in items:
        rule = labels.get(d.name_node.type)
        if rule is not None and rule[1] is None:
            d.label = rule[0]
        elif rule is not None:
            part = d.name_node.child_by_field_name(rule[1])
            if part is not None:
                d.label = rule[0] + _collapse(_text(data, part.start_byte, part.end_byte))


def _label_qualified(data: bytes, items: list[_Def], rules: dict, labels: dict) -> None:
    """Name definitions whose name node is a qualified name of a type in `rules` part by
    part, a scope part of the rule's type by its `name` field (`A<T>::B<int>::f` is
    `A::B::f`); only names that hold such a scope get a label."""
    for d in items:
        scope_type = rules.get(d.name_node.type)
        if scope_type is None or d.label is not None:
            continue
        parts, n, dropped = [], d.name_node, False
        while n is not None and n.type == d.name_node.type:
            scope = n.child_by_field_name("scope")
            if scope is not None and scope.type == scope_type and scope.child_by_field_name("name"):
                scope, dropped = scope.child_by_field_name("name"), True
            if scope is not None:
                parts.append(_text(data, scope.start_byte, scope.end_byte))
            n = n.child_by_field_name("name")
        if not dropped or n is None:
            continue
        rule = labels.get(n.type)
        part = n.child_by_field_name(rule[1]) if rule is not None and rule[1] else None
        last = rule[0] + _collapse(_text(data, part.start_byte, part.end_byte)) if part is not None else (
            _text(data, n.start_byte, n.end_byte))
        d.label = "::".join(parts + [last])


def line_count_of(data: bytes) -> int:
    return data.count(b"\n") + (1 if data and not data.endswith(b"\n") else 0)


__all__ = ["extract_file", "FileRows", "SYMBOL_FIELDS", "EDGE_FIELDS", "IMPORT_FIELDS", "BINDING_FIELDS",
           "line_count_of"]
