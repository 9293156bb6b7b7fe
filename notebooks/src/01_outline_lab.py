# %% [markdown]
# # 01 · Outline lab
#
# **What this notebook is for:** tuning what an agent sees *before* it reads code. Pick a file,
# switch the outline format (markdown, json, tags, stub, prose) and the rules (docs, imports,
# private members, children per class, depth...) and watch the exact text and its token count
# change next to the whole file's. Then compare two rule sets on the same tool call, and look
# at outline savings and the reading strategies across the whole repository.
#
# **Parameters:** `REPO` (default: the bundled `pyshop` sample) and `PATH`, the file to start on
# (`None`: the file with the most definitions).

# %%
import workbench
from workbench.notebooks import open_repo, sample_repo, show_missing_as_empty
from workbench.views import FORMATS, Rules, outline
from workbench.widgets import OutlineBrowser, RuleComparison
from workbench import plots
show_missing_as_empty()      # missing values show as empty cells, not NaN

# %% tags=["parameters"]
REPO = sample_repo("pyshop")   # the repository to study: any local folder
DB = None                      # its DuckDB file; None = one cache file per repository
PATH = None                    # file to start on; None = the one with the most definitions
SMALL = False                  # True: the repository-wide plots use at most 40 files

# %%
wb = open_repo(REPO, DB)
if PATH is None:
    PATH = wb.sql("""SELECT path FROM symbols WHERE kind <> 'module'
                     GROUP BY path ORDER BY count(*) DESC, path LIMIT 1""").fetchall()[0][0]
print(wb, "\nstarting on", PATH)

# %% [markdown]
# ## 1. The outline browser
#
# Left: the files that have definitions (type in *search* to filter by path or by a symbol
# name). Right: the outline exactly as the `read_outline` tool would send it, its token count
# next to the whole file's, and the rule controls. Choosing a *symbol* shows its region as
# `read_region` returns it. Sliders at 0 mean "no limit".

# %%
ob = OutlineBrowser(wb, PATH)
ob

# %% [markdown]
# The widget is plain Python: everything it shows is an attribute, and setting a control from
# code updates it just like a click. `ob.response` is the `Response` of
# `workbench.views.outline(wb, path, rules)`.

# %%
ob.format.value = "tags"
print(ob.rules.format, ob.response.tokens, "tokens")
print(ob.text[:400])
ob.format.value = "markdown"

# %% [markdown]
# ## 2. One file, every format
#
# Same file, same rules, five encodings. Indented markdown is what models read best
# according to the field write-ups; JSON is for programs; tags are dense; stubs look like the
# language; prose is short sentences.

# %%
import pandas as pd
rows = []
for fmt in FORMATS:
    r = outline(wb, PATH, Rules(format=fmt))
    rows.append({"format": fmt, "tokens": r.tokens, "chars": r.chars,
                 "first line": r.text.splitlines()[0] if r.text else ""})
pd.DataFrame(rows)

# %% [markdown]
# ## 3. Two rule sets side by side
#
# The same tool call under rule set A and rule set B: both texts exactly as sent, a line diff,
# and the token and cost delta per call (prices from `workbench/pricing.toml`). Edit the rules
# as `name=value` lines; switch the tool to `resolve_symbol`, `read_region`, `repo_map`...
# with its arguments.

# %%
rc = RuleComparison(wb, "read_outline", {"path": PATH},
                    left=Rules(),
                    right=Rules(docs=False, private=False, max_children=15))
rc

# %%
rc.comparison          # the views' Comparison object: a.tokens, b.tokens, delta

# %% [markdown]
# ## 4. Outline versus whole file, every file
#
# One point per source file: the outline's tokens as a share of the whole file's. Small files
# gain little (an outline of a 20-line file is nearly as long as the file); large files gain
# most, which is where agents overflow their context.

# %%
paths = None
if SMALL:
    paths = [r[0] for r in wb.sql("SELECT DISTINCT path FROM symbols WHERE kind <> 'module' "
                                  "ORDER BY path LIMIT 40").fetchall()]
ratios = plots.outline_vs_file(wb, paths=paths)
plots.outline_ratio(ratios)

# %%
ratios.sort_values("tokens", ascending=False).head(10)[["path", "lines", "tokens", "outline_tokens", "ratio"]]

# %% [markdown]
# ## 5. Reading strategies as distributions
#
# What does it cost an agent to get one function's body? (a) read the whole file; (b) read the
# outline, then the region; (c) read a repository map once, then the region (plus the outline
# when the function is not on the map). One task per function, run through the real tools by
# `workbench.eval` (notebook 06 goes further: real edits from a git history, rule sets side by side).

# %%
from workbench import eval as ev, tasks
functions, _ = tasks.from_symbols(wb.con, kinds=["function", "method"])
strategies = ev.evaluate(wb, functions[:400] if SMALL else functions, ["whole_file", "outline_region", "map_region"])
ev.distribution(wb.con, strategies.results, by=()).df()

# %%
plots.strategy_distributions(strategies)

# %% [markdown]
# ## Try
#
# * Turn `docs` off in the browser: how many tokens do one-line docs cost in this file? Is the
#   file still understandable without them (look at names like `_handle_sync`)?
# * Set *max children* to 5 on a big class. What does the "... N more" marker tell an agent?
# * In the comparison, set B to `format=json`: which format is cheapest for this file?
