"""Which definitions changed between two versions of a file, compared on the syntax tree.

A definition's *own code* is the sequence of tokens (tree-sitter leaves) inside its range,
without comments and without the definitions nested in it (each of those is compared on
its own). Two versions of a definition are the same when their own code is the same
after a small normalisation of what formatters change: whitespace and line breaks (never
tokens), comments (dropped), the quote character of strings, a trailing comma before a
closing bracket, and Python's backslash line continuations. So reformatting a file and
editing comments are not changes. Docstrings (a string statement first in a body, in a
language whose specs read docstrings) count as comments unless `docstrings=True`.

Definitions are matched by qualified name without the module prefix (so a renamed file
still matches) and, for repeated names (a property getter and setter), by their order.

    >>> old = definitions("pkg/mod.py", old_bytes)
    >>> new = definitions("pkg/mod.py", new_bytes)
    >>> compare(old, new)            # [Changed('modified', old_def, new_def), ...]
"""
from __future__ import annotations

import hashlib
from bisect import bisect_left
from dataclasses import dataclass, field

from ..compiled_queries import compiled
from ..extract import extract_file
from ..languages import LanguageSpec
from ..vocab import ANONYMOUS_KINDS, MEMBER_KINDS

#: Kinds that are never a task of their own: their code is part of the enclosing
#: definition's own code (a changed class field changes the class).
NOT_TASKS = frozenset(MEMBER_KINDS | ANONYMOUS_KINDS | {"module"})

_CLOSERS = frozenset({")", "]", "}", ">"})
_SKIPPED_LEAVES = frozenset({"line_continuation"})


@dataclass
class Definition:
    key: tuple[str, int]          # (qualified name without the module prefix, occurrence)
    kind: str
    name: str
    qualname: str
    parent: tuple[str, int] | None   # key of the enclosing task definition (None: top level)
    start_line: int
    end_line: int
    body_start_line: int | None
    start_byte: int
    end_byte: int
    fingerprint: str = ""
    tokens: int = 0               # tokens of its own code
    children: list = field(default_factory=list)   # keys of the definitions nested in it


@dataclass
class FileDefinitions:
    path: str
    language: str
    status: str                   # the extractor's status: ok | partial
    defs: dict                    # key -> Definition, in source order


_STRINGS = frozenset({"string", "concatenated_string"})


def _is_docstring(node) -> bool:
    """A string alone as the first statement of a body (a Python docstring; grammars
    differ on whether an `expression_statement` wraps it)."""
    if node.type == "expression_statement":
        if node.named_child_count != 1 or node.named_children[0].type not in _STRINGS:
            return False
    elif node.type not in _STRINGS:
        return False
    parent = node.parent
    if parent is None or parent.type not in ("block", "module"):
        return False
    prev = node.prev_named_sibling
    while prev is not None and "comment" in prev.type:
        prev = prev.prev_named_sibling
    return prev is None


def _leaves(root, data: bytes, docstrings: bool = True) -> list[tuple[int, int, str]]:
    """(start_byte, end_byte, normalised text) of every token outside comments (and
    outside docstrings unless `docstrings`), in order."""
    out: list[tuple[int, int, str]] = []
    cursor = root.walk()
    while True:
        node = cursor.node
        t = node.type
        descend = True
        if "comment" in t or t in _SKIPPED_LEAVES or (not docstrings and _is_docstring(node)):
            descend = False
        elif node.child_count == 0:
            descend = False
            text = data[node.start_byte:node.end_byte].decode("utf-8", "replace")
            if text in ("'", '"', "'''", '"""') or t in ("string_start", "string_end"):
                text = text.replace("'", '"')        # quote style is formatting
            if text or node.is_named:
                out.append((node.start_byte, node.end_byte, text or t))
        if descend and cursor.goto_first_child():
            continue
        while not cursor.goto_next_sibling():
            if not cursor.goto_parent():
                return out


def _own_tokens(leaves: list, starts: list[int], a: int, b: int, holes: list[tuple[int, int]]) -> list[str]:
    """Texts of the leaves inside bytes [a, b) but outside the `holes` (nested definitions),
    without a comma right before a closing bracket."""
    toks: list[str] = []
    holes = sorted(holes)
    h = 0
    for i in range(bisect_left(starts, a), len(leaves)):
        s, e, text = leaves[i]
        if s >= b:
            break
        while h < len(holes) and holes[h][1] <= s:
            h += 1
        if h < len(holes) and holes[h][0] <= s < holes[h][1]:
            continue
        if text in _CLOSERS and toks and toks[-1] == ",":
            toks.pop()
        toks.append(text)
    return toks


def definitions(path: str, data: bytes, spec: LanguageSpec, docstrings: bool = False) -> FileDefinitions:
    """The task-worthy definitions of one version of a file, with their fingerprints
    (`docstrings`: a changed docstring is a change)."""
    rows = extract_file(path, data, spec)
    syms = rows.symbols
    module_qual = syms[0][3] if syms else ""
    tree = compiled(spec).parser.parse(data)
    leaves = _leaves(tree.root_node, data, docstrings or not spec.docstrings)
    starts = [x[0] for x in leaves]
    by_local: dict[int, Definition] = {}
    seen: dict[str, int] = {}
    defs: dict[tuple[str, int], Definition] = {}
    for r in syms[1:]:
        (local, kind, name, qual, parent_local, sl, el, sb, eb, _sig, _doc, _decs, _vis,
         _trunc, decl, body) = r
        if kind in NOT_TASKS or decl:
            continue
        short = qual[len(module_qual) + 1:] if module_qual and qual.startswith(module_qual + ".") else qual
        n = seen.get(short, 0)
        seen[short] = n + 1
        parent = _task_parent(syms, parent_local, by_local)
        d = Definition((short, n), kind, name, qual, parent.key if parent else None, sl, el, body, sb, eb)
        by_local[local] = d
        defs[d.key] = d
        if parent is not None:
            parent.children.append(d.key)
    for d in defs.values():
        holes = [(defs[k].start_byte, defs[k].end_byte) for k in d.children]
        toks = _own_tokens(leaves, starts, d.start_byte, d.end_byte, holes)
        d.tokens = len(toks)
        d.fingerprint = hashlib.blake2b("\x1f".join(toks).encode("utf-8", "surrogatepass"),
                                        digest_size=16).hexdigest()
    return FileDefinitions(path, spec.name, rows.status, defs)


def _task_parent(syms: list, parent_local: int, by_local: dict) -> Definition | None:
    """The nearest enclosing definition that is a task (skipping a lambda or a variable
    holding an object literal)."""
    p = parent_local
    while p:
        if p in by_local:
            return by_local[p]
        p = syms[p][4]
    return None


@dataclass
class Changed:
    change: str                    # modified | added | deleted
    old: Definition | None
    new: Definition | None
    anchor: Definition | None = None   # added: the old definition whose lines show where it goes
    anchor_lines: tuple[int, int] | None = None


def compare(old: FileDefinitions | None, new: FileDefinitions | None) -> list[Changed]:
    """Modified, deleted and added definitions between two versions of a file (either may be
    None: a file added or deleted), in source order (old order, then added ones)."""
    a = old.defs if old is not None else {}
    b = new.defs if new is not None else {}
    out: list[Changed] = []
    for k, d in a.items():
        e = b.get(k)
        if e is None:
            out.append(Changed("deleted", d, None))
        elif e.fingerprint != d.fingerprint:
            out.append(Changed("modified", d, e))
    added = [d for k, d in b.items() if k not in a]
    for d in added:
        anchor, lines = _anchor(d, a, b)
        out.append(Changed("added", None, d, anchor, lines))
    return out


def _anchor(d: Definition, old: dict, new: dict) -> tuple[Definition | None, tuple[int, int] | None]:
    """Where an added definition goes, in the old revision: the sibling before it (or after
    it) that the old revision has, else the header of its enclosing definition; for a
    definition inside an added one, the anchor of that one."""
    if d.parent is not None and d.parent not in old:
        return _anchor(new[d.parent], old, new)
    siblings = (new[d.parent].children if d.parent is not None
                else [k for k, x in new.items() if x.parent is None])
    i = siblings.index(d.key)
    for k in list(reversed(siblings[:i])) + siblings[i + 1:]:
        if k in old:
            s = old[k]
            return s, (s.start_line, s.end_line)
    if d.parent is not None:
        p = old[d.parent]
        head_end = p.start_line if not p.body_start_line or p.body_start_line <= p.start_line \
            else p.body_start_line - 1
        return p, (p.start_line, max(p.start_line, head_end))
    return None, None
