"""Run strategies over a task set under rule sets: every answer's tokens, the number of
calls, whether the returned lines cover the task (hit / cut / miss) and the cost.

    >>> res = evaluate(wb, tasks.load(wb.con), ["outline_region", "hierarchical"],
    ...                {"default": Rules(), "full": Rules(outline_budget=None)})
    >>> res.results          # Arrow table: one row per task x strategy x rule set
    >>> res.calls            # one row per tool call
    >>> store_results(wb.con, res)

The inputs are a database (a Workbench or a DuckDB connection to an index) and a task
table (`workbench.tasks.load` reads one from the database, a file or a DataFrame), so a
corpus of databases can be evaluated one by one.
"""
from __future__ import annotations

import json
import time
from dataclasses import dataclass

import pyarrow as pa

from .. import schema, store
from ..views.pricing import default_pricing
from ..views.rules import Rules
from ..views.source import file_info, read_text
from ..views.tokens import get_tokenizer
from .probe import Probe, Target
from .strategies import DEFAULT_STRATEGIES, STRATEGIES, parse


@dataclass
class EvalResult:
    results: pa.Table
    calls: pa.Table
    runs: pa.Table
    seconds: float

    def __repr__(self) -> str:
        return (f"<EvalResult {self.results.num_rows} results, {self.calls.num_rows} calls, "
                f"{self.seconds:.1f}s>")


class _Wb:
    """A bare connection dressed as a Workbench for the tools (they only need `.con`)."""

    def __init__(self, con):
        self.con = con


def _names(con, sid: int) -> tuple[tuple[str, ...], str, str, int, int]:
    """(names from the top level, qualname, kind, start, end) of symbol `sid`, skipping
    anonymous definitions (outlines do not show them)."""
    names = []
    first = None
    cur = sid
    while cur is not None:
        row = store.one(con, "SELECT name, kind, parent_id, qualname, start_line, end_line "
                             "FROM symbols WHERE symbol_id = ?", [cur])
        if row is None or row[1] == "module":
            break
        if first is None:
            first = row
        if row[1] != "lambda":
            names.append(row[0])
        cur = row[2]
    return tuple(reversed(names)), first[3], first[1], first[4], first[5]


def target_of(con, task: dict, line_counts: dict) -> tuple[Target | None, str | None]:
    """The task as a strategy sees it, or (None, why it cannot be evaluated here)."""
    if task.get("start_line") is None or task.get("end_line") is None:
        return None, task.get("note") or "no range in the indexed revision"
    path = task["path"]
    if path not in line_counts:
        return None, f"{path} is not in the index"
    qual = task.get("anchor") or task.get("qualname")
    rows = store.run(con, """SELECT symbol_id, start_line, end_line FROM symbols
        WHERE path = ? AND qualname = ? ORDER BY abs(start_line - ?), symbol_id""",
                     [path, qual, task["start_line"]]) if qual else []
    if not rows:
        rows = store.run(con, """SELECT symbol_id, start_line, end_line FROM symbols
            WHERE path = ? AND start_line = ? AND end_line = ? AND kind <> 'module'""",
                         [path, task["start_line"], task["end_line"]])
    if not rows:
        return None, f"{qual or 'the definition'} is not in the index of {path} (another revision?)"
    sid, a, b = rows[0]
    if not (a <= task["start_line"] and task["end_line"] <= b):
        return None, (f"the task's lines {task['start_line']}-{task['end_line']} are not those of "
                      f"{qual} in the index ({a}-{b}): the index holds another revision")
    names, qualname, kind, a, b = _names(con, sid)
    if not names:
        return None, "a module-level task"
    return Target(task["task_id"], path, names, qualname, kind, task["start_line"], task["end_line"],
                  a, b, line_counts[path], task.get("change") or "named"), None


def _file_tokens(con, root: str, path: str, tokenizer, cache: dict) -> int | None:
    key = (path, getattr(tokenizer, "name", tokenizer))
    if key not in cache:
        info = file_info(con, path)
        try:
            text = read_text(root, info)
            cache[key] = get_tokenizer(tokenizer).count("\n".join(text.lines) + ("\n" if text.lines else ""))
        except (OSError, AttributeError, TypeError):
            cache[key] = None
    return cache[key]


def evaluate(wb, tasks, strategies=None, rule_sets=None, *, pricing=None,
             progress: bool = False, run_id: int = 1) -> EvalResult:
    """Run every strategy on every task under every rule set.

    `tasks`: anything `workbench.tasks.load` reads (an Arrow table, a list of dicts, a
    table name, a file). `strategies`: names (`first_n:200` passes a parameter; default
    `DEFAULT_STRATEGIES`). `rule_sets`: {name: Rules} (default {"default": Rules()})."""
    from ..tasks import load
    con = getattr(wb, "con", wb)
    wb = wb if hasattr(wb, "con") else _Wb(con)
    t0 = time.perf_counter()
    tbl = load(con, tasks)
    rows = tbl.to_pylist()
    specs = [parse(s) for s in (strategies or DEFAULT_STRATEGIES)]
    rule_sets = rule_sets or {"default": Rules()}
    pricing = pricing or default_pricing()
    root = store.get_meta(con, "root")
    line_counts = dict(store.run(con, "SELECT path, line_count FROM files"))
    targets = [target_of(con, t, line_counts) for t in rows]
    res = {c: [] for c in schema.columns("eval_results")}
    calls = {c: [] for c in schema.columns("eval_calls")}
    runs = {c: [] for c in schema.columns("eval_runs")}
    tok_cache: dict = {}
    total = len(rows) * len(specs) * len(rule_sets)
    bar = None
    if progress:
        from tqdm.auto import tqdm
        bar = tqdm(total=total, desc="eval", unit="run", leave=False)
    for rname, rules in rule_sets.items():
        r0 = time.perf_counter()
        memo: dict = {}
        model = rules.model or pricing.default_model
        price = pricing.price(model)
        for task, (target, why) in zip(rows, targets):
            ftok = _file_tokens(con, root, task["path"], rules.tokenizer, tok_cache) if target else None
            for name, param in specs:
                label = name if param is None else f"{name}:{param}"
                out = {"run_id": run_id, "task_id": task["task_id"], "task_set": task["task_set"],
                       "strategy": label, "rules": rname, "path": task["path"],
                       "qualname": task.get("qualname"), "change": task.get("change"), "model": model}
                if target is None:
                    out.update(outcome="n/a", tokens=0, calls=0, covered_lines=0, target_lines=None,
                               file_tokens=None, share=None, cost=0.0, note=why)
                else:
                    p = Probe(wb, rules, target, memo)
                    note = None
                    try:
                        STRATEGIES[name](p, target, param)
                    except Exception as exc:        # a strategy bug must not stop a long run
                        note = f"strategy failed: {type(exc).__name__}: {exc}"
                    tokens = p.tokens
                    out.update(outcome=p.outcome(), tokens=tokens, calls=len(p.records),
                               covered_lines=p.covered(),
                               target_lines=target.end_line - target.start_line + 1,
                               file_tokens=ftok, share=(tokens / ftok) if ftok else None,
                               cost=price.cost(tokens), note=note)
                    for rec in p.records:
                        for k, v in (("run_id", run_id), ("task_id", task["task_id"]), ("strategy", label),
                                     ("rules", rname), ("step", rec.step), ("tool", rec.tool),
                                     ("args", json.dumps(rec.args, sort_keys=True, default=str)),
                                     ("tokens", rec.tokens), ("chars", rec.chars), ("error", rec.error),
                                     ("start_line", rec.start_line), ("end_line", rec.end_line)):
                            calls[k].append(v)
                for c in res:
                    res[c].append(out.get(c))
                if bar is not None:
                    bar.update(1)
        for k, v in (("run_id", run_id), ("rules", rname),
                     ("settings", json.dumps(rules.to_dict(), sort_keys=True, default=str)),
                     ("strategies", ",".join(n if p is None else f"{n}:{p}" for n, p in specs)),
                     ("tasks", len(rows)), ("created", time.strftime("%Y-%m-%dT%H:%M:%S")),
                     ("seconds", time.perf_counter() - r0)):
            runs[k].append(v)
    if bar is not None:
        bar.close()
    return EvalResult(pa.Table.from_pydict(res, schema=schema.arrow_schema("eval_results")),
                      pa.Table.from_pydict(calls, schema=schema.arrow_schema("eval_calls")),
                      pa.Table.from_pydict(runs, schema=schema.arrow_schema("eval_runs")),
                      time.perf_counter() - t0)


def next_run_id(con) -> int:
    have = {r[0] for r in store.run(con, "SELECT table_name FROM information_schema.tables")}
    if "eval_runs" not in have:
        return 1
    return store.next_id(con, "eval_runs", "run_id")


def store_results(con, res: EvalResult) -> None:
    """Append a run's tables to the database (`eval_runs`, `eval_results`, `eval_calls`)."""
    con = getattr(con, "con", con)
    store.require_writable(con, "store evaluation results")
    ddl = schema.DDL
    for t in ("eval_runs", "eval_results", "eval_calls"):
        start = ddl.index(f"CREATE TABLE IF NOT EXISTS {t} ")
        store.run(con, ddl[start:ddl.index(";", start) + 1])
    for t, tbl in (("eval_runs", res.runs), ("eval_results", res.results), ("eval_calls", res.calls)):
        if tbl.num_rows:
            store.insert_columns(con, t, {c: tbl.column(c).combine_chunks() for c in tbl.column_names})
