"""Views: exactly what an agent receives (outlines, tool responses) and what it costs.

All views read the DuckDB tables (and file bytes for regions); none re-parses.
"""
from .outline import outline
from .pricing import Pricing, cost
from .response import Response
from .rules import FORMATS, Rules
from .tokens import count_tokens, get_tokenizer

__all__ = ["outline", "Rules", "FORMATS", "Response", "count_tokens", "get_tokenizer", "Pricing",
           "cost"]
