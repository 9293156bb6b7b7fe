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
#   `sql_engine(wb)` builds the engine over `wb`'s own connection: duckdb-engine refuses to
#   open a second connection to a file this process already has open.

# %%
import workbench
from workbench.notebooks import open_repo, sample_repo
from workbench.notebooks import sql_engine

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
import os
from workbench.views.tokens import get_tokenizer
tokenizer = get_tokenizer()          # cl100k, shipped offline


def file_tokens(path: str) -> int:
    """Tokens of one repository file (read from disk, decoded as UTF-8 with replacement)."""
    with open(os.path.join(wb.root, path), "rb") as fh:
        return tokenizer.count(fh.read().decode("utf-8", "replace"))


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
# for imports that point into the repository), then a recursive query that walks it and keeps
# the paths that come back to their start. `list_contains` stops a walk at a repeated file.

# %%
# %%sql
# WITH RECURSIVE dep AS (
#     SELECT DISTINCT path AS src, resolved_path AS dst
#     FROM imports WHERE resolved_path IS NOT NULL AND resolved_path <> path
# ), walk(start, here, trail) AS (
#     SELECT src, dst, [src, dst] FROM dep
#     UNION ALL
#     SELECT w.start, d.dst, list_append(w.trail, d.dst)
#     FROM walk w JOIN dep d ON d.src = w.here
#     WHERE NOT list_contains(w.trail[2:], d.dst) AND len(w.trail) < 8
# )
# SELECT DISTINCT array_to_string(trail, ' -> ') AS cycle
# FROM walk
# WHERE here = start AND start = list_min(trail)   -- each cycle once, from its smallest file
# ORDER BY cycle

# %% [markdown]
# The same question at function level: mutual recursion in the call graph (a calls b, b calls a).

# %%
# %%sql
# SELECT DISTINCT a.qualname AS one, b.qualname AS other
# FROM edges e1
# JOIN edges e2 ON e2.src_id = e1.dst_id AND e2.dst_id = e1.src_id
# JOIN symbols a ON a.symbol_id = e1.src_id
# JOIN symbols b ON b.symbol_id = e1.dst_id
# WHERE e1.kind = 'calls' AND e2.kind = 'calls' AND a.qualname <= b.qualname
# ORDER BY one

# %% [markdown]
# Cross-check with networkx, fed by one `wb.sql` query:

# %%
import networkx as nx
g = nx.DiGraph(wb.sql("SELECT DISTINCT path, resolved_path FROM imports "
                      "WHERE resolved_path IS NOT NULL AND resolved_path <> path").fetchall())
sorted(sorted(c) for c in nx.simple_cycles(g))

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
