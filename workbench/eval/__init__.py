"""Evaluate rule sets on tasks: which reading strategy reaches the code to change, at what
cost in tokens, and how often it misses (docs/eval.md).

    >>> from workbench import eval as ev, tasks
    >>> res = ev.evaluate(wb, tasks.load(wb.con), ["outline_region", "hierarchical", "resolve"],
    ...                   {"default": Rules(), "full": Rules(outline_budget=None)})
    >>> print(ev.format_table(ev.distribution(wb.con, res.results)))
    >>> ev.store_results(wb.con, res)           # tables eval_runs, eval_results, eval_calls
"""
from .probe import Probe, Target, find_in_outline, returned_ranges
from .report import PRESETS, distribution, format_table, rule_set
from .run import EvalResult, evaluate, next_run_id, store_results, target_of
from .strategies import DEFAULT_STRATEGIES, STRATEGIES, register

__all__ = ["evaluate", "EvalResult", "store_results", "next_run_id", "distribution", "format_table",
           "rule_set", "PRESETS", "STRATEGIES", "DEFAULT_STRATEGIES", "register", "Probe", "Target",
           "find_in_outline", "returned_ranges", "target_of"]
