"""Plotly figures over an index: where the tokens are, what outlines save, how strategies compare.

Each figure has a data function (plain DataFrame, usable without plotly) and a figure
function that takes either a workbench or that DataFrame:

    >>> from workbench import plots
    >>> plots.token_treemap(wb)                 # tokens by directory and file
    >>> plots.outline_ratio(wb)                 # outline tokens / whole-file tokens per file
    >>> plots.strategy_distributions(res)       # workbench.eval.evaluate(...) results, as box plots
    >>> plots.hit_rates(res); plots.pareto(res)
    >>> plots.by_repo(corpus.frame(plots.outline_formats), "ratio", color="format")   # a corpus

Token counts come from :mod:`workbench.views.tokens` (cl100k by default); outline texts
from the outline renderer of :mod:`workbench.views`: the same functions the agent tools use.
"""
from __future__ import annotations

import os
import posixpath

import pandas as pd


# -- data ------------------------------------------------------------------------------------

def _read(root: str, path: str) -> str:
    from .safeio import read_beneath          # no link followed, no FIFO, bounded
    return read_beneath(root, path, 64 << 20).decode("utf-8", "replace")


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
    paths = list(df["path"])
    if len(paths) > 50:                       # a labelled bar on long runs (tqdm, as the indexer)
        from tqdm.auto import tqdm
        paths = tqdm(paths, desc="outlining files", unit="file", leave=False)
    df["outline_tokens"] = [outline(wb, p, rules).tokens for p in paths]
    df["ratio"] = (df["outline_tokens"] / df["tokens"].where(df["tokens"] > 0)).round(3)
    return df


def outline_formats(wb, formats=None, rules=None, tokenizer=None, paths=None,
                    max_files: int | None = None) -> pd.DataFrame:
    """``outline_vs_file`` for every outline format (default: all of ``views.FORMATS``), one
    row per (file, format): path, directory, language, lines, tokens, outline_tokens,
    ratio, format. ``max_files``: only the first files (in path order) that have an outline.
    Over a corpus: ``corpus.frame(plots.outline_formats)``."""
    from .views import FORMATS, Rules, outline
    from .views.lookup import source_files
    rules = rules or Rules()
    formats = list(formats or FORMATS)
    if max_files is not None:
        paths = (sorted(paths) if paths is not None else source_files(wb.con))[:max_files]
    base = outline_vs_file(wb, rules.replace(format=formats[0]), tokenizer, paths)
    parts = [base.assign(format=formats[0])]
    for fmt in formats[1:]:
        r = rules.replace(format=fmt)
        df = base.assign(format=fmt, outline_tokens=[outline(wb, p, r).tokens for p in base["path"]])
        df["ratio"] = (df["outline_tokens"] / df["tokens"].where(df["tokens"] > 0)).round(3)
        parts.append(df)
    return pd.concat(parts, ignore_index=True)


def by_repo(df: pd.DataFrame, y: str, color: str | None = None, log: bool = True,
            title: str | None = None):
    """Box plots of column ``y`` per repository (a DataFrame with a ``repo`` column, as
    ``Corpus.frame`` or ``corpus.sql(...).df()`` return), one box per ``color`` value."""
    import plotly.express as px
    fig = px.box(df, x="repo", y=y, color=color, log_y=log, points=False,
                 hover_data=[c for c in ("path", "qualname") if c in df.columns],
                 title=title or f"{y} per repository")
    fig.update_layout(height=460, yaxis_title=y + (" (log)" if log else ""), boxmode="group")
    return fig


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


def window_marks(fig, top: float, window: int, compress_at: float | None = None) -> None:
    """Mark the context window (and the compression point) on a chart of tokens whose y-axis
    is scaled to the data (0 .. `top`): a line where it falls inside the chart, else a note at
    the top edge saying where it is and how much of it the data uses."""
    marks = [(window, f"context window {window:,}", dict(line_color="black"))]
    if compress_at:
        marks.append((window * compress_at, f"compress at {compress_at:.0%} ({window * compress_at:,.0f})",
                      dict(line_dash="dash", line_color="orange")))
    above = []
    for y, text, style in marks:
        if y <= top:
            fig.add_hline(y=y, annotation_text=text, annotation_position="top left", **style)
        else:
            above.append(text)
    if above:
        fig.add_annotation(xref="paper", yref="paper", x=1, y=1.0, xanchor="right", yanchor="bottom",
                           showarrow=False, font=dict(size=11, color="#555"),
                           text=" · ".join(above) + f": above this chart (peak {top / 1.15:,.0f} tokens "
                                f"= {top / 1.15 / window:.1%} of the window)")


def cumulative_tokens(sessions: dict, window: int, compress_at: float | None = 0.6,
                      title: str = "Cumulative tokens in the context", styles: dict | None = None,
                      hover: dict | None = None):
    """Cumulative tokens call by call, one line per session (`{name: Session}`), the y-axis
    scaled to the data, the window and the compression point marked (`window_marks`)."""
    lines = []
    for name, s in sessions.items():
        extra = dict((styles or {}).get(name, {}))
        if hover and name in hover:
            extra.update(text=hover[name], hovertemplate="call %{x}: %{y:,} tokens<br>%{text}<extra></extra>")
        lines.append((name, [r.turn for r in s.records], [r.cumulative for r in s.records], extra))
    return _cumulative_figure(lines, window, compress_at, title)


def logged_sessions(log, window: int, compress_at: float | None = 0.6,
                    title: str = "Cumulative tokens per logged session"):
    """The same chart for a call log (`calllog.load`: columns session, turn, cumulative_tokens,
    tool), one line per session, the tool named on hover."""
    lines = [(sid, list(g.turn), list(g.cumulative_tokens),
              dict(text=list(g.tool), hovertemplate="call %{x}: %{y:,} tokens<br>%{text}<extra></extra>"))
             for sid, g in log.groupby("session", sort=False)]
    return _cumulative_figure(lines, window, compress_at, title)


def _cumulative_figure(lines, window: int, compress_at: float | None, title: str):
    import plotly.graph_objects as go
    fig = go.Figure()
    peak = 0
    for name, xs, ys, extra in lines:
        ys = [0] + list(ys)
        peak = max(peak, max(ys))
        fig.add_trace(go.Scatter(x=[0] + list(xs), y=ys, mode="lines+markers", name=name, **extra))
    top = max(peak, 1) * 1.15
    window_marks(fig, top, window, compress_at)
    fig.update_layout(title=title, xaxis_title="tool call", yaxis_title="tokens",
                      yaxis_range=[0, top], height=380, margin=dict(t=60, l=60, r=20, b=40),
                      legend=dict(orientation="h", y=-0.2))
    return fig
