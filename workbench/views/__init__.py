"""Views: exactly what an agent receives (outlines, tool responses) and what it costs.

All views read the DuckDB tables (and file bytes for regions); none re-parses. Importing
this package registers every agent tool (the modules below fill `registry.TOOLS`).
"""
from . import tools, repo_overview, repo_map, graph_tools, packs  # noqa: F401  (register the tools, in this order)
from .compare import Comparison, compare
from .outline import outline
from .pricing import Pricing, cost
from .registry import TOOLS, ToolError, call, schemas
from .response import Response
from .rules import FORMATS, Rules
from .tokens import count_tokens, get_tokenizer

__all__ = ["outline", "Rules", "FORMATS", "Response", "count_tokens", "get_tokenizer", "Pricing",
           "cost", "TOOLS", "ToolError", "call", "schemas", "compare", "Comparison"]
