"""Rule sets to compare, and the distributions an evaluation prints.

    >>> rule_set("full"), rule_set("lean.toml")        # a preset, or a TOML file of rule fields
    >>> distribution(con, res.results)                  # DuckDB relation: one row per group
    >>> print(format_table(distribution(con, res.results)))
"""
from __future__ import annotations

import os
import tomllib

from ..views.rules import Rules, coerce, rule_fields

#: Rule sets by name: `--rules NAME` on the command line.
PRESETS: dict[str, dict] = {
    "default": {},
    "full": {"outline_budget": None},
    "lean": {"docs": False, "private": False, "decorators": False},
    "names": {"outline_budget": None, "signatures": False, "docs": False},
}


def rule_set(spec: str) -> tuple[str, Rules]:
    """(name, Rules) of a preset name or a TOML file (top-level keys, or a `[rules]`
    table, are Rules fields; the string "none" is None). The name of a file is its stem."""
    if spec in PRESETS:
        return spec, Rules().replace(**PRESETS[spec])
    if not os.path.exists(spec):
        raise ValueError(f"no rule set {spec!r}: give a TOML file or one of {', '.join(PRESETS)}")
    with open(spec, "rb") as fh:
        data = tomllib.load(fh)
    data = data.get("rules", data)
    known = {f.name: f for f in rule_fields()}
    changes = {}
    for k, v in data.items():
        if k not in known:
            raise ValueError(f"{spec}: unknown rule {k!r}")
        changes[k] = coerce(v, getattr(Rules(), k)) if isinstance(v, str) and k != "format" \
            and k not in ("tokenizer", "model") else v
    return os.path.splitext(os.path.basename(spec))[0], Rules().replace(**changes)


_DIST = """
SELECT {by}strategy, rules,
       count(*) FILTER (WHERE outcome <> 'n/a') AS tasks,
       quantile_cont(tokens, 0.25) FILTER (WHERE outcome <> 'n/a') AS p25,
       median(tokens) FILTER (WHERE outcome <> 'n/a') AS median,
       quantile_cont(tokens, 0.75) FILTER (WHERE outcome <> 'n/a') AS p75,
       quantile_cont(tokens, 0.9) FILTER (WHERE outcome <> 'n/a') AS p90,
       median(share) FILTER (WHERE outcome <> 'n/a') AS median_share,
       count(*) FILTER (WHERE outcome = 'hit') AS hit,
       count(*) FILTER (WHERE outcome = 'cut') AS cut,
       count(*) FILTER (WHERE outcome = 'miss') AS miss,
       count(*) FILTER (WHERE outcome = 'n/a') AS "n/a",
       avg(calls) FILTER (WHERE outcome <> 'n/a') AS calls,
       sum(cost) AS cost
FROM {table} {where}
GROUP BY ALL
ORDER BY {by}rules, median
"""


def distribution(con, results="eval_results", by: tuple[str, ...] = ("task_set",),
                 where: str = ""):
    """p25 / median / p75 / p90 of tokens, median share of the whole file, hit / cut /
    miss / n/a counts, mean calls and total cost per strategy and rule set (and per `by`
    columns, e.g. task_set, change). `results`: a table name or an Arrow table."""
    con = getattr(con, "con", con)
    table = results
    if not isinstance(results, str):
        con.register("_eval_results_view", results)
        table = "_eval_results_view"
    cols = "".join(f"{c}, " for c in by)
    return con.sql(_DIST.format(by=cols, table=table, where=f"WHERE {where}" if where else ""))


def format_table(rel) -> str:
    """A distribution relation as a fixed-width text table."""
    cols = rel.columns
    rows = rel.fetchall()
    fmt = []
    for c in cols:
        if c in ("p25", "median", "p75", "p90", "calls"):
            fmt.append(lambda v: "" if v is None else f"{v:,.1f}" if isinstance(v, float) and v < 10 else f"{v:,.0f}")
        elif c == "median_share":
            fmt.append(lambda v: "" if v is None else f"{v:.1%}")
        elif c == "cost":
            fmt.append(lambda v: "" if v is None else f"${v:.4f}")
        else:
            fmt.append(lambda v: "" if v is None else str(v))
    head = ["share" if c == "median_share" else c for c in cols]
    cells = [[f(v) for f, v in zip(fmt, r)] for r in rows]
    width = [max(len(h), *(len(r[i]) for r in cells)) if cells else len(h) for i, h in enumerate(head)]
    right = {i for i, c in enumerate(cols) if c not in ("task_set", "strategy", "rules", "change", "path")}

    def line(vals):
        return "  ".join(v.rjust(width[i]) if i in right else v.ljust(width[i]) for i, v in enumerate(vals)).rstrip()
    return "\n".join([line(head), line(["-" * w for w in width])] + [line(r) for r in cells])
