# %% [markdown]
# # 03 · Agent session preview
#
# **What this notebook is for:** previewing what a coding agent's context fills up with.
# Write a sequence of tool calls; see each response exactly as the agent gets it, the running
# token total against a context window with the point where a budget manager would start
# compressing older reads (60% by default), and what the same calls would cost without the
# session cache (every repeated read sent again in full).
#
# The last part replays a real agent's call log (`workbench serve DB --log FILE`): what the
# agent asked, what it got, what it cost.
#
# **Parameters:** `REPO` (default: the bundled `pyshop` sample), `WINDOW`, the context
# window in tokens, and `LOG`, a call log file (default: one recorded here by the MCP SDK's
# own client).

# %%
import workbench
from workbench.notebooks import open_repo, sample_repo, show_missing_as_empty
from workbench import views
from workbench.views import Rules
from workbench.views.session import Session
from workbench.views.pricing import default_pricing
from workbench.widgets import SessionPreview
import pandas as pd
show_missing_as_empty()      # missing values show as empty cells, not NaN

# %% tags=["parameters"]
REPO = sample_repo("pyshop")   # the repository to study: any local folder
DB = None                      # its DuckDB file; None = one cache file per repository
WINDOW = 32_000                # context window in tokens (8k ... 1M in the widget)
LOG = None                     # a call log of `workbench serve DB --log FILE`; None = record one here

# %%
wb = open_repo(REPO, DB)
# a plausible first session on this repository: the biggest source file and its biggest function
PATH, FUNC, START, END = wb.sql("""
    SELECT path, qualname, start_line, end_line FROM symbols
    WHERE kind IN ('function', 'method')
      AND path = (SELECT path FROM files WHERE status = 'ok' AND language IS NOT NULL
                    AND path IN (SELECT path FROM symbols WHERE kind IN ('function', 'method'))
                  ORDER BY line_count DESC, path LIMIT 1)
    ORDER BY end_line - start_line DESC, qualname LIMIT 1""").fetchall()[0]
LINES = wb.sql("SELECT line_count FROM files WHERE path = ?", [PATH]).fetchall()[0][0]
CALLS = [
    "list_files",
    f"read_outline path={PATH}",
    f"resolve_symbol name={FUNC}",
    f"find_callers symbol={FUNC}",
    f"read_region path={PATH} start_line=1 end_line={LINES}",
    f"resolve_symbol name={FUNC}",
    f"read_region path={PATH} start_line=1 end_line={LINES}",
    "repo_map",
]
print(wb, "\n" + "\n".join(CALLS))

# %% [markdown]
# ## 1. The preview
#
# Edit the calls (one per line, `tool name=value ...`), or add one with the controls below the
# editor. The chart shows the cumulative tokens with the session (repeats answered "already
# provided above") and without it (dotted), against the window and the compression point.
# Pick a call under *response* to see its text exactly as sent.

# %%
sp = SessionPreview(wb, CALLS, context_window=WINDOW)
sp

# %%
pd.DataFrame(sp.session.rows())

# %% [markdown]
# ## 2. The same from code
#
# `Session` is the view the widget runs (twice: once with the rules' `dedupe`, once without).

# %%
s = Session(wb, Rules(context_window=WINDOW))
s.call("read_outline", path=PATH)
s.call("resolve_symbol", name=FUNC)
again = s.call("resolve_symbol", name=FUNC)
print(again.text)
s

# %% [markdown]
# ## 3. Whole files versus outline + regions
#
# Two agents answer the same question about the five biggest source files. One reads every
# file whole; the other reads each outline and then only the biggest function in it.

# %%
files = wb.sql("""
    SELECT f.path, f.line_count,
           (SELECT max_by([s.start_line, s.end_line], s.end_line - s.start_line) FROM symbols s
             WHERE s.path = f.path AND s.kind IN ('function', 'method')) AS biggest
    FROM files f WHERE f.status = 'ok'
      AND EXISTS (SELECT 1 FROM symbols s WHERE s.path = f.path AND s.kind IN ('function', 'method'))
    ORDER BY f.line_count DESC, f.path LIMIT 5""").fetchall()
whole = Session(wb, Rules(context_window=WINDOW, max_chars=10**9, max_tokens=10**9), compact=False)
lean = Session(wb, Rules(context_window=WINDOW))
for path, n, (a, b) in files:
    whole.call("read_region", path=path, start_line=1, end_line=n)
    lean.call("read_outline", path=path)
    lean.call("read_region", path=path, start_line=a, end_line=b)
price = default_pricing()
pd.DataFrame([
    {"agent": "whole files", "calls": len(whole.records), "tokens": whole.total_tokens,
     "share of window": f"{whole.used_share:.1%}", "cost $": round(whole.cost(), 5)},
    {"agent": "outline + region", "calls": len(lean.records), "tokens": lean.total_tokens,
     "share of window": f"{lean.used_share:.1%}", "cost $": round(lean.cost(), 5)},
])

# %%
from workbench import plots
plots.cumulative_tokens({"whole files": whole, "outline + region": lean}, WINDOW, 0.6,
                        title="Cumulative tokens: whole files vs outline + region")

# %% [markdown]
# ## 4. What it costs
#
# Prices per million tokens from `workbench/pricing.toml` (edit it, or load your own with
# `Pricing.load(path)`). Cached input is billed separately by providers and is cheaper.

# %%
pd.DataFrame(price.table())

# %% [markdown]
# ## 5. What the agent is told about the tools
#
# The JSON schema of each tool, as a function-calling API would receive it:

# %%
import json
print(json.dumps(views.TOOLS["read_region"].schema, indent=2))

# %% [markdown]
# ## 6. Replaying a real agent's call log
#
# `workbench serve DB --log FILE` appends every call an MCP client makes (Claude Code,
# Cursor, ...) to the table `calls` of a DuckDB file: the arguments, the exact answer, its
# tokens, the files it used, whether it was cut or stale (docs/mcp.md). Point `LOG` at such
# a file. Left at `None`, the notebook records one now: the calls above, made by the MCP
# SDK's own client against the server (in this process, over the SDK's in-memory
# transport: the same protocol and server code as over stdio).

# %%
import tempfile
from pathlib import Path
from workbench import calllog
from workbench.server.client import run_calls
from workbench.views.registry import typed_args
from workbench.views.replay import replay
from workbench.widgets.session import parse_call

if LOG is None:      # record into a temporary folder, removed once the log is read
    with tempfile.TemporaryDirectory(prefix="workbench-calls-") as folder:
        recorded = str(Path(folder) / "calls.duckdb")
        calls = [parse_call(c) for c in CALLS]
        run_calls(wb, [(tool, typed_args(tool, args)) for tool, args in calls], log=recorded)
        log = calllog.load(recorded)
else:
    log = calllog.load(LOG)
log[["session", "turn", "tool", "arguments", "tokens", "cumulative_tokens", "cut", "stale",
     "repeat_of", "elapsed_ms"]]

# %% [markdown]
# What the agent got at one turn, exactly as sent:

# %%
row = log.sort_values("tokens").iloc[-1]          # the largest answer
print(f"turn {row.turn}: {row.tool} {row.arguments} -> {row.tokens:,} tokens\n")
print(row.answer)

# %% [markdown]
# What it cost, per session: tokens sent, the peak against the window, the repeats the
# session did not send again (each would have cost as much as the turn it repeats), and the
# price as uncached input.

# %%
def session_costs(log):
    out = []
    for sid, g in log.groupby("session", sort=False):
        by_turn = dict(zip(g.turn, g.tokens))
        saved = sum(by_turn.get(int(t), 0) for t in g.repeat_of.dropna())
        out.append({"session": sid, "calls": len(g), "tokens": int(g.tokens.sum()),
                    "peak share of window": f"{g.cumulative_tokens.max() / WINDOW:.1%}",
                    "not resent (tokens)": saved, "cut answers": int(g.cut.sum()),
                    "stale answers": int(g.stale.sum()),
                    "cost $": round(price.cost(input_tokens=int(g.tokens.sum())), 5)})
    return pd.DataFrame(out)
session_costs(log)

# %%
plots.logged_sessions(log, WINDOW, 0.6)

# %% [markdown]
# The same calls again, now, in fresh sessions: under the rules the log was made with
# (`same_text` is False where the index or the files changed since), and under leaner rules
# (what the agent would have received with another profile; export one from the outline
# lab and start the server with `--rules FILE`).

# %%
again = replay(wb, log)
leaner = replay(wb, log, Rules(docs=False, private=False, max_children=10))
pd.DataFrame({"tool": again.tool, "logged tokens": again.logged_tokens,
              "now": again.tokens, "same text": again.same_text, "leaner rules": leaner.tokens})

# %% [markdown]
# ## Try
#
# * Set the window to 8k: at which call would compression start?
# * Comment out the second `read_region` (`#` at the start): how much did the repeat cost
#   without the session cache?
# * Add `read_region` calls of overlapping ranges: when does the session answer "already
#   provided"?
# * Serve this repository to your agent (`workbench serve DB --log calls.duckdb`), work on a
#   task, and set `LOG = "calls.duckdb"`: which calls cost the most?
