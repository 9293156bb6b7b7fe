# %% [markdown]
# # 02 · Call chains
#
# **What this notebook is for:** following calls through a repository on a graph instead of
# with grep. Pick a function, choose callers, callees or both and a depth, and see the chain
# drawn (nodes coloured by file or module, unresolved calls in red, never guessed), the call
# sites as a table, and the text an agent would receive from `trace_call_chain`. Then see why
# a graph finds the aliased caller that grep misses.
#
# **Parameters:** `REPO` (default: the bundled `pyshop` sample), `SYMBOL` (default: the
# function with the most resolved calls in and out) and `DEPTH`.

# %%
import workbench
from workbench.notebooks import open_repo, sample_repo, show_missing_as_empty
from workbench import graph, views
from workbench.widgets import CallChainExplorer
import pandas as pd
show_missing_as_empty()      # missing values show as empty cells, not NaN

# %% tags=["parameters"]
REPO = sample_repo("pyshop")   # the repository to study: any local folder
DB = None                      # its DuckDB file; None = one cache file per repository
SYMBOL = None                  # qualified name to start from; None = the best connected function
DEPTH = 3                      # levels of calls to follow

# %%
wb = open_repo(REPO, DB)
if SYMBOL is None:
    SYMBOL = wb.sql("""
        SELECT s.qualname
        FROM symbols s JOIN edges e ON e.kind = 'calls' AND e.dst_id IS NOT NULL
                                    AND (e.src_id = s.symbol_id OR e.dst_id = s.symbol_id)
        WHERE s.kind IN ('function', 'method')
        GROUP BY s.qualname ORDER BY count(*) DESC, s.qualname LIMIT 1""").fetchall()[0][0]
print(wb, "\nstarting from", SYMBOL)

# %% [markdown]
# ## 1. The explorer
#
# Type a symbol (completion lists the most called first), pick a direction and a depth. The
# chain is drawn in layers: callers to the left, callees to the right of the starting node
# (the big one), one column per call depth, each column ordered to limit crossings. Labels
# are qualified (`Order.__init__`, never a bare `__init__`). Red crosses are calls the resolver
# could not bind to a definition in the repository (a dynamic `getattr`, a method on an unknown
# object): they stay visible as such. Choosing a *node* shows its region as `read_region`
# returns it.
#
# On a real repository a chain of depth 3 easily reaches a few hundred functions. Two things
# keep it readable: *collapse* draws the members of a class (squares) or of a file (diamonds)
# as one node, and the *node cap* folds the farthest, least connected nodes into one
# "+N more" node per column. With *auto*, members collapse only when the chain is over the
# cap. Click a group's **expand** button under the graph to draw it member by member, and
# **draw more** to raise the cap.

# %%
cc = CallChainExplorer(wb, SYMBOL, direction="both", depth=DEPTH)
cc

# %% [markdown]
# Everything on screen is an attribute: the chain edges (`graph.ChainEdge`), the unresolved
# call sites, the networkx graph and the plotly figure.

# %%
sites = cc.call_site_rows()
print(f"{len(sites)} call sites on the chain; the first 20:")
pd.DataFrame(sites).head(20)

# %% [markdown]
# ## 2. The same from code
#
# `workbench.graph` answers with plain values; `workbench.views.graph_tools` formats them as the
# text an agent receives (with its token count).

# %%
chain = graph.trace_call_chain(wb.con, SYMBOL, depth=2, direction="down")
pd.DataFrame([e.as_dict() for e in chain])

# %%
views.call(wb, "trace_call_chain", {"symbol": SYMBOL, "depth": 2, "direction": "down"})

# %%
views.call(wb, "find_callers", {"symbol": SYMBOL})

# %% [markdown]
# And in SQL: the workbench connection has table macros of the same names,
# `find_callers(q)`, `find_callees(q)`, `find_definition(name)` and
# `trace_call_chain(q, depth, direction)`, stored in the database file, so `wb.sql`,
# `workbench sql DB ...` and `%%sql` all see them.

# %%
wb.sql("SELECT * FROM trace_call_chain(?, 2)", [SYMBOL]).df()

# %% [markdown]
# ## 3. Why a graph finds the caller grep misses
#
# Grep looks for the text `name(`. Code also calls a function through an alias
# (`from shop import compute_total as ct` ... `ct(...)`), through a re-export
# (`shop.util.total_price`), as a method on an object, or passes it around. The resolver binds
# those call sites to the definition; grep cannot.
#
# Below: for the functions with the most callers, the call sites grep finds versus the ones the
# graph finds, and the ones only the graph finds.

# %%
import os, re

def grep_sites(name):
    """Lines containing `name(` in the repository's indexed files (what grep would show)."""
    hits = set()
    pat = re.compile(r"\b" + re.escape(name) + r"\s*\(")
    for (path,) in wb.sql("SELECT path FROM files WHERE status IN ('ok', 'partial')").fetchall():
        with open(os.path.join(wb.root, path), encoding="utf-8", errors="replace") as fh:
            for i, line in enumerate(fh, 1):
                if pat.search(line):
                    hits.add((path, i))
    return hits

top = wb.sql("""
    SELECT d.qualname, d.name, d.path, d.start_line, d.kind
    FROM edges e JOIN symbols d ON d.symbol_id = e.dst_id
    WHERE e.kind = 'calls' AND d.kind = 'function'   -- methods: called as obj.name(...), constructors as Class(...)
    GROUP BY ALL ORDER BY count(*) DESC, d.qualname LIMIT 8""").fetchall()
rows = []
for qual, name, path, start, kind in top:
    sites = {(c.path, c.line): c.resolution for c in graph.find_callers(wb.con, qual)}
    grep = grep_sites(name) - {(path, start)}
    missed = {k: v for k, v in sites.items() if k not in grep}
    rows.append({"function": qual, "graph call sites": len(sites), "grep hits": len(grep),
                 "only the graph finds": len(missed),
                 "how they were bound": ", ".join(sorted(set(missed.values())))})
pd.DataFrame(rows)

# %% [markdown]
# Grep also over-counts: a same-named function elsewhere (`shop.util.legacy.compute_total` in
# `pyshop`) matches the pattern too, while the graph tells them apart.
#
# ## 4. How sure is the graph?
#
# Every call edge says how it was bound. `unresolved` and `ambiguous` are the honest answer
# for dynamic code; `external` and `builtin` leave the repository.

# %%
import plotly.express as px
res = wb.sql("SELECT resolution, count(*) AS calls FROM edges WHERE kind = 'calls' GROUP BY 1 ORDER BY 2 DESC").df()
px.bar(res, x="resolution", y="calls", title="Call edges by resolution")

# %% [markdown]
# ## Try
#
# * Set the explorer to *callers* of a function in a `util` module: who depends on it?
# * Increase the depth until a `(cycle)` appears in the table: which functions recurse?
# * Switch *colour by* to *module / directory*: does the chain stay inside one package?
# * Set *collapse* to *file*, then expand the biggest file: which of its functions are on the chain?
