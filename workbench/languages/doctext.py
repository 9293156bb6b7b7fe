"""The one-line summary kept in `symbols.doc`: a docstring's or a leading comment's first
sentence.

Like `inspect.getdoc` + pydoc's synopsis, but a sentence wrapped over several lines is
read whole: the summary is the first paragraph (up to a blank line, a field list line
such as `:param x:` / `@return`, or a doctest), its lines joined, cut after its first
sentence, and capped at `MAX_DOC` characters (ending in an ellipsis when cut there).
"""
from __future__ import annotations

import re

MAX_DOC = 200

_DOC_QUOTES = re.compile(r'^[rRbBuUfF]{0,2}("""|\'\'\'|"|\')')
_COMMENT_MARK = re.compile(r"^\s*(///?|//!|/\*+!?|\*+/?|#+|--+|;+)?\s?")
# a paragraph ends before a field list, a javadoc tag or a doctest
_PARAGRAPH_STOP = re.compile(r"^(:\w[^:]*:|@\w|>>>|\.\. \w)")
# a sentence ends at . ! ? followed by a blank (not after e.g. / i.e. / etc. / ...)
_SENTENCE_END = re.compile(r"[.!?](?=\s)")
_NOT_AN_END = re.compile(r"(?:\b(?:e\.g|i\.e|etc|vs|cf|al|approx|resp|Mr|Mrs|Dr|St|No)|\.\.)$")


def summary(lines) -> str | None:
    """The first sentence of the first paragraph of cleaned-up lines (see the module doc)."""
    para: list[str] = []
    for line in lines:
        line = line.strip()
        if not line:
            if para:
                break
            continue
        if _PARAGRAPH_STOP.match(line):
            if para:
                break
            continue
        para.append(line)
    if not para:
        return None
    text = " ".join(para)
    for m in _SENTENCE_END.finditer(text):
        if not _NOT_AN_END.search(text, 0, m.start()):
            text = text[: m.end()]
            break
    if len(text) > MAX_DOC:
        text = text[: MAX_DOC - 1].rstrip() + "\u2026"
    return text


def docstring_summary(raw: str) -> str | None:
    """Summary of a Python string literal used as a docstring (quotes and prefix removed)."""
    m = _DOC_QUOTES.match(raw)
    if m:
        q = m.group(1)
        is_raw = "r" in raw[: m.start(1)].lower()
        raw = raw[m.end():]
        if raw.endswith(q):
            raw = raw[: -len(q)]
        if not is_raw:
            raw = raw.replace("\\\n", "")     # a backslash-newline continues the line
    return summary(raw.expandtabs().splitlines())


def comment_summary(lines: list[str]) -> str | None:
    """Summary of a comment block's lines (`//`, `/* * */`, `#`, `--`, `;` markers stripped;
    rule lines such as `// -----` and a leading javadoc tag skipped)."""
    return summary(_comment_lines(lines))


def _comment_lines(lines):
    """Comment lines without their markers, read lazily (the summary stops early)."""
    for raw in lines:
        line = _COMMENT_MARK.sub("", raw, count=1).strip()
        if line.endswith("*/"):
            line = line[:-2].strip()
        if line and set(line) <= set("*/-=#"):
            line = ""
        yield line
