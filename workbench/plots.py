"""Plotly figures over an index: where the tokens are, what outlines save, how strategies compare.

Each figure has a data function (plain DataFrame, usable without plotly) and a figure
function that takes either a workbench or that DataFrame:

    >>> from workbench import plots
    >>> plots.token_treemap(wb)                 # tokens by directory and file
    >>> plots.outline_ratio(wb)                 # outline tokens / whole-file tokens per file
    >>> plots.strategy_distributions(res)       # workbench.eval.evaluate(...) results, as box plots
    >>> plots.hit_rates(res); plots.pareto(res)

Token counts come from :mod:`workbench.views.tokens` (cl100k by default); outline texts
from the outline renderer of :mod:`workbench.views`: the same functions the agent tools use.
"""
from __future__ import annotations

import os
import posixpath

import pandas as pd


# -- data ------------------------------------------------------------------------------------

def _read(root: str, path: str) -> str:
    with open(os.path.join(root, path), "rb") as fh:
        return fh.read().decode("utf-8", "replace")


def file_tokens(wb, tokenizer=None, paths=None) -> pd.DataFrame:
    """One row per indexed (not skipped) file: path, directory, language, lines, tokens."""
    from .views.tokens import get_tokenizer
    tok = get_tokenizer(tokenizer)
    rows = wb.sql("SELECT path, language, line_count FROM files WHERE status <> 'skipped' "
                  "ORDER BY path").fetchall()
    if paths is not None:
        keep = set(paths)
        rows = [r for r in rows if r[0] in keep]
    texts = []
    for path, _, _ in rows:
        try:
            texts.append(_read(wb.root, path))
        except OSError:
            texts.append("")
    counts = tok.count_many(texts)
    return pd.DataFrame({
        "path": [r[0] for r in rows],
        "directory": [posixpath.dirname(r[0]) or "." for r in rows],
        "language": [r[1] for r in rows],
        "lines": [r[2] for r in rows],
        "tokens": counts,
    })


def _treemap_nodes(df: pd.DataFrame, root_label: str):
    """ids/labels/parents/values for a go.Treemap with branchvalues='total'."""
    values: dict[str, int] = {}
    parents: dict[str, str] = {}
    root = root_label
    values[root] = 0
    parents[root] = ""
    for path, tokens in zip(df["path"], df["tokens"]):
        parts = path.split("/")
        parent = root
        values[root] += int(tokens)
        for i in range(1, len(parts)):
            d = root + "/" + "/".join(parts[:i])
            parents.setdefault(d, parent)
            values[d] = values.get(d, 0) + int(tokens)
            parent = d
        leaf = root + "/" + path
        parents[leaf] = parent
        values[leaf] = int(tokens)
    ids = list(values)
    labels = [i.rsplit("/", 1)[-1] if i != root else root for i in ids]
    return ids, labels, [parents[i] for i in ids], [values[i] for i in ids]


def token_treemap(wb_or_df, tokenizer=None, title: str | None = None):
    """Treemap of whole-file tokens by directory and file (click a box to zoom)."""
    import plotly.graph_objects as go
    if isinstance(wb_or_df, pd.DataFrame):
        df, label = wb_or_df, "repository"
    else:
        df, label = file_tokens(wb_or_df, tokenizer), os.path.basename(wb_or_df.root.rstrip("/"))
    ids, labels, parents, values = _treemap_nodes(df, label or "repository")
    fig = go.Figure(go.Treemap(
        ids=ids, labels=labels, parents=parents, values=values, branchvalues="total",
        hovertemplate="%{id}<br>%{value:,} tokens<br>%{percentRoot:.1%} of the repository"
                      "<extra></extra>",
        maxdepth=3))
    fig.update_layout(title=title or f"Tokens by directory and file ({int(df['tokens'].sum()):,} in all)",
                      margin=dict(t=50, l=10, r=10, b=10), height=520)
    return fig


def outline_vs_file(wb, rules=None, tokenizer=None, paths=None, **overrides) -> pd.DataFrame:
    """Per source file: whole-file tokens, outline tokens (``views.outline`` under ``rules``
    plus keyword overrides such as ``format="tags"``) and their ratio."""
    from .views import Rules, outline
    from .views.lookup import source_files
    from .views.tokens import get_tokenizer
    rules = (rules or Rules()).replace(**overrides) if overrides else (rules or Rules())
    tok = get_tokenizer(tokenizer if tokenizer is not None else rules.tokenizer)
    have = set(source_files(wb.con))
    df = file_tokens(wb, tok, [p for p in (paths or sorted(have)) if p in have])
    df["outline_tokens"] = [outline(wb, p, rules).tokens for p in df["path"]]
    df["ratio"] = (df["outline_tokens"] / df["tokens"].where(df["tokens"] > 0)).round(3)
    return df


def outline_ratio(wb_or_df, rules=None, **overrides):
    """Outline tokens as a fraction of whole-file tokens, one point per file (x: file size)."""
    import plotly.express as px
    df = wb_or_df if isinstance(wb_or_df, pd.DataFrame) else outline_vs_file(
        wb_or_df, rules, **overrides)
    df = df[df["tokens"] > 0]
    fig = px.scatter(df, x="tokens", y="ratio", color="language", hover_name="path",
                     hover_data={"lines": True, "outline_tokens": True, "tokens": True},
                     log_x=True, title="Outline tokens / whole-file tokens, per file")
    fig.add_hline(y=1.0, line_dash="dot", annotation_text="outline as big as the file")
    fig.update_layout(xaxis_title="whole-file tokens (log)", yaxis_title="outline / file",
                      height=450)
    return fig


def eval_frame(results) -> pd.DataFrame:
    """Evaluation results (``workbench.eval.evaluate(...).results``: an Arrow table, a DuckDB
    relation or a DataFrame) as a DataFrame without the tasks that could not be evaluated,
    with a ``setting`` column (strategy / rules)."""
    if hasattr(results, "results"):
        results = results.results
    if hasattr(results, "to_pandas"):
        df = results.to_pandas()
    elif hasattr(results, "df"):
        df = results.df()
    else:
        df = pd.DataFrame(results)
    df = df[df["outcome"] != "n/a"].copy()
    df["setting"] = df["strategy"] + " / " + df["rules"]
    return df


def strategy_distributions(results, log: bool = True):
    """Tokens each strategy spent per task (box plot plus points), one colour per rule set."""
    import plotly.express as px
    df = eval_frame(results)
    med = df.groupby("setting")["tokens"].median().sort_values()
    fig = px.box(df, x="strategy", y="tokens", color="rules", points="all", log_y=log,
                 hover_name="qualname", hover_data=["path", "outcome", "calls"],
                 category_orders={"strategy": list(dict.fromkeys(s.split(" / ")[0] for s in med.index))},
                 title="Tokens to reach the definition, per strategy and rule set")
    fig.update_layout(height=460, yaxis_title="tokens" + (" (log)" if log else ""))
    return fig


def outcome_shares(results) -> pd.DataFrame:
    """Share of hit / cut / miss per strategy and rule set."""
    df = eval_frame(results)
    out = (df.groupby(["strategy", "rules", "outcome"]).size().unstack(fill_value=0)
           .reindex(columns=["hit", "cut", "miss"], fill_value=0))
    return out.div(out.sum(axis=1), axis=0).reset_index()


def hit_rates(results):
    """Hit / cut / miss shares per strategy and rule set (stacked bars)."""
    import plotly.express as px
    shares = outcome_shares(results)
    long = shares.melt(id_vars=["strategy", "rules"], value_vars=["hit", "cut", "miss"],
                       var_name="outcome", value_name="share")
    long["setting"] = long["strategy"] + " / " + long["rules"]
    fig = px.bar(long, x="setting", y="share", color="outcome", barmode="stack",
                 color_discrete_map={"hit": "#2ca02c", "cut": "#ff7f0e", "miss": "#d62728"},
                 title="Did the strategy return the lines to change?")
    fig.update_layout(height=400, yaxis_tickformat=".0%", xaxis_title="")
    return fig


def pareto_points(results) -> pd.DataFrame:
    """Per strategy and rule set: median tokens, hit rate, and whether no other setting is
    at least as good on both (the Pareto front)."""
    df = eval_frame(results)
    g = df.groupby(["strategy", "rules"]).agg(median_tokens=("tokens", "median"),
                                              hit_rate=("outcome", lambda o: (o == "hit").mean()),
                                              tasks=("tokens", "size")).reset_index()
    front = []
    for _, r in g.iterrows():
        better = g[(g.median_tokens <= r.median_tokens) & (g.hit_rate >= r.hit_rate)
                   & ((g.median_tokens < r.median_tokens) | (g.hit_rate > r.hit_rate))]
        front.append(better.empty)
    g["pareto"] = front
    return g


def pareto(results):
    """Median tokens against hit rate, one point per strategy and rule set; the Pareto front
    (no setting is cheaper and hits as often) joined by a line."""
    import plotly.express as px
    g = pareto_points(results)
    fig = px.scatter(g, x="median_tokens", y="hit_rate", color="strategy", symbol="rules",
                     hover_data=["tasks"], log_x=True,
                     title="Tokens against hits: lower right is better")
    f = g[g.pareto].sort_values("median_tokens")
    fig.add_scatter(x=f["median_tokens"], y=f["hit_rate"], mode="lines", name="Pareto front",
                    line=dict(dash="dot", color="grey"))
    fig.update_layout(height=420, xaxis_title="median tokens (log)", yaxis_title="hit rate",
                      yaxis_tickformat=".0%")
    return fig
