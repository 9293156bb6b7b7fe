# %% [markdown]
# # 07 · A corpus: many repositories as one dataset
#
# **What this notebook is for:** asking a question of many repositories at once. One
# repository's numbers (notebooks 01-05) can mislead: an outline format that saves half the
# tokens on a Python service may save a fifth on a Go one. Here the repositories are indexed
# into one **corpus** (a folder of Parquet files, one export per repository), queried as one
# set of views with a `repo` column, and compared: sizes and call-graph resolution per
# repository, outline formats across repositories, and the reading strategies of notebook 06
# on every repository.
#
# **Parameters:** `REPO` (default: every bundled sample repository; or a list file, one
# folder, archive or `path rev=REV` a line, or a folder whose subfolders are the
# repositories), `CORPUS` (the corpus folder), `ENGINE` (`"local"`: a process pool;
# `"dask"`: a Dask `LocalCluster`, which needs the `[cluster]` extra and prints its
# dashboard link), `JOBS` (worker processes) and `SAMPLE` (functions evaluated per
# repository).
#
# The same from a terminal: `workbench corpus index repos.txt --out corpus/` and
# `workbench sql --corpus corpus/ "SELECT ..."` (docs/corpus.md).

# %%
import os
import workbench
from workbench import plots
from workbench.notebooks import SAMPLES, cache_db

# %% tags=["parameters"]
REPO = None          # None = the bundled samples; a list file; or a folder of repositories
CORPUS = None        # the corpus folder; None = one in the user cache
ENGINE = "local"     # "local" (process pool) or "dask" (Dask LocalCluster, extra [cluster])
JOBS = 2             # worker processes
SMALL = False        # True: the format comparison reads at most 40 files per repository
SAMPLE = 200         # functions and methods evaluated per repository (seeded sample)

# %% [markdown]
# ## 1. Build the corpus
#
# One task per repository: index it (the ordinary indexer, in one worker process), export
# its tables as Parquet into `CORPUS/<name>/`, and swap that in. Run the cell twice: the
# second run skips every repository whose input did not change (its fingerprint: the files'
# paths, sizes and mtimes, or an archive's, or a git commit, plus the extractor and resolver
# versions). A repository that fails (a broken archive, a missing folder) is recorded with
# its error in `CORPUS/<name>/manifest.json`; the others complete.

# %%
if REPO is None:
    inputs = sorted(str(p) for p in SAMPLES.iterdir() if p.is_dir())
elif os.path.isdir(REPO):
    inputs = sorted(os.path.join(REPO, d) for d in os.listdir(REPO)
                    if os.path.isdir(os.path.join(REPO, d)) and not d.startswith("."))
else:
    inputs = [REPO]                  # a list file
CORPUS = CORPUS or os.path.join(os.path.dirname(cache_db(".")), "corpus-samples" if REPO is None
                                else "corpus-" + os.path.basename(os.path.abspath(REPO)))
report = workbench.index_corpus(inputs, CORPUS, engine=ENGINE, jobs=JOBS)
print(report)

# %%
corpus = workbench.open_corpus(CORPUS)
corpus.sql("""SELECT repo, status, kind, files, symbols, edges, index_seconds
              FROM repos ORDER BY repo""").df()

# %% [markdown]
# ## 2. One query, every repository
#
# The views have the tables' names and columns plus `repo`, so any query of notebook 04
# becomes a comparison by adding `repo` to the `GROUP BY`. Nothing is loaded in advance:
# DuckDB reads the Parquet files when a query runs (and only a repository's own files
# when the query filters on `repo`).

# %%
corpus.sql("""
    WITH by_language AS (
        SELECT repo, language, count(*) AS files, sum(line_count) AS lines FROM files
        WHERE status IN ('ok', 'partial')
          AND language IN (SELECT DISTINCT language FROM symbols WHERE kind <> 'module')
        GROUP BY ALL)
    SELECT repo, arg_max(language, lines) AS main_language, sum(files)::BIGINT AS source_files,
           sum(lines)::BIGINT AS lines, string_agg(language, ', ' ORDER BY lines DESC) AS languages
    FROM by_language GROUP BY repo ORDER BY repo""").df()

# %%
kinds = corpus.sql("""SELECT repo, kind, count(*) AS n FROM symbols WHERE kind <> 'module'
                      GROUP BY ALL""").df()
kinds.pivot_table(index="kind", columns="repo", values="n", aggfunc="sum", fill_value=0).astype(int)

# %% [markdown]
# How sure is the call graph, per repository? The share of call edges by `resolution`
# (docs/schema.md): `builtin` and `external` calls leave the repository, `unresolved` ones
# found nothing evident.

# %%
res = corpus.sql("""SELECT repo, resolution, count(*) AS n FROM call_edges GROUP BY ALL""").df()
res["share"] = (res["n"] / res.groupby("repo")["n"].transform("sum")).round(3)
res.pivot_table(index="resolution", columns="repo", values="share", fill_value=0)

# %% [markdown]
# The call-graph macros work on the corpus too, every answer starting with `repo` and every
# join staying within one repository:

# %%
corpus.sql("SELECT repo, qualname, kind, path, start_line FROM find_definition('main')").df()

# %% [markdown]
# ## 3. Distributions per repository
#
# Symbols per file and definition lengths, one box per repository: the spread inside a
# repository is usually wider than the difference between medians.

# %%
per_file = corpus.sql("""SELECT repo, path, count(*) FILTER (WHERE kind <> 'module') AS symbols
                         FROM symbols GROUP BY ALL""").df()
plots.by_repo(per_file, "symbols", title="Definitions per file, per repository")

# %%
lengths = corpus.sql("""SELECT repo, qualname, end_line - start_line + 1 AS lines FROM symbols
                        WHERE kind IN ('function', 'method', 'constructor')""").df()
plots.by_repo(lengths, "lines", title="Lines per function or method, per repository")

# %% [markdown]
# ## 4. Outline formats across repositories
#
# For every source file of every repository: its outline in each format and its tokens as
# a fraction of the whole file's (`plots.outline_formats`, run per repository with
# `corpus.frame`, on the same engine). A ratio of 0.5 means the outline costs half the file.

# %%
formats = corpus.frame(plots.outline_formats, max_files=40 if SMALL else None,
                       jobs=JOBS, engine=ENGINE, desc="outline formats")
formats.groupby(["format", "repo"])["ratio"].median().unstack("repo").round(3)

# %%
plots.by_repo(formats[formats["tokens"] > 0], "ratio", color="format", log=False,
              title="Outline tokens / whole-file tokens per file, by repository and format")

# %% [markdown]
# Which format is cheapest in each repository, and by how much over the next one?

# %%
med = formats.groupby(["repo", "format"])["ratio"].median().reset_index()
best = med.sort_values("ratio").groupby("repo").head(2).sort_values(["repo", "ratio"])
best.groupby("repo").agg(cheapest=("format", "first"), median_ratio=("ratio", "first"),
                         runner_up=("format", "last"), its_ratio=("ratio", "last"))

# %% [markdown]
# ## 5. Reading strategies on every repository
#
# Notebook 06's evaluation on every repository: the tasks are each repository's functions and
# methods (a seeded sample of `SAMPLE` per repository), reached by reading the whole file,
# by outline + region, by the hierarchical outline and by `resolve_symbol`. The results are
# the view `eval_results` on the corpus connection, with `repo` first; `workbench.eval`'s
# distribution groups them by repository. A repository where one strategy wins can be one
# where it loses elsewhere.

# %%
from workbench import eval as ev

corpus.evaluate(["whole_file", "outline_region", "hierarchical", "resolve"], sample=SAMPLE,
                jobs=JOBS, engine=ENGINE)
ev.distribution(corpus.con, "eval_results", by=("repo",)).df()

# %%
plots.by_repo(corpus.sql("SELECT * FROM eval_results WHERE outcome <> 'n/a'").df(), "tokens",
              color="strategy", title="Tokens to reach one function, by repository and strategy")

# %% [markdown]
# ## 6. One repository up close
#
# `corpus.repo(name)` is an ordinary `Workbench` (its tables copied from the Parquet files
# into a temporary database), so the widgets and tools of the other notebooks work on it.

# %%
name = corpus.names[0]
with corpus.repo(name) as wb:
    top = wb.sql("""SELECT path FROM symbols WHERE kind <> 'module' GROUP BY path
                    ORDER BY count(*) DESC, path LIMIT 1""").fetchall()[0][0]
    print(wb.outline(top, format="tags").text[:1500])

# %% [markdown]
# **Exercise.** Which repository has the largest share of `unresolved` calls, and what do
# its unresolved callees look like? (Answer below.)

# %%
worst = res[res["resolution"] == "unresolved"].sort_values("share", ascending=False).iloc[0]["repo"]
corpus.sql("""SELECT as_written, count(*) AS n FROM call_edges
              WHERE repo = ? AND resolution = 'unresolved' GROUP BY 1 ORDER BY 2 DESC LIMIT 10""",
           params=[worst]).df()

# %%
corpus.close()
