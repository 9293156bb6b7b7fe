"""Notebook widgets: thin shells over the view functions (importable and testable without a
browser; every widget keeps the view results it shows as attributes).

    OutlineBrowser      a file's outline in a chosen format and options, tokens vs whole file
    RuleComparison      one tool call under two rule sets: both texts, a diff, token/cost delta
    CallChainExplorer   callers/callees of a symbol as a plotly graph plus the call sites
    SessionPreview      an editable sequence of tool calls against a context window
    EvalExplorer        strategies and rule sets of an evaluation: distributions, hit rates, Pareto
"""
from __future__ import annotations

from .callchain import CallChainExplorer
from .evaluation import EvalExplorer
from .outline import OutlineBrowser
from .rules import RuleComparison
from .session import SessionPreview

__all__ = ["OutlineBrowser", "RuleComparison", "CallChainExplorer", "SessionPreview", "EvalExplorer"]
