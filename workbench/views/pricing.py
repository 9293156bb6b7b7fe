"""Tokens -> money, from a small pricing table (`workbench/pricing.toml` or your own file).

    >>> p = Pricing.load()
    >>> p.cost("gpt-4o", input_tokens=12_000, output_tokens=800, cached_tokens=30_000)
    0.0755

`input_tokens` are the *uncached* input tokens; cached input is counted separately
(`cached_tokens`) because providers bill it at a lower rate.
"""
from __future__ import annotations

import tomllib
from dataclasses import dataclass, field
from pathlib import Path

DEFAULT_FILE = Path(__file__).resolve().parent.parent / "pricing.toml"


@dataclass(frozen=True)
class Price:
    model: str
    input: float            # USD per million uncached input tokens
    output: float           # USD per million output tokens
    cached: float | None = None  # USD per million cached input tokens (None: billed as input)

    def cost(self, input_tokens: int = 0, output_tokens: int = 0, cached_tokens: int = 0) -> float:
        cached_rate = self.input if self.cached is None else self.cached
        return (input_tokens * self.input + output_tokens * self.output
                + cached_tokens * cached_rate) / 1_000_000


@dataclass
class Pricing:
    models: dict[str, Price] = field(default_factory=dict)
    default_model: str | None = None
    source: str | None = None

    @classmethod
    def load(cls, path: str | Path | None = None) -> "Pricing":
        p = Path(path) if path is not None else DEFAULT_FILE
        with open(p, "rb") as fh:
            data = tomllib.load(fh)
        models = {}
        for name, row in (data.get("models") or {}).items():
            try:
                models[name] = Price(name, float(row["input"]), float(row["output"]),
                                     None if row.get("cached") is None else float(row["cached"]))
            except (KeyError, TypeError, ValueError) as exc:
                raise ValueError(f"{p}: model {name!r} needs numeric input and output prices "
                                 f"({exc})") from exc
        default = data.get("default_model") or (next(iter(models)) if models else None)
        return cls(models, default, str(p))

    def price(self, model: str | None = None) -> Price:
        name = model or self.default_model
        try:
            return self.models[name]
        except KeyError:
            raise KeyError(f"no price for model {name!r}; known: {', '.join(sorted(self.models))}"
                           ) from None

    def cost(self, model: str | None = None, input_tokens: int = 0, output_tokens: int = 0,
             cached_tokens: int = 0) -> float:
        """Cost in USD of one call (or a sum of calls)."""
        return self.price(model).cost(input_tokens, output_tokens, cached_tokens)

    def table(self):
        """The prices as rows (model, input, cached, output), e.g. for a DataFrame."""
        return [{"model": p.model, "input": p.input, "cached": p.cached, "output": p.output}
                for p in self.models.values()]

    def _repr_markdown_(self) -> str:
        rows = ["| model | input $/M | cached $/M | output $/M |", "|---|---:|---:|---:|"]
        rows += [f"| {p.model} | {p.input:g} | {'' if p.cached is None else f'{p.cached:g}'} "
                 f"| {p.output:g} |" for p in self.models.values()]
        return "\n".join(rows)


_DEFAULT: Pricing | None = None


def default_pricing() -> Pricing:
    global _DEFAULT
    if _DEFAULT is None:
        _DEFAULT = Pricing.load()
    return _DEFAULT


def cost(tokens: int, model: str | None = None, output_tokens: int = 0, cached_tokens: int = 0,
         pricing: Pricing | None = None) -> float:
    """Cost in USD of sending `tokens` uncached input tokens (plus optional output/cached)."""
    return (pricing or default_pricing()).cost(model, tokens, output_tokens, cached_tokens)
