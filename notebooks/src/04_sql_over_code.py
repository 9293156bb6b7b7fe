# %% [markdown]
# # 04 · SQL over code: a cookbook
#
# **What this notebook is for:** questions about a codebase answered as SQL over the workbench
# tables. Each recipe is one query you can copy into `workbench sql DB "..."`, into
# `wb.sql(...)`, or into a `%%sql` cell.
#
# **Parameter:** `REPO` (default: the bundled `pyshop` sample).
#
# Two ways to run SQL here, both on the same DuckDB connection:
#
# * **`wb.sql("...")`** returns a DuckDB relation: `.df()` for pandas, `.show()` for text,
#   `.fetchall()` for tuples. Parameters: `wb.sql("... WHERE kind = ?", ["class"])`.
#   Best when the result feeds Python (plots, further filtering).
# * **`%%sql`** (jupysql on a duckdb-engine SQLAlchemy engine) makes the cell pure SQL, with
#   `{{var}}` templating and `<<` to save a result. Best when reading and teaching.
#   `sql_engine(wb)` builds the engine over `wb`'s own connection (its cursors follow a
#   re-index, like `wb` does): duckdb-engine refuses to open a second connection to a file
#   this process already has open.

# %%
import workbench
import pandas as pd
from workbench.notebooks import open_repo, sample_repo, show_missing_as_empty
from workbench.notebooks import sql_engine
show_missing_as_empty()

# %% tags=["parameters"]
REPO = sample_repo("pyshop")   # the repository to study: any local folder
DB = None                      # its DuckDB file; None = one cache file per repository

# %%
wb = open_repo(REPO, DB)
print(wb)

# %% [markdown]
# ### Two SQL functions for token counts
#
# Token counts are not stored: they depend on the tokenizer. Two Python functions registered
# as SQL functions bring the workbench's tokenizer (cl100k BPE) into SQL: `file_tokens(path)`
# counts a repository file, `count_tokens(text)` any text (e.g. a signature). Register them
# before creating the `%%sql` engine: connections opened earlier do not see functions added
# later.

# %%
from workbench.safeio import read_beneath
from workbench.views.tokens import get_tokenizer
tokenizer = get_tokenizer()          # cl100k, shipped offline


def file_tokens(path: str) -> int:
    """Tokens of one repository file (read from disk, decoded as UTF-8 with replacement;
    read_beneath follows no link out of the repository and never blocks on a FIFO)."""
    return tokenizer.count(read_beneath(wb.root, path, 16 << 20).decode("utf-8", "replace"))


for name, fn in [("file_tokens", file_tokens), ("count_tokens", tokenizer.count)]:
    try:                             # re-running the cell replaces the functions
        wb.con.remove_function(name)
    except Exception:
        pass
    wb.con.create_function(name, fn, ["VARCHAR"], "BIGINT")

# %% [markdown]
# ### Setting up `%%sql`
#
# `PLOOMBER_STATS_ENABLED=false` turns off jupysql's usage telemetry.

# %%
import os
os.environ.setdefault("PLOOMBER_STATS_ENABLED", "false")
os.environ.setdefault("PLOOMBER_VERSION_CHECK_DISABLED", "true")
# %load_ext sql
# %config SqlMagic.displaylimit = 20
# %config SqlMagic.displaycon = False
engine = sql_engine(wb)
# %sql engine --alias wb

# %% [markdown]
# ## 1. The biggest functions
#
# Length in lines straight from the symbol ranges. `start_line` includes decorators, so the
# range is exactly what an edit would need to read.

# %%
# %%sql
# SELECT qualname, path, start_line, end_line, end_line - start_line + 1 AS lines
# FROM symbols
# WHERE kind IN ('function', 'method')
# ORDER BY lines DESC
# LIMIT 10

# %% [markdown]
# The same with `wb.sql`, kept as a DataFrame for a plot:

# %%
big = wb.sql("""
    SELECT qualname, end_line - start_line + 1 AS lines
    FROM symbols WHERE kind IN ('function', 'method')
    ORDER BY lines DESC LIMIT 10
""").df()
import plotly.express as px
px.bar(big, x="lines", y="qualname", orientation="h", title="Biggest functions (lines)")

# %% [markdown]
# ## 2. Undocumented public API
#
# Public classes, functions and methods without a doc line. (`visibility` follows each
# language's convention: a leading underscore in Python, `export` in TypeScript, capitalised
# names in Go, `pub` in Rust, modifiers in Java.)

# %%
# %%sql
# SELECT kind, qualname, path, start_line
# FROM symbols
# WHERE visibility = 'public'
#   AND kind IN ('class', 'function', 'method', 'interface', 'struct', 'trait', 'enum')
#   AND doc IS NULL
#   AND NOT starts_with(path, 'test')
# ORDER BY path, start_line

# %% [markdown]
# ## 3. Fan-in and fan-out
#
# Fan-in: how many call sites reach a function (only *resolved* calls have a `dst_id`).
# Fan-out: how many distinct names a function calls. High fan-in means a change is risky;
# high fan-out means a function is hard to understand from its own body alone.

# %%
# %%sql
# SELECT s.qualname, count(*) AS call_sites, count(DISTINCT e.src_id) AS calling_functions
# FROM edges e JOIN symbols s ON s.symbol_id = e.dst_id
# WHERE e.kind = 'calls'
# GROUP BY s.qualname
# ORDER BY call_sites DESC
# LIMIT 10

# %%
# %%sql
# SELECT s.qualname,
#        count(DISTINCT e.dst_name) AS distinct_callees,
#        count(*) FILTER (WHERE e.dst_id IS NULL) AS unresolved_calls
# FROM edges e JOIN symbols s ON s.symbol_id = e.src_id
# WHERE e.kind = 'calls' AND s.kind <> 'module'
# GROUP BY s.qualname
# ORDER BY distinct_callees DESC
# LIMIT 10

# %% [markdown]
# How sure is the graph? Every call edge says how it was bound; `unresolved` is never silently
# guessed away.

# %%
wb.sql("SELECT resolution, count(*) AS calls FROM edges WHERE kind = 'calls' "
       "GROUP BY 1 ORDER BY 2 DESC").df()

# %% [markdown]
# ## 4. Import cycles
#
# A file-level import graph from the `imports` table (`resolved_path` is filled by the resolver
# for imports that point into the repository). Listing every cycle does not scale: twelve
# modules that import each other already hold billions of simple cycles. The question that
# scales is *which files are tangled together*: the **strongly connected components** (every
# file of one reaches every other). In SQL: the reachability closure (`UNION`, not `UNION ALL`,
# so each pair is kept once and the walk ends), then the files that reach each other, grouped.
# The result has at most one row per file, largest component first.

# %%
# %%sql
# WITH RECURSIVE dep AS (
#     SELECT DISTINCT path AS src, resolved_path AS dst
#     FROM imports WHERE resolved_path IS NOT NULL AND resolved_path <> path
# ), reach(src, dst) AS (
#     SELECT src, dst FROM dep
#     UNION
#     SELECT r.src, d.dst FROM reach r JOIN dep d ON d.src = r.dst
# ), component AS (                    -- a file and the smallest file it is tangled with
#     SELECT r.src AS file, least(r.src, min(r.dst)) AS first_file
#     FROM reach r JOIN reach back ON back.src = r.dst AND back.dst = r.src
#     GROUP BY r.src
# )
# SELECT count(*) AS files, first_file, list(file ORDER BY file)[1:6] AS some_files
# FROM component GROUP BY first_file
# ORDER BY files DESC, first_file
# LIMIT 10

# %% [markdown]
# The same from Python, in linear time (Tarjan's algorithm over the same edges):
# `graph.import_cycles` returns a bounded `Page`, largest first, whose `.total` counts the
# components. networkx agrees:

# %%
from workbench import graph
import networkx as nx
cycles = graph.import_cycles(wb.con, limit=10)
print(f"{cycles.total} import cycles (strongly connected components); the largest first:")
for c in cycles:
    print(f"  {c.size:4d} files, {c.edges:5d} imports inside: {', '.join(c.members[:5])}"
          + (" ..." if c.size > 5 else ""))
g = nx.DiGraph(wb.sql("SELECT DISTINCT path, resolved_path FROM imports "
                      "WHERE resolved_path IS NOT NULL AND resolved_path <> path").fetchall())
by_nx = sorted((len(c) for c in nx.strongly_connected_components(g) if len(c) > 1), reverse=True)
assert by_nx == [c.size for c in graph.import_cycles(wb.con, limit=None)]

# %% [markdown]
# The same question at function level: recursion in the call graph, direct (a function
# calling itself) and mutual (a calls b, b calls a), as components of the resolved call edges:

# %%
rec = graph.call_cycles(wb.con, limit=10)
print(f"{rec.total} recursive groups; the {len(rec)} largest:")
pd.DataFrame([{"functions": c.size, "calls inside": c.edges,
               "members": ", ".join(c.members[:4]) + (" ..." if c.size > 4 else "")} for c in rec])

# %% [markdown]
# ## 5. Tokens by directory
#
# With the two token functions registered at the top (`file_tokens`, `count_tokens`):

# %%
# %%sql
# SELECT coalesce(nullif(regexp_extract(f.path, '^(.*)/[^/]*$', 1), ''), '.') AS directory,
#        count(*) AS files,
#        sum(f.line_count) AS lines,
#        sum(file_tokens(f.path)) AS tokens
# FROM files f
# WHERE f.status <> 'skipped'
# GROUP BY directory
# ORDER BY tokens DESC

# %% [markdown]
# What do the signatures alone cost, compared with whole files?

# %%
# %%sql
# SELECT sum(count_tokens(signature)) AS signature_tokens,
#        (SELECT sum(file_tokens(path)) FROM files WHERE status <> 'skipped') AS file_tokens
# FROM symbols WHERE signature IS NOT NULL

# %% [markdown]
# The same figures as a treemap (tokens by directory and file), from the plots module:

# %%
from workbench import plots
plots.token_treemap(wb)

# %% [markdown]
# ## Your turn
#
# * Which files have the most unresolved calls? (`edges.resolution = 'unresolved'`, group by `path`)
# * Which classes have more than 10 methods? (`symbols` joined to itself on `parent_id`)
# * Which public functions are never called from inside the repository? (left join on `dst_id`)
