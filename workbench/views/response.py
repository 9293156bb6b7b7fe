"""What a view returns: the exact text an agent receives, plus its token count.

Every tool call and every rendered outline is a `Response`. `text` is byte-for-byte what
would be sent; `tokens` is its count under the rules' tokenizer; `data` is the
structured result for programs (the CLI's ``--json``). It renders itself in a notebook.
"""
from __future__ import annotations

import html
import json
from dataclasses import dataclass, field
from typing import Any


@dataclass
class Response:
    tool: str
    text: str
    tokens: int
    args: dict = field(default_factory=dict)
    tokenizer: str = "cl100k_base"
    error: bool = False
    data: Any = None
    source_versions: dict = field(default_factory=dict)   # path -> sha256 the text is based on
    notes: list = field(default_factory=list)             # out-of-band remarks (not sent)
    files: list = field(default_factory=list)             # indexed files the text shows rows of
    stale: list = field(default_factory=list)             # of those, the ones changed on disk since indexing
    cut: bool = False                                     # the text holds part of the answer (cut or paged)

    @property
    def chars(self) -> int:
        return len(self.text)

    def cost(self, model: str | None = None, pricing=None) -> float:
        """USD cost of sending this text as uncached input (pricing table)."""
        from .pricing import cost
        return cost(self.tokens, model, pricing=pricing)

    def to_dict(self) -> dict:
        return {"tool": self.tool, "args": self.args, "text": self.text, "tokens": self.tokens,
                "chars": self.chars, "tokenizer": self.tokenizer, "error": self.error,
                "source_versions": self.source_versions, "files": self.files, "stale": self.stale,
                "cut": self.cut, "notes": self.notes, "data": self.data}

    def to_json(self, indent: int | None = 2) -> str:
        return json.dumps(self.to_dict(), indent=indent, ensure_ascii=False, default=str)

    def __str__(self) -> str:
        return self.text

    def _footer(self) -> str:
        kind = "error" if self.error else self.tool
        return f"{kind}: {self.tokens:,} tokens ({self.tokenizer}), {self.chars:,} chars"

    def _repr_markdown_(self) -> str:
        fence = "````" if "```" in self.text else "```"
        notes = "".join(f"\n> {n}" for n in self.notes)
        return f"{fence}text\n{self.text}\n{fence}\n\n*{self._footer()}*{notes}"

    def _repr_html_(self) -> str:
        notes = "".join(f"<div><em>{html.escape(n)}</em></div>" for n in self.notes)
        return (f"<pre style='white-space:pre-wrap'>{html.escape(self.text)}</pre>"
                f"<div><small>{html.escape(self._footer())}</small></div>{notes}")

    def __repr__(self) -> str:
        head = self.text[:60].replace("\n", "\\n")
        return f"<Response {self.tool} {self.tokens} tokens: {head!r}{'...' if len(self.text) > 60 else ''}>"
