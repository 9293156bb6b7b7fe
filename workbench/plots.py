"""Plotly figures over an index: where the tokens are, what outlines save, how strategies compare.

Each figure has a data function (plain DataFrame, usable without plotly) and a figure
function that takes either a workbench or that DataFrame:

    >>> from workbench import plots
    >>> plots.token_treemap(wb)                 # tokens by directory and file
    >>> plots.outline_ratio(wb)                 # outline tokens / whole-file tokens per file
    >>> plots.strategy_distributions(table)     # views.strategies.strategy_table(wb), as box plots

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
    paths = list(df["path"])
    if len(paths) > 50:                       # a labelled bar on long runs (tqdm, as the indexer)
        from tqdm.auto import tqdm
        paths = tqdm(paths, desc="outlining files", unit="file", leave=False)
    df["outline_tokens"] = [outline(wb, p, rules).tokens for p in paths]
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


STRATEGY_COLUMNS = {"whole_file": "a whole file", "outline_region": "b outline + region",
                    "map_region": "c repo map + region"}


def strategy_long(table) -> pd.DataFrame:
    """The strategy table of ``workbench.views.strategies`` (one row per function, one column
    per strategy) as one row per (function, strategy): qualname, path, strategy, tokens."""
    df = table.df() if hasattr(table, "df") else pd.DataFrame(table)
    keep = [c for c in ("qualname", "path", "kind", "body_lines", "file_lines") if c in df.columns]
    cols = [c for c in STRATEGY_COLUMNS if c in df.columns]
    long = df.melt(id_vars=keep, value_vars=cols, var_name="strategy", value_name="tokens")
    long["strategy"] = long["strategy"].map(STRATEGY_COLUMNS)
    return long


def strategy_distributions(table, log: bool = True):
    """Distributions (box plot plus points) of the tokens each strategy spends to get one
    function's body, from the strategy comparison table (``views.strategies.strategy_table``)."""
    import plotly.express as px
    long = strategy_long(table)
    med = long.groupby("strategy")["tokens"].median()
    fig = px.box(long, x="strategy", y="tokens", color="strategy", points="all", log_y=log,
                 hover_name="qualname" if "qualname" in long.columns else None,
                 hover_data=[c for c in ("path", "body_lines") if c in long.columns],
                 title="Tokens to get one function's body, by strategy (medians: "
                       + ", ".join(f"{k.split(' ', 1)[1]} {v:,.0f}" for k, v in med.items()) + ")")
    fig.update_layout(showlegend=False, height=460, yaxis_title="tokens" + (" (log)" if log else ""))
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
