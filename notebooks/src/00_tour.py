# %% [markdown]
# # 00 · Tour of Context Workbench
#
# **What this notebook is for:** a first walk through the workbench. It indexes one repository
# with tree-sitter into DuckDB, shows the four tables (`files`, `symbols`, `edges`, `imports`),
# runs a first SQL query, renders a first outline (the *map* an AI coding agent reads before it
# opens a file), and points you to the other notebooks.
#
# **Parameter:** `REPO`, the repository to study (default: the bundled Python sample `pyshop`).
# Change the cell below, or run headless with
# `python -m workbench.notebooks 00_tour --repo PATH`.

# %%
import workbench
from workbench.notebooks import open_repo, sample_repo, show_missing_as_empty
show_missing_as_empty()      # missing values show as empty cells, not NaN

# %% tags=["parameters"]
REPO = sample_repo("pyshop")   # the repository to study: any local folder
DB = None                      # its DuckDB file; None = one cache file per repository

# %% [markdown]
# ## 1. Index
#
# `open_repo` calls `workbench.index(REPO, db=...)`: scan (ignore rules, binary and size checks),
# parse every file with tree-sitter, extract symbols/edges/imports, store them in one DuckDB
# transaction, resolve calls. Re-running it re-parses only changed files.

# %%
wb = open_repo(REPO, DB)
print(wb.report)
from workbench.stats import format_stats
print(format_stats(wb.stats()))

# %% [markdown]
# ## 2. The tables
#
# The database is the API: every view in the workbench is a query over these tables, and you
# can run the same queries yourself. Line numbers are 1-based and inclusive; paths are
# repository-relative.

# %%
wb.files.project("path, language, line_count, size_bytes, status").order("path").df()

# %%
wb.symbols.filter("kind <> 'module'").order("path, start_line") \
    .project("kind, qualname, start_line, end_line, signature, doc").limit(15).df()

# %% [markdown]
# `edges` holds `contains`, `calls`, `imports` and `inherits` relations. A call keeps the name as
# written (`dst_name`) and, when the resolver could bind it, the target (`dst_id`,
# `dst_qualname`) plus *how* it was bound (`resolution`). Unresolved calls stay visible as such.

# %%
wb.sql("""
    SELECT kind, resolution, count(*) AS n
    FROM edges GROUP BY ALL ORDER BY kind, n DESC
""").df()

# %% [markdown]
# ## 3. A first SQL question
#
# Which functions are the biggest, and do they have a docstring? (More recipes in
# `04_sql_over_code`.)

# %%
wb.sql("""
    SELECT qualname, path, end_line - start_line + 1 AS lines, doc IS NOT NULL AS documented
    FROM symbols
    WHERE kind IN ('function', 'method')
    ORDER BY lines DESC
    LIMIT 8
""").df()

# %% [markdown]
# ## 4. A first outline
#
# An outline lists a file's definitions with line ranges, signatures and the first line of
# their docs. An agent reads it first, then asks for exactly the region it needs. The text
# below is produced by the same function an agent-facing tool would call, and the token counts
# use a real BPE tokenizer.

# %%
from workbench.views import outline
from workbench.views.tokens import count_tokens

# the source file with the most definitions
PATH = wb.sql("""
    SELECT path FROM symbols WHERE kind <> 'module'
    GROUP BY path ORDER BY count(*) DESC, path LIMIT 1""").fetchall()[0][0]
first = outline(wb, PATH)
with open(f"{wb.root}/{PATH}", encoding="utf-8", errors="replace") as fh:
    whole = count_tokens(fh.read())
print(f"{PATH}: outline {first.tokens} tokens, whole file {whole} tokens "
      f"({first.tokens / whole:.0%})")
first          # a Response renders itself: the exact text, then its token count

# %% [markdown]
# ## 5. Where the tokens are
#
# Tokens by directory and file (click a box to zoom in). Whole-file reading costs scale with
# these numbers; outlines do not.

# %%
from workbench import plots
plots.token_treemap(wb)

# %% [markdown]
# ## Next
#
# * `01_outline_lab`: outline formats and options, rule sets side by side.
# * `02_call_chains`: callers and callees on a graph, with the call sites.
# * `03_agent_preview`: a sequence of agent tool calls against a context window.
# * `04_sql_over_code`: a SQL cookbook over the tables.
# * `05_context_engineering`: the teaching notebook, on real standard-library code.
