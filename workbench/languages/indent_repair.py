"""Hook for indentation languages (Python): repair definition ranges in broken files.

When a half-edited file does not parse, tree-sitter's error recovery can stretch a
method to the end of the file (a "ghost" range), detach the methods that follow it from
their class, or drop definitions altogether. Indentation still tells the truth, so for
files with syntax errors we read the definition lines lexically and:

* clip a definition whose tree-sitter range runs past its indented block, flagging it
  `is_truncated` (the ghost-method fix);
* extend a definition that error recovery ended early to its indented block, so the
  definitions after the error nest under the right parent again;
* add definitions tree-sitter lost, with the header line as signature.

Only used for files whose tree has errors; well-formed files keep tree-sitter's ranges.
"""
from __future__ import annotations

import re

DEF_LINE = re.compile(rb"^([ \t]*)(?:async[ \t]+)?(def|class)[ \t]+([A-Za-z_][A-Za-z0-9_]*)")


class FakeNode:
    """The few node attributes the extractor reads, for a lexically recovered range."""

    __slots__ = ("start_byte", "end_byte", "start_point", "end_point", "child_count", "type")

    def __init__(self, start_byte, end_byte, start_point, end_point, type_="recovered"):
        self.start_byte = start_byte
        self.end_byte = end_byte
        self.start_point = start_point
        self.end_point = end_point
        self.child_count = 0
        self.type = type_


def lexical_blocks(data: bytes) -> list[dict]:
    """Every `def`/`class` line with the byte range of its indented block."""
    lines = data.split(b"\n")
    offsets = [0]
    for ln in lines:
        offsets.append(offsets[-1] + len(ln) + 1)

    # Lines that start inside a triple-quoted string say nothing about indentation.
    in_string = [False] * len(lines)
    quote = None
    for i, ln in enumerate(lines):
        in_string[i] = quote is not None
        pos = 0
        while True:
            if quote is None:
                hits = [(ln.find(q, pos), q) for q in (b'"""', b"'''")]
                hits = [h for h in hits if h[0] >= 0]
                if not hits:
                    break
                at, quote = min(hits)
                pos = at + 3
            else:
                at = ln.find(quote, pos)
                if at < 0:
                    break
                quote = None
                pos = at + 3

    def indent_of(i):
        if in_string[i]:
            return None
        s = lines[i]
        stripped = s.lstrip(b" \t")
        if not stripped or stripped.startswith(b"#"):
            return None                       # blank or comment: belongs to no block
        return len(s) - len(stripped)

    out = []
    n = len(lines)
    for i, ln in enumerate(lines):
        m = None if in_string[i] else DEF_LINE.match(ln)
        if not m:
            continue
        ind = len(m.group(1))
        last = i
        j = i + 1
        while j < n:
            k = indent_of(j)
            if k is not None:
                if k <= ind:
                    break
                last = j
            j += 1
        start = i
        while start > 0 and lines[start - 1].lstrip(b" \t").startswith(b"@") \
                and len(lines[start - 1]) - len(lines[start - 1].lstrip(b" \t")) == ind:
            start -= 1                        # decorators directly above, same indentation
        out.append({
            "line": i, "start_line": start, "end_line": last, "indent": ind,
            "kind": "class" if m.group(2) == b"class" else "function",
            "name": m.group(3).decode("ascii"),
            "name_start": offsets[i] + m.start(3), "name_end": offsets[i] + m.end(3),
            "def_start": offsets[i] + ind, "start": offsets[start] + ind,
            "line_end": offsets[i] + len(ln),
            "end": offsets[last] + len(lines[last].rstrip(b"\r")),
            "end_col": len(lines[last].rstrip(b"\r")),
        })
    return out


_DOCSTRING = re.compile(rb'[ \t]*[rRuU]?("""|\'\'\'|"|\')(.*)')


def _docstring_after(data: bytes, b: dict) -> str | None:
    """First line of a string literal that opens the block right after the header line."""
    nxt = data[b["line_end"] + 1:b["end"]].split(b"\n", 1)[0]
    m = _DOCSTRING.match(nxt)
    if not m:
        return None
    text = m.group(2).split(m.group(1), 1)[0].strip()
    return text.decode("utf-8", "replace") or None


def leading_docstring(data: bytes) -> str | None:
    """The module docstring of a file whose tree starts with an error: the first line of a
    string literal that opens the file (after comments and blank lines)."""
    for line in data.split(b"\n", 50)[:50]:
        stripped = line.strip()
        if not stripped or stripped.startswith(b"#"):
            continue
        m = _DOCSTRING.match(stripped)
        if not m:
            return None
        text = m.group(2).split(m.group(1), 1)[0].strip()
        return text.decode("utf-8", "replace") or None
    return None


def repair(data: bytes, items: list, make_def) -> list:
    """Fix `items` (extractor definitions with .start/.end set) against indentation.

    `make_def(node, kind, name_node, body)` builds a new extractor definition.
    Returns the list of definitions, with recovered ones appended.
    """
    blocks = lexical_blocks(data)
    by_line = {}
    for d in items:
        by_line.setdefault(d.name_node.start_point[0], []).append(d)
    out = list(items)
    for b in blocks:
        found = [d for d in by_line.get(b["line"], ())
                 if data[d.name_node.start_byte:d.name_node.end_byte].decode("utf-8", "replace") == b["name"]]
        if found:
            d = found[0]
            if getattr(d.node, "has_error", False):
                d.doc = _docstring_after(data, b)
                # The body tree-sitter found inside an erroneous node is unreliable
                # (it may start at a later method's docstring): the block starts
                # after the header line.
                d.body = FakeNode(min(b["line_end"] + 1, b["end"]), b["end"], (b["line"] + 1, 0),
                                  (b["end_line"], b["end_col"]))
            if d.end > b["end"]:
                d.end = b["end"]
                d.truncated = True            # error recovery ran past the block
            elif d.end < b["end"]:
                d.end = b["end"]              # recovery ended it early; the block goes on
                d.extended = True
            continue
        node = FakeNode(b["def_start"], b["end"], (b["line"], b["indent"]), (b["end_line"], b["end_col"]))
        name = FakeNode(b["name_start"], b["name_end"], (b["line"], 0), (b["line"], 0))
        body = FakeNode(min(b["line_end"] + 1, b["end"]), b["end"], (b["line"] + 1, 0),
                        (b["end_line"], b["end_col"]))
        nd = make_def(node, b["kind"], name, body)
        nd.start = b["start"]
        nd.start_row = b["start_line"]
        nd.end = b["end"]
        nd.recovered = True
        nd.doc = _docstring_after(data, b)
        out.append(nd)
    return out
