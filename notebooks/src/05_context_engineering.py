# %% [markdown]
# # 05 · Context engineering, with real numbers
#
# **What this notebook is for:** teaching why *how* an AI coding agent reads code matters as
# much as *what* it reads. It works on real code, the Python standard library of this
# interpreter, and measures four things with a real BPE tokenizer (cl100k):
#
# 1. whole file versus outline: the token math;
# 2. "read the first N lines": how cutting a file loses a signature the agent never knows it missed;
# 3. budgets: how fast a context window fills, and where a budget manager starts compressing;
# 4. why a call graph finds the aliased caller that grep misses.
#
# Each part ends with a small exercise; the answer is the code cell right after it (try first,
# then run it). The figures quoted from practitioner write-ups are *their* claims, used as
# talking points; the numbers in the outputs are measured here.
#
# **Parameters:** `REPO` (default: the standard library; with `SMALL=True`, a copy of the few
# modules the lessons use), `N_LINES` (where the naive reader cuts) and `WINDOW`.

# %%
import workbench
from workbench.notebooks import open_repo, sample_repo, show_missing_as_empty
from workbench.notebooks import stdlib_root, stdlib_sample
from workbench import views
from workbench.views import Rules, outline
from workbench.views.session import Session
from workbench.views.tokens import count_tokens
from workbench.views.pricing import default_pricing
import pandas as pd
show_missing_as_empty()      # missing values show as empty cells, not NaN

# %% tags=["parameters"]
REPO = None          # None = the standard library (a copy of LESSON_FILES when SMALL)
DB = None            # its DuckDB file; None = one cache file per repository
SMALL = False        # True: index only LESSON_FILES (seconds instead of a minute; tests set it)
N_LINES = 300        # the naive reader's cut: "read the first N lines"
WINDOW = 128_000     # context window in tokens

# %%
LESSON_FILES = ["argparse.py", "subprocess.py", "logging/__init__.py", "http/client.py",
                "shutil.py", "textwrap.py", "json/decoder.py", "json/__init__.py"]
if REPO is None:
    REPO = stdlib_sample(LESSON_FILES) if SMALL else stdlib_root()
wb = open_repo(REPO, DB)      # the whole stdlib takes a minute or more the first time, then it is cached
print(wb)


def whole_tokens(path):
    """Tokens of a whole file: what reading it in full costs."""
    with open(f"{wb.root}/{path}", encoding="utf-8", errors="replace") as fh:
        return count_tokens(fh.read())

# %% [markdown]
# ## 1. Whole file versus outline
#
# The write-ups report that in a ~2,000-line class the 60-100 lines that matter cost the same
# as the 18k-25k tokens of the whole file, and that an outline of a few-hundred-line file is
# roughly 200-300 tokens. Let us measure on the standard library.

# %%
rows = []
for path in LESSON_FILES:
    o = outline(wb, path)
    w = whole_tokens(path)
    lines = wb.sql("SELECT line_count FROM files WHERE path = ?", [path]).fetchall()[0][0]
    rows.append({"file": path, "lines": lines, "whole file": w, "outline": o.tokens,
                 "outline / file": round(o.tokens / w, 3), "files per outline": round(w / o.tokens, 1)})
math = pd.DataFrame(rows).sort_values("lines", ascending=False)
math

# %% [markdown]
# The outline is a map: names, signatures, line ranges and one-line docs. Here is the start of
# the map of `argparse.py` an agent would get from `read_outline`:

# %%
print("\n".join(outline(wb, "argparse.py").text.splitlines()[:25]))

# %% [markdown]
# With the map, the agent reads exactly one region. Reading `ArgumentParser.parse_known_args`
# through the outline costs the outline plus that method, instead of the whole file:

# %%
target = wb.sql("""SELECT qualname, start_line, end_line FROM symbols
                   WHERE path = 'argparse.py' AND name = 'parse_known_args'""").fetchall()[0]
region = views.call(wb, "read_region", {"path": "argparse.py", "start_line": target[1], "end_line": target[2]})
o = outline(wb, "argparse.py")
print(f"{target[0]} lines {target[1]}-{target[2]}")
print(f"whole file: {whole_tokens('argparse.py'):,} tokens")
print(f"outline + region: {o.tokens:,} + {region.tokens:,} = {o.tokens + region.tokens:,} tokens")

# %% [markdown]
# **Exercise 1.** Which of the lesson files gains the *least* from an outline (highest
# outline / file ratio), and why might that be? (Hint: look at its size and at what it
# contains.)

# %%
# Answer
density = wb.sql("""
    SELECT path AS file, count(*) AS definitions,
           round(100.0 * count(*) / any_value(f.line_count), 1) AS per_100_lines,
           round(avg(end_line - start_line + 1), 1) AS avg_lines_per_definition
    FROM symbols JOIN files f USING (path)
    WHERE kind IN ('class', 'function', 'method') AND list_contains(?, path)
    GROUP BY path""", [LESSON_FILES]).df()
answer = math.merge(density, on="file").sort_values("outline / file", ascending=False)
worst = answer.iloc[0]
print(f"{worst['file']} gains least: its outline is {worst['outline / file']:.0%} of the file.")
print(f"It has {worst['per_100_lines']} definitions per 100 lines, averaging "
      f"{worst['avg_lines_per_definition']} lines each: many short functions and methods, each")
print("with a signature and a doc line in the outline, and little body between them to skip.")
answer[["file", "outline / file", "per_100_lines", "avg_lines_per_definition"]]

# %% [markdown]
# ## 2. Cutting at N lines loses signatures, silently
#
# A common shortcut is "read the first N lines". The agent then reasons about a file it has
# only partly seen, and nothing tells it what is missing. Which definitions does it never see,
# and which does it see cut in the middle?

# %%
cut = wb.sql("""
    SELECT path,
           count(*) FILTER (WHERE start_line > $n) AS never_seen,
           count(*) FILTER (WHERE start_line <= $n AND end_line > $n) AS cut_in_the_middle,
           count(*) AS definitions
    FROM symbols
    WHERE kind IN ('class', 'function', 'method') AND visibility = 'public'
      AND list_contains($files, path)
    GROUP BY path ORDER BY never_seen DESC""", {"n": N_LINES, "files": LESSON_FILES}).df()
cut

# %% [markdown]
# What the naive reader actually gets for `argparse.py`: the last lines before the cut. The
# text simply stops; nothing says that `ArgumentParser` and its `parse_args` exist further
# down.

# %%
naive = views.call(wb, "read_region", {"path": "argparse.py", "start_line": 1, "end_line": N_LINES},
                   rules=Rules(max_chars=10**9, max_tokens=10**9))
print("\n".join(naive.text.splitlines()[-6:]))
print(f"\n[{naive.tokens:,} tokens]  'parse_args' in the text: {'def parse_args' in naive.text}")

# %% [markdown]
# The workbench's own `read_region` has a per-response cap too (6,000 characters by default),
# but it cuts at a whole line and *says so*, with the range to ask for next: the agent knows
# what it has not seen.

# %%
capped = views.call(wb, "read_region", {"path": "argparse.py", "start_line": 1, "end_line": 2000})
print("...\n" + "\n".join(capped.text.splitlines()[-3:]))

# %% [markdown]
# **Exercise 2.** With `N_LINES`, how many public methods of the class `ArgumentParser` can the
# naive reader not see at all? Write the SQL.

# %%
# Answer
hidden = wb.sql("""
    SELECT m.name, m.start_line FROM symbols m JOIN symbols c ON c.symbol_id = m.parent_id
    WHERE c.qualname = 'argparse.ArgumentParser' AND m.kind = 'method'
      AND m.visibility = 'public' AND m.start_line > ?
    ORDER BY m.start_line""", [N_LINES]).fetchall()
print(len(hidden), "public methods of ArgumentParser start after line", N_LINES, ":",
      ", ".join(name for name, _ in hidden))

# %% [markdown]
# ## 3. Budgets: how fast the window fills
#
# A session accumulates: every response stays in the context. The path-context write-up
# recommends that a budget manager start compressing older reads at about 60% of the window,
# leaving room for the answer. Two agents read the lesson files, biggest first: one whole
# files, one the outline plus the biggest function of each file. When does each cross 60%?

# %%
whole = Session(wb, Rules(context_window=WINDOW, max_chars=10**9, max_tokens=10**9), compact=False)
lean = Session(wb, Rules(context_window=WINDOW))
for path in math["file"]:
    n = wb.sql("SELECT line_count FROM files WHERE path = ?", [path]).fetchall()[0][0]
    whole.call("read_region", path=path, start_line=1, end_line=n)
    a, b = wb.sql("""SELECT start_line, end_line FROM symbols WHERE path = ? AND kind IN ('function', 'method')
                     ORDER BY end_line - start_line DESC LIMIT 1""", [path]).fetchall()[0]
    lean.call("read_outline", path=path)
    lean.call("read_region", path=path, start_line=a, end_line=b)
limit = WINDOW * 0.6
for name, s in [("whole files", whole), ("outline + region", lean)]:
    cross = next((r.turn for r in s.records if r.cumulative >= limit), None)
    print(f"{name:17s} {s.total_tokens:>8,} tokens = {s.used_share:6.1%} of {WINDOW:,}; "
          + (f"compression starts at call {cross}" if cross else "never reaches 60%")
          + f"; ${s.cost():.4f}")

# %%
from workbench import plots
plots.cumulative_tokens({"whole files": whole, "outline + region": lean}, WINDOW, 0.6,
                        title="Context used, call by call")

# %% [markdown]
# Repeats cost too: the same region read twice is sent twice unless the session remembers it.
# The session answers "already provided above" for content it sent and that has not changed.

# %%
s = Session(wb)
first = s.call("resolve_symbol", name="argparse.ArgumentParser.parse_known_args")
again = s.call("resolve_symbol", name="argparse.ArgumentParser.parse_known_args")
print(f"first read {first.tokens:,} tokens, repeat {again.tokens:,} tokens: {again.text}")

# %% [markdown]
# **Exercise 3.** With a 32,000-token window and compression at 60%, how many *whole* reads of
# `argparse.py` fit before compression must start? How many *outlines* of it?

# %%
# Answer
budget = int(32_000 * 0.6)
w, o = whole_tokens("argparse.py"), outline(wb, "argparse.py").tokens
print(f"budget {budget:,} tokens: {budget // w} whole reads ({w:,} tokens each), "
      f"{budget // o} outlines ({o:,} tokens each)")

# %% [markdown]
# ## 4. Why a graph finds the aliased caller that grep misses
#
# The code-graph write-up tells of a rename that "succeeded" after grep found four call sites;
# the fifth, reached through a re-export under another name, broke CI. Grep searches text; the
# resolver binds names through imports, aliases and re-exports.
#
# The bundled `pyshop` sample is built to show it: `shop.pricing.compute_total` is re-exported
# by `shop/__init__.py` and, renamed `total_price`, by `shop/util/__init__.py`; `shop/orders.py`
# calls it as `ct(...)`.

# %%
import os, re
from workbench import graph

shop = open_repo(sample_repo("pyshop"), None if DB is None else DB + ".pyshop")
pat = re.compile(r"\bcompute_total\s*\(")
grep_hits = []
for (path,) in shop.sql("SELECT path FROM files WHERE language = 'python'").fetchall():
    with open(os.path.join(shop.root, path), encoding="utf-8") as fh:
        grep_hits += [(path, i) for i, line in enumerate(fh, 1) if pat.search(line)]
callers = graph.find_callers(shop.con, "shop.pricing.compute_total")
print("grep 'compute_total(':", grep_hits)
pd.DataFrame([{"caller": c.caller, "call site": f"{c.path}:{c.line}", "written as": c.as_written,
               "resolution": c.resolution, "grep finds it": (c.path, c.line) in grep_hits} for c in callers])

# %% [markdown]
# Grep also finds a *different* `compute_total` (`shop/util/legacy.py`) and the definition
# itself; the graph tells them apart. In the repository studied above, how every call edge was
# bound (`alias` and `reexport` are the calls a grep for the definition's name would miss;
# `unresolved` and `ambiguous` are where the graph honestly does not know):

# %%
wb.sql("""SELECT resolution, count(*) AS calls FROM edges WHERE kind = 'calls'
          GROUP BY 1 ORDER BY 2 DESC""").df()

# %% [markdown]
# **Exercise 4.** In `pyshop`, list the callers of `shop.pricing.compute_total` that a rename
# relying on `grep "compute_total("` would have broken, with how the resolver bound each.

# %%
# Answer
missed = [(c.caller, f"{c.path}:{c.line}", c.as_written, c.resolution)
          for c in callers if (c.path, c.line) not in grep_hits]
for m in missed:
    print(*m)
assert missed, "the aliased and re-exported callers are invisible to grep"

# %% [markdown]
# ## What to take away
#
# * Give the agent a map first (outline, call graph, pruned tree), then exactly the region.
# * Never cut silently: a cap must say what was left out and how to get it.
# * Count tokens per session, not per call; compress before the window is full; do not resend
#   what the agent already has.
# * Use the graph to find *where*, then read the file before editing: the graph says where to
#   look, the file is the ground truth.
