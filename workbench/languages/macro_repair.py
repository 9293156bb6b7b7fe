"""C and C++: re-parse the regions that annotation macros broke, with those macros blanked.

Real C and C++ code wraps declarations in macros the parser cannot expand: export and
attribute macros before a class or function (`class GTEST_API_ Helper {`,
`FMT_CONSTEXPR auto f()`), annotations after a declarator (`int x OVS_GUARDED;`,
`void f(void) OVS_REQUIRES(m);`), Microsoft's source annotations (`_In_ PVOID p`,
`_IRQL_requires_max_(DISPATCH_LEVEL)`), and macros that open or close a namespace on a
line of their own (`FMT_BEGIN_NAMESPACE`); and `#if` blocks in the middle of a declaration
(a base clause between `class Name` and its `{`, a member initializer of a constructor).
tree-sitter's error recovery then drops or misplaces whole classes, functions and
namespaces.

`repair` finds such macros by their shape and place on the lines of the parse's ERROR and
MISSING nodes (from the start of the declaration around each, at most `MAX_LINES_ABOVE`
lines up) and `class EXPORT Name {` anywhere in the file (that misparse holds no error),
overwrites them (and the directives of a conditional that splits a declaration, with
every branch but the first) with spaces (the same number of bytes, newlines kept, so
every byte offset and line number stays that of the original file), and lets tree-sitter re-parse
incrementally: the unchanged parts of the tree are reused. Rounds repeat while the number
of errors falls (at most `MAX_ROUNDS`); a round that raises it is dropped (one that keeps
it is kept: the macros it blanked were not the code's structure). Names and text are
always read from the original bytes. Files that parse cleanly and hold no
`class EXPORT Name {` are not touched (one regular-expression search).
"""
from __future__ import annotations

import re

MAX_ROUNDS = 3

# an upper-case macro name: two or more characters, digits and underscores allowed
_MACRO = rb"[A-Z][A-Z0-9_]*[A-Z0-9_]"
# arguments: one level of nested parentheses
_ARGS = rb"(?:[ \t]*\((?:[^()]|\((?:[^()]|\([^()]*\))*\))*\))?"
# Microsoft source annotations: `_In_`, `_Out_writes_(n)`, `_IRQL_requires_max_(X)`
_SAL = re.compile(rb"\b_[A-Z]\w*_\b" + _ARGS)
# `class EXPORT_MACRO Name {` / `struct OVS_LOCKABLE ovs_mutex {`
_TAG = re.compile(rb"\b(?:class|struct|union|enum)[ \t]+((?:" + _MACRO + _ARGS + rb"[ \t]+)+)"
                  rb"(?=(?!final\b)[A-Za-z_]\w*(?:<[^;{}]*>)?[ \t\n]*(?:[:{]|final\b))")
# a word that starts a declaration once the macros before it are gone
_DECL_START = (rb"(?:template|class|struct|union|enum|namespace|inline|static|extern|constexpr|"
               rb"consteval|virtual|explicit|friend|const|volatile|void|bool|int|char|unsigned|"
               rb"signed|long|short|float|double|auto|typename|typedef|using)\b"
               rb"|[A-Za-z_][\w:]*(?:<[^;{}()]*>)?[ \t*&]+[*&]*~?[A-Za-z_][\w:]*[ \t]*[(;=\[,{]")
# `GTEST_API_ Result f(` / `FMT_FUNC void f(` / `FMT_CONSTEXPR inline auto g(` at a line start
# (after `template <..>` and specifiers too: `constexpr FMT_INLINE value(int v)`), and
# `FMT_CONSTEXPR basic_string_view(` (a constructor)
_LEAD = re.compile(rb"^[ \t]*(?:template[ \t]*<[^;{}]*>[ \t]+)?"
                   rb"(?:(?:constexpr|inline|static|virtual|explicit|friend|extern)[ \t]+)*"
                   rb"((?:" + _MACRO + _ARGS + rb"[ \t]+)+)"
                   rb"(?=" + _DECL_START + rb"|~?[A-Za-z_]\w*[a-z]\w*[ \t]*\()", re.M)
# a macro standing for a template parameter: `template <typename T, FMT_ENABLE_IF(cond)>`
_TPARAM = re.compile(rb"(,[ \t\n]*" + _MACRO + _ARGS + rb")(?=[ \t\n]*>)")
# a macro alone on its line: `FMT_BEGIN_NAMESPACE`, `GTEST_DISABLE_MSC_WARNINGS_PUSH_(4251)`
_ALONE = re.compile(rb"^[ \t]*([A-Z][A-Z0-9]*_[A-Z0-9_]*" + _ARGS + rb")[ \t]*$", re.M)
# annotations after a parameter list: `void f(void) OVS_REQUIRES(m);`,
# `int get() const FMT_NOEXCEPT {`, `void g() GTEST_LOCK_EXCLUDED_(mu) override;`
_TRAIL = re.compile(rb"(?<=\))((?:[ \t]+(?:const|noexcept|override|final))*)"
                    rb"((?:[ \t\n]+" + _MACRO + _ARGS + rb")+)(?=[ \t\n]*(?:[;,{=]|override\b|final\b))")
# annotations after a variable or member name: `int x OVS_GUARDED;`, `T v_ GUARDED_BY(mu) = 0;`
_TRAIL_NAME = re.compile(rb"[\w\]]((?:[ \t]+" + _MACRO + _ARGS + rb")+)(?=[ \t]*[;,=])")
_TAG_KEYWORD = re.compile(rb"\b(?:class|struct|union|enum|namespace)$")
# an `#if`..`#endif` block holding no other conditional, from its first line through the
# `#endif` line
_IF_BLOCK = re.compile(rb"^[ \t]*#[ \t]*if[^\n]*\n(?:(?![ \t]*#[ \t]*if)[^\n]*\n)*?"
                       rb"[ \t]*#[ \t]*endif\b[^\n]*\n?", re.M)
# a line a declaration may end on, or one that is no code (access specifier, label, comment)
_WHOLE = re.compile(rb"(?:[;{}]|^[ \t]*(?:public|private|protected|default|case\b[^\n]*)[ \t]*:"
                    rb"|\*/|//[^\n]*)[ \t]*$")
_DIRECTIVE = re.compile(rb"^[ \t]*#[ \t]*(\w+)[^\n]*", re.M)
_CONDITIONAL = frozenset({b"if", b"ifdef", b"ifndef", b"elif", b"elifdef", b"elifndef", b"else", b"endif"})


def _in_directive(data: bytes, pos: int) -> bool:
    """Whether `pos` lies in a preprocessor directive (its line or a `\\`-continued one)."""
    start = data.rfind(b"\n", 0, pos) + 1
    while True:
        if data[start:pos].lstrip().startswith(b"#"):
            return True
        prev_end = start - 1            # the newline ending the line before
        j = prev_end - 1
        if j >= 0 and data[j] == 0x0D:  # \r\n
            j -= 1
        if j < 0 or data[j] != 0x5C:    # that line does not end with a backslash
            return False
        pos = prev_end
        start = data.rfind(b"\n", 0, prev_end) + 1


def _split_conditionals(data: bytes, lo: int, hi: int) -> list[tuple[int, int]]:
    """Spans to blank in `#if`..`#endif` blocks that split a declaration (the line before
    does not end one): a base clause between a class head and its `{`, a member
    initializer of a constructor. The directive lines go, and every branch after the first
    (so the code reads as one of its configurations)."""
    out = []
    for m in _IF_BLOCK.finditer(data, lo, min(len(data), hi + 4096)):   # `#endif` may lie past hi
        if m.start() >= hi:
            break
        end = m.start()
        while end > 0 and data[end - 1] in b" \t\r\n":
            end -= 1
        line = data[data.rfind(b"\n", 0, end) + 1:end]
        if not line or _WHOLE.search(line) or _ALONE.match(line) or _in_directive(data, end):
            continue
        directives = list(_DIRECTIVE.finditer(data, *m.span()))
        if any(d.group(1) not in _CONDITIONAL for d in directives):
            continue                    # `#include`, `#define`...: not a split declaration
        keep = True
        for d in directives:
            word = d.group(1)
            if word in (b"else", b"elif", b"elifdef", b"elifndef"):
                keep = False
            nxt = _DIRECTIVE.search(data, d.end(), m.end())
            out.append(d.span())
            if not keep and word != b"endif":
                out.append((d.end(), nxt.start() if nxt else m.end()))
    return out


def _spans(data: bytes, lo: int, hi: int) -> list[tuple[int, int]]:
    """Byte spans of the macros to blank within data[lo:hi] (whole lines), none inside a
    preprocessor directive (a macro's replacement text is not parsed as code)."""
    out = [m.span() for m in _SAL.finditer(data, lo, hi)]
    for rx in (_TAG, _LEAD, _ALONE, _TPARAM):
        out.extend(m.span(1) for m in rx.finditer(data, lo, hi))
    out.extend(m.span(2) for m in _TRAIL.finditer(data, lo, hi))
    for m in _TRAIL_NAME.finditer(data, lo, hi):     # not the name after `class`
        if not _TAG_KEYWORD.search(data, max(0, m.start() - 9), m.start() + 1):
            out.append(m.span(1))
    out = [(s, e) for s, e in out if s < e and not _in_directive(data, s)]
    return out + _split_conditionals(data, lo, hi)


# nodes whose children are declarations: a damaged region starts at such a child
_SCOPES = frozenset({"translation_unit", "declaration_list", "field_declaration_list",
                     "preproc_if", "preproc_ifdef", "preproc_else", "preproc_elif"})
MAX_LINES_ABOVE = 40        # how far above an error its declaration's start is looked for


def _declaration_start(root, s: int, e: int) -> int:
    """Start byte of the innermost declaration (a child of a `_SCOPES` node) holding the
    range [s, e), found top-down with a cursor (`Node.parent` walks from the root)."""
    cur = root.walk()
    start = s
    while True:
        scope = cur.node.type in _SCOPES
        if cur.goto_first_child_for_byte(s) is None:
            return start
        child = cur.node
        if child.start_byte > s or (child.start_byte == s and child.end_byte <= e):
            return start
        if scope:
            start = child.start_byte


def _damaged_lines(data: bytes, root, error_nodes) -> list[tuple[int, int]]:
    """Byte ranges of whole lines: from the start of the declaration holding each error
    (`FMT_CONSTEXPR auto f(` misparses lines before the error shows; at most
    `MAX_LINES_ABOVE` lines up, and at least the line before the error) to the error's
    last line."""
    ranges = []
    for n in error_nodes:
        s, e = n.start_byte, n.end_byte
        line = data.rfind(b"\n", 0, s)
        before = data.rfind(b"\n", 0, line) + 1 if line > 0 else 0   # the line before
        start = _declaration_start(root, s, e)
        if start < before and data.count(b"\n", start, before) > MAX_LINES_ABOVE:
            start = before
            for _ in range(MAX_LINES_ABOVE):
                start = data.rfind(b"\n", 0, start - 1) + 1 if start > 0 else 0
        s = data.rfind(b"\n", 0, min(before, start)) + 1
        e2 = data.find(b"\n", e)
        ranges.append((s, len(data) if e2 < 0 else e2))
    ranges.sort()
    merged: list[list[int]] = []
    for s, e in ranges:
        if merged and s <= merged[-1][1] + 1:
            merged[-1][1] = max(merged[-1][1], e)
        else:
            merged.append([s, e])
    return [(s, e) for s, e in merged]


def _blank(buf: bytearray, s: int, e: int) -> bool:
    changed = False
    for i in range(s, e):
        c = buf[i]
        if c not in (0x20, 0x0A, 0x0D, 0x09):
            buf[i] = 0x20
            changed = True
    return changed


def _error_nodes(root, error_query) -> list:
    from tree_sitter import QueryCursor
    return [n for v in QueryCursor(error_query).captures(root).values() for n in v]


class _Points:
    """(row, column) of byte offsets given in ascending order, counted incrementally."""

    def __init__(self, data: bytes):
        self.data, self.pos, self.row = data, 0, 0

    def at(self, pos: int) -> tuple[int, int]:
        self.row += self.data.count(b"\n", self.pos, pos)
        self.pos = pos
        return self.row, pos - (self.data.rfind(b"\n", 0, pos) + 1)


def suspect(data: bytes) -> bool:
    """Whether a file that parsed without errors may still hold a macro-broken declaration:
    `class EXPORT Name {` parses cleanly as a function `Name` returning `class EXPORT`."""
    return _TAG.search(data) is not None


def repair(data: bytes, tree, parser, error_query, error_caps: dict | None = None):
    """`(tree, errors)`: a tree of `data` parsed with the annotation macros of damaged
    regions blanked, and its number of ERROR/MISSING nodes (`error_query` captures them);
    the tree given when blanking adds errors. The first round also blanks the macros of
    `class EXPORT Name {` anywhere (its misparse holds no error). `error_caps`: the
    captures of `error_query` on `tree` when the caller has them."""
    if error_caps is not None:          # the caller's captures of `error_query` on `tree`
        nodes = [n for v in error_caps.values() for n in v]
    else:
        nodes = _error_nodes(tree.root_node, error_query) if tree.root_node.has_error else []
    errors = len(nodes)
    buf = bytearray(data)
    tags = [m.span(1) for m in _TAG.finditer(data)]
    for rnd in range(MAX_ROUNDS):
        text = bytes(buf)
        spans = [sp for sp in tags if not _in_directive(text, sp[0])] if rnd == 0 else []
        for lo, hi in _damaged_lines(text, tree.root_node, nodes):
            spans.extend(_spans(text, lo, hi))
        edits = sorted({(s, e) for s, e in spans if _blank(buf, s, e)})
        if not edits:
            break
        old = tree.copy()
        points = _Points(data)
        for s, e in edits:
            p_s = points.at(s)
            p_e = points.at(e)
            old.edit(start_byte=s, old_end_byte=e, new_end_byte=e,
                     start_point=p_s, old_end_point=p_e, new_end_point=p_e)
        new_tree = parser.parse(bytes(buf), old)
        new_nodes = _error_nodes(new_tree.root_node, error_query) if new_tree.root_node.has_error else []
        if len(new_nodes) > errors:
            break                       # blanking made it worse: keep the last tree
        tree, nodes, stuck = new_tree, new_nodes, len(new_nodes) == errors
        errors = len(new_nodes)
        if stuck or not nodes:
            break
    return tree, errors
