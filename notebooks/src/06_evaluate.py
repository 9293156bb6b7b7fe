# %% [markdown]
# # 06 · Evaluate rule sets on real edits
#
# **What this notebook is for:** deciding between two rule sets with a number instead of a
# look at one outline. It builds a task set from a git history (the functions and methods
# whose code changed between two revisions), runs the reading strategies an agent could take
# (whole file, first N lines, outline + region, hierarchical outline, repo map, resolve by
# name, context pack) through the real tools under two rule sets, and shows how many tokens
# each spends to reach the code to change, and whether it got there (hit / cut / miss).
#
# **Parameters:** `REPO` (a git repository with the revisions `FROM` and `TO`; without
# them, the bundled `pyshop` sample with a small scripted history: a few functions edited,
# one added, one deleted, one only reformatted), `RULES` (the rule sets to compare: presets
# or TOML files), `STRATEGIES`.

# %%
import os
import workbench
from workbench import eval as ev, plots, tasks
from workbench.notebooks import cache_db, demo_history, sample_repo
from workbench.views import Rules, call
from workbench.widgets import EvalExplorer

# %% tags=["parameters"]
REPO = sample_repo("pyshop")   # a git repository (else: the sample's scripted history)
FROM = None                    # old revision (None: the scripted history's v1)
TO = None                      # new revision (None: v2)
DB = None                      # database for the old revision and the results; None: a cache file
RULES = ["default", "full"]    # rule sets to compare (presets: default full lean names, or TOML files)
STRATEGIES = None              # None: every built-in strategy
SMALL = False                  # True: at most 40 tasks

# %% [markdown]
# ## 1. A task set from the history
#
# `workbench tasks from-git` compares the two revisions on the syntax tree: reformatting,
# comments and docstrings are not changes; a nested function is a task of its own. Each task
# carries its line range in the old revision, which is the one we index.

# %%
is_git = os.path.isdir(os.path.join(REPO, ".git")) or REPO.rstrip("/").endswith(".git")
if not is_git or FROM is None or TO is None:
    REPO, FROM, TO = demo_history()
    print(f"the pyshop sample with a scripted history: {REPO} ({FROM}..{TO})")
DB = DB or cache_db(f"{REPO}@{FROM}")
rows = tasks.from_git(REPO, FROM, TO)
tasks.prepare(REPO, FROM, DB)
wb = workbench.open(DB, read_only=False)      # the task set is stored in the database
tasks.save(wb.con, rows, "history")
# (a definition added in a new file has no lines in the old revision: shown blank)
task_table = wb.sql("""SELECT change, path, qualname, coalesce(start_line::VARCHAR, '') AS start_line,
                              coalesce(end_line::VARCHAR, '') AS end_line, coalesce(note, '') AS note
                       FROM tasks WHERE task_set = 'history' ORDER BY task_id""").df()
task_table

# %% [markdown]
# ## 2. Every strategy under two rule sets
#
# Each strategy calls the real tools (`read_outline`, `read_region`, `resolve_symbol`, ...)
# the way an agent would, knowing the file and the name of the definition but not its lines;
# every answer's tokens are counted. `share` is the median fraction of the whole file's tokens.

# %%
rule_sets = dict(ev.rule_set(r) for r in RULES)
selected = tasks.load(wb.con, task_set="history")
if SMALL:
    selected = selected.slice(0, 40)
res = ev.evaluate(wb, selected, STRATEGIES, rule_sets)
print(res)
ev.distribution(wb.con, res.results, by=()).df()

# %% [markdown]
# ## 3. Distributions, hit rates, tokens against hits
#
# A strategy is only worth its tokens if it reaches the code: the Pareto view puts the
# median cost against the hit rate, one point per strategy and rule set.

# %%
plots.strategy_distributions(res)

# %%
plots.hit_rates(res)

# %%
plots.pareto(res)

# %% [markdown]
# ## 4. Pick strategies and rule sets
#
# The explorer filters the same results; switch between the three views.

# %%
explorer = EvalExplorer(res, rules=list(rule_sets)[:2])
explorer

# %% [markdown]
# ## 5. One task, call by call
#
# What `outline_region` did for the most expensive task under the first rule set: every call,
# its tokens, and the lines of the file it returned.

# %%
first = list(rule_sets)[0]
df = res.results.to_pandas()
costly = df[(df.strategy == "outline_region") & (df.rules == first) & (df.outcome != "n/a")]
if len(costly):
    task_id = int(costly.sort_values("tokens").iloc[-1].task_id)
    print(costly.sort_values("tokens").iloc[-1][["qualname", "tokens", "file_tokens", "outcome"]].to_dict())
    wb.con.register("run_calls", res.calls)      # the tool calls, as SQL sees them
    display(wb.sql(f"""SELECT step, tool, args, tokens,
                              coalesce(start_line::VARCHAR, '') AS start_line,   -- blank: an outline
                              coalesce(end_line::VARCHAR, '') AS end_line        -- returns no lines
                       FROM run_calls WHERE task_id = {task_id} AND strategy = 'outline_region'
                         AND rules = '{first}' ORDER BY step""").df())

# %% [markdown]
# What the agent read first, exactly (the hierarchical outline at the level that fits the
# rules' `outline_budget`):

# %%
if len(costly):
    path = costly.sort_values("tokens").iloc[-1].path
    print(call(wb, "read_outline", {"path": path}, rules=rule_sets[first]).text[:3000])

# %% [markdown]
# ## Try
#
# * Write a TOML file with `outline_budget = 300` and `docs = false`, add it to `RULES`: which
#   strategies get cheaper, and does any start to miss?
# * Give `REPO` a real project with two release tags as `FROM` / `TO` (a clone of requests,
#   rich or click): is the median under 10% of the whole file for the outline strategies?
# * Store the results (`ev.store_results(wb.con, res)`) and query them with SQL: which files
#   make `outline_region` expensive?

# %%
wb.close()
