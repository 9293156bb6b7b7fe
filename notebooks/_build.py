"""Write the notebooks of this folder from the cell sources below (no outputs, stable ids).

    .venv/bin/python notebooks/_build.py          # rewrite every notebook
    .venv/bin/python notebooks/_build.py --check  # exit 1 if a notebook differs from this file

Edit the notebooks here, not in JupyterLab: a notebook saved from JupyterLab carries outputs
and execution counts, and the test suite checks that the committed files have none.
"""
from __future__ import annotations

import sys
from pathlib import Path

import nbformat

HERE = Path(__file__).resolve().parent

SETUP = '''\
import workbench
from workbench.notebooks import open_repo, sample_repo'''


def md(src: str):
    return ("markdown", src.strip("\n"), [])


def code(src: str):
    return ("code", src.strip("\n"), [])


def params(src: str):
    """The cell tagged ``parameters``: `python -m workbench.notebooks --repo ...` overrides it."""
    return ("code", src.strip("\n"), ["parameters"])


def build(name: str, cells: list) -> nbformat.NotebookNode:
    nb = nbformat.v4.new_notebook()
    nb.metadata = {
        "kernelspec": {"name": "python3", "display_name": "Python 3 (ipykernel)", "language": "python"},
        "language_info": {"name": "python"},
    }
    for i, (kind, src, tags) in enumerate(cells):
        meta = {"tags": tags} if tags else {}
        if kind == "markdown":
            cell = nbformat.v4.new_markdown_cell(src, metadata=meta)
        else:
            cell = nbformat.v4.new_code_cell(src, metadata=meta)
        cell["id"] = f"{name[:2]}-{i:02d}"
        nb.cells.append(cell)
    return nb


# --------------------------------------------------------------------------------------------
NOTEBOOKS: dict[str, list] = {}


def notebook(name):
    def deco(fn):
        NOTEBOOKS[name] = fn
        return fn
    return deco


# NOTEBOOK SOURCES

OUTLINE_FIRST = """\
from workbench.views import outline
from workbench.views.tokens import count_tokens

# the source file with the most definitions
PATH = wb.sql(\"\"\"
    SELECT path FROM symbols WHERE kind <> 'module'
    GROUP BY path ORDER BY count(*) DESC, path LIMIT 1\"\"\").fetchall()[0][0]
first = outline(wb, PATH)
with open(f"{wb.root}/{PATH}", encoding="utf-8", errors="replace") as fh:
    whole = count_tokens(fh.read())
print(f"{PATH}: outline {first.tokens} tokens, whole file {whole} tokens "
      f"({first.tokens / whole:.0%})")
first          # a Response renders itself: the exact text, then its token count"""

TOKENS_UDF = """\
from workbench.safeio import read_beneath
from workbench.views.tokens import get_tokenizer
tokenizer = get_tokenizer()          # cl100k, shipped offline


def file_tokens(path: str) -> int:
    \"\"\"Tokens of one repository file (read from disk, decoded as UTF-8 with replacement;
    read_beneath follows no link out of the repository and never blocks on a FIFO).\"\"\"
    return tokenizer.count(read_beneath(wb.root, path, 16 << 20).decode("utf-8", "replace"))


for name, fn in [("file_tokens", file_tokens), ("count_tokens", tokenizer.count)]:
    try:                             # re-running the cell replaces the functions
        wb.con.remove_function(name)
    except Exception:
        pass
    wb.con.create_function(name, fn, ["VARCHAR"], "BIGINT")"""


@notebook("00_tour")
def tour():
    return [
        md('''
# 00 · Tour of Context Workbench

**What this notebook is for:** a first walk through the workbench. It indexes one repository
with tree-sitter into DuckDB, shows the four tables (`files`, `symbols`, `edges`, `imports`),
runs a first SQL query, renders a first outline (the *map* an AI coding agent reads before it
opens a file), and points you to the other notebooks.

**Parameter:** `REPO`, the repository to study (default: the bundled Python sample `pyshop`).
Change the cell below, or run headless with
`python -m workbench.notebooks 00_tour --repo PATH`.
'''),
        code(SETUP),
        params('''
REPO = sample_repo("pyshop")   # the repository to study: any local folder
DB = None                      # its DuckDB file; None = one cache file per repository
'''),
        md('''
## 1. Index

`open_repo` calls `workbench.index(REPO, db=...)`: scan (ignore rules, binary and size checks),
parse every file with tree-sitter, extract symbols/edges/imports, store them in one DuckDB
transaction, resolve calls. Re-running it re-parses only changed files.
'''),
        code('''
wb = open_repo(REPO, DB)
print(wb.report)
from workbench.stats import format_stats
print(format_stats(wb.stats()))
'''),
        md('''
## 2. The tables

The database is the API: every view in the workbench is a query over these tables, and you
can run the same queries yourself. Line numbers are 1-based and inclusive; paths are
repository-relative.
'''),
        code('''
wb.files.project("path, language, line_count, size_bytes, status").order("path").df()
'''),
        code('''
wb.symbols.filter("kind <> 'module'").order("path, start_line") \\
    .project("kind, qualname, start_line, end_line, signature, doc").limit(15).df()
'''),
        md('''
`edges` holds `contains`, `calls`, `imports` and `inherits` relations. A call keeps the name as
written (`dst_name`) and, when the resolver could bind it, the target (`dst_id`,
`dst_qualname`) plus *how* it was bound (`resolution`). Unresolved calls stay visible as such.
'''),
        code('''
wb.sql("""
    SELECT kind, resolution, count(*) AS n
    FROM edges GROUP BY ALL ORDER BY kind, n DESC
""").df()
'''),
        md('''
## 3. A first SQL question

Which functions are the biggest, and do they have a docstring? (More recipes in
`04_sql_over_code`.)
'''),
        code('''
wb.sql("""
    SELECT qualname, path, end_line - start_line + 1 AS lines, doc IS NOT NULL AS documented
    FROM symbols
    WHERE kind IN ('function', 'method')
    ORDER BY lines DESC
    LIMIT 8
""").df()
'''),
        md('''
## 4. A first outline

An outline lists a file's definitions with line ranges, signatures and the first line of
their docs. An agent reads it first, then asks for exactly the region it needs. The text
below is produced by the same function an agent-facing tool would call, and the token counts
use a real BPE tokenizer.
'''),
        code(OUTLINE_FIRST),
        md('''
## 5. Where the tokens are

Tokens by directory and file (click a box to zoom in). Whole-file reading costs scale with
these numbers; outlines do not.
'''),
        code('''
from workbench import plots
plots.token_treemap(wb)
'''),
        md('''
## Next

* `01_outline_lab`: outline formats and options, rule sets side by side.
* `02_call_chains`: callers and callees on a graph, with the call sites.
* `03_agent_preview`: a sequence of agent tool calls against a context window.
* `04_sql_over_code`: a SQL cookbook over the tables.
* `05_context_engineering`: the teaching notebook, on real standard-library code.
'''),
    ]


@notebook("01_outline_lab")
def outline_lab():
    return [
        md('''
# 01 · Outline lab

**What this notebook is for:** tuning what an agent sees *before* it reads code. Pick a file,
switch the outline format (markdown, json, tags, stub, prose) and the rules (docs, imports,
private members, children per class, depth...) and watch the exact text and its token count
change next to the whole file's. Then compare two rule sets on the same tool call, and look
at outline savings and the reading strategies across the whole repository.

**Parameters:** `REPO` (default: the bundled `pyshop` sample) and `PATH`, the file to start on
(`None`: the file with the most definitions).
'''),
        code(SETUP + "\nfrom workbench.views import FORMATS, Rules, outline\nfrom workbench.widgets import OutlineBrowser, RuleComparison\nfrom workbench import plots"),
        params('''
REPO = sample_repo("pyshop")   # the repository to study: any local folder
DB = None                      # its DuckDB file; None = one cache file per repository
PATH = None                    # file to start on; None = the one with the most definitions
SMALL = False                  # True: the repository-wide plots use at most 40 files
'''),
        code('''
wb = open_repo(REPO, DB)
if PATH is None:
    PATH = wb.sql("""SELECT path FROM symbols WHERE kind <> 'module'
                     GROUP BY path ORDER BY count(*) DESC, path LIMIT 1""").fetchall()[0][0]
print(wb, "\\nstarting on", PATH)
'''),
        md('''
## 1. The outline browser

Left: the files that have definitions (type in *search* to filter by path or by a symbol
name). Right: the outline exactly as the `read_outline` tool would send it, its token count
next to the whole file's, and the rule controls. Choosing a *symbol* shows its region as
`read_region` returns it. Sliders at 0 mean "no limit".
'''),
        code('''
ob = OutlineBrowser(wb, PATH)
ob
'''),
        md('''
The widget is plain Python: everything it shows is an attribute, and setting a control from
code updates it just like a click. `ob.response` is the `Response` of
`workbench.views.outline(wb, path, rules)`.
'''),
        code('''
ob.format.value = "tags"
print(ob.rules.format, ob.response.tokens, "tokens")
print(ob.text[:400])
ob.format.value = "markdown"
'''),
        md('''
## 2. One file, every format

Same file, same rules, five encodings. Indented markdown is what models read best
according to the field write-ups; JSON is for programs; tags are dense; stubs look like the
language; prose is short sentences.
'''),
        code('''
import pandas as pd
rows = []
for fmt in FORMATS:
    r = outline(wb, PATH, Rules(format=fmt))
    rows.append({"format": fmt, "tokens": r.tokens, "chars": r.chars,
                 "first line": r.text.splitlines()[0] if r.text else ""})
pd.DataFrame(rows)
'''),
        md('''
## 3. Two rule sets side by side

The same tool call under rule set A and rule set B: both texts exactly as sent, a line diff,
and the token and cost delta per call (prices from `workbench/pricing.toml`). Edit the rules
as `name=value` lines; switch the tool to `resolve_symbol`, `read_region`, `repo_map`...
with its arguments.
'''),
        code('''
rc = RuleComparison(wb, "read_outline", {"path": PATH},
                    left=Rules(),
                    right=Rules(docs=False, private=False, max_children=15))
rc
'''),
        code('''
rc.comparison          # the views' Comparison object: a.tokens, b.tokens, delta
'''),
        md('''
## 4. Outline versus whole file, every file

One point per source file: the outline's tokens as a share of the whole file's. Small files
gain little (an outline of a 20-line file is nearly as long as the file); large files gain
most, which is where agents overflow their context.
'''),
        code('''
paths = None
if SMALL:
    paths = [r[0] for r in wb.sql("SELECT DISTINCT path FROM symbols WHERE kind <> 'module' "
                                  "ORDER BY path LIMIT 40").fetchall()]
ratios = plots.outline_vs_file(wb, paths=paths)
plots.outline_ratio(ratios)
'''),
        code('''
ratios.sort_values("tokens", ascending=False).head(10)[["path", "lines", "tokens", "outline_tokens", "ratio"]]
'''),
        md('''
## 5. Reading strategies as distributions

What does it cost an agent to get one function's body? (a) read the whole file; (b) read the
outline, then the region; (c) read a repository map once, then the region (plus the outline
when the function is not on the map). One row per function, from
`workbench.views.strategies.strategy_table`, using the same renderers as the tools.
'''),
        code('''
from workbench.views.strategies import strategy_table, summary
table = strategy_table(wb)
summary(wb.con).df()
'''),
        code('''
plots.strategy_distributions(table)
'''),
        md('''
## Try

* Turn `docs` off in the browser: how many tokens do one-line docs cost in this file? Is the
  file still understandable without them (look at names like `_handle_sync`)?
* Set *max children* to 5 on a big class. What does the "... N more" marker tell an agent?
* In the comparison, set B to `format=json`: which format is cheapest for this file?
'''),
    ]


@notebook("02_call_chains")
def call_chains():
    return [
        md('''
# 02 · Call chains

**What this notebook is for:** following calls through a repository on a graph instead of
with grep. Pick a function, choose callers, callees or both and a depth, and see the chain
drawn (nodes coloured by file or module, unresolved calls in red, never guessed), the call
sites as a table, and the text an agent would receive from `trace_call_chain`. Then see why
a graph finds the aliased caller that grep misses.

**Parameters:** `REPO` (default: the bundled `pyshop` sample), `SYMBOL` (default: the
function with the most resolved calls in and out) and `DEPTH`.
'''),
        code(SETUP + "\nfrom workbench import graph\nfrom workbench.views import tools\nfrom workbench.widgets import CallChainExplorer\nimport pandas as pd"),
        params('''
REPO = sample_repo("pyshop")   # the repository to study: any local folder
DB = None                      # its DuckDB file; None = one cache file per repository
SYMBOL = None                  # qualified name to start from; None = the best connected function
DEPTH = 3                      # levels of calls to follow
'''),
        code('''
wb = open_repo(REPO, DB)
if SYMBOL is None:
    SYMBOL = wb.sql("""
        SELECT s.qualname
        FROM symbols s JOIN edges e ON e.kind = 'calls' AND e.dst_id IS NOT NULL
                                    AND (e.src_id = s.symbol_id OR e.dst_id = s.symbol_id)
        WHERE s.kind IN ('function', 'method')
        GROUP BY s.qualname ORDER BY count(*) DESC, s.qualname LIMIT 1""").fetchall()[0][0]
print(wb, "\\nstarting from", SYMBOL)
'''),
        md('''
## 1. The explorer

Type a symbol (completion lists the most called first), pick a direction and a depth. Callers
are drawn to the left, callees to the right of the starting node (the big one); the layout
is networkx's multipartite layout by call depth. Red crosses are calls the resolver could not
bind to a definition in the repository (a dynamic `getattr`, a method on an unknown object):
they stay visible as such. Choosing a *node* shows its region as `read_region` returns it.
'''),
        code('''
cc = CallChainExplorer(wb, SYMBOL, direction="both", depth=DEPTH)
cc
'''),
        md('''
Everything on screen is an attribute: the chain edges (`graph.ChainEdge`), the unresolved
call sites, the networkx graph and the plotly figure.
'''),
        code('''
pd.DataFrame(cc.call_site_rows()).head(20)
'''),
        md('''
## 2. The same from code

`workbench.graph` answers with plain values; `workbench.views.tools` formats them as the
text an agent receives (with its token count).
'''),
        code('''
chain = graph.trace_call_chain(wb.con, SYMBOL, depth=2, direction="down")
pd.DataFrame([e.as_dict() for e in chain])
'''),
        code('''
tools.call(wb, "trace_call_chain", {"symbol": SYMBOL, "depth": 2, "direction": "down"})
'''),
        code('''
tools.call(wb, "find_callers", {"symbol": SYMBOL})
'''),
        md('''
And in SQL: the workbench connection has table macros `callers(q)`, `callees(q)`,
`call_chain(q, depth)` and `call_chain_up(q, depth)`, stored in the database file, so
`wb.sql`, `workbench sql DB ...` and `%%sql` all see them.
'''),
        code('''
wb.sql("SELECT * FROM call_chain(?, 2)", [SYMBOL]).df()
'''),
        md('''
## 3. Why a graph finds the caller grep misses

Grep looks for the text `name(`. Code also calls a function through an alias
(`from shop import compute_total as ct` ... `ct(...)`), through a re-export
(`shop.util.total_price`), as a method on an object, or passes it around. The resolver binds
those call sites to the definition; grep cannot.

Below: for the functions with the most callers, the call sites grep finds versus the ones the
graph finds, and the ones only the graph finds.
'''),
        code('''
import os, re

def grep_sites(name):
    """Lines containing `name(` in the repository's indexed files (what grep would show)."""
    hits = set()
    pat = re.compile(r"\\b" + re.escape(name) + r"\\s*\\(")
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
'''),
        md('''
Grep also over-counts: a same-named function elsewhere (`shop.util.legacy.compute_total` in
`pyshop`) matches the pattern too, while the graph tells them apart.

## 4. How sure is the graph?

Every call edge says how it was bound. `unresolved` and `ambiguous` are the honest answer
for dynamic code; `external` and `builtin` leave the repository.
'''),
        code('''
import plotly.express as px
res = wb.sql("SELECT resolution, count(*) AS calls FROM edges WHERE kind = 'calls' GROUP BY 1 ORDER BY 2 DESC").df()
px.bar(res, x="resolution", y="calls", title="Call edges by resolution")
'''),
        md('''
## Try

* Set the explorer to *callers* of a function in a `util` module: who depends on it?
* Increase the depth until a `(cycle)` appears in the table: which functions recurse?
* Switch *colour by* to *module / directory*: does the chain stay inside one package?
'''),
    ]


@notebook("03_agent_preview")
def agent_preview():
    return [
        md('''
# 03 · Agent session preview

**What this notebook is for:** previewing what a coding agent's context fills up with.
Write a sequence of tool calls; see each response exactly as the agent gets it, the running
token total against a context window with the point where a budget manager would start
compressing older reads (60% by default), and what the same calls would cost without the
session cache (every repeated read sent again in full).

**Parameters:** `REPO` (default: the bundled `pyshop` sample) and `WINDOW`, the context
window in tokens.
'''),
        code(SETUP + "\nfrom workbench.views import Rules, tools\nfrom workbench.views.session import Session\nfrom workbench.views.pricing import default_pricing\nfrom workbench.widgets import SessionPreview\nimport pandas as pd"),
        params('''
REPO = sample_repo("pyshop")   # the repository to study: any local folder
DB = None                      # its DuckDB file; None = one cache file per repository
WINDOW = 32_000                # context window in tokens (8k ... 1M in the widget)
'''),
        code('''
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
print(wb, "\\n" + "\\n".join(CALLS))
'''),
        md('''
## 1. The preview

Edit the calls (one per line, `tool name=value ...`), or add one with the controls below the
editor. The chart shows the cumulative tokens with the session (repeats answered "already
provided above") and without it (dotted), against the window and the compression point.
Pick a call under *response* to see its text exactly as sent.
'''),
        code('''
sp = SessionPreview(wb, CALLS, context_window=WINDOW)
sp
'''),
        code('''
pd.DataFrame(sp.session.rows())
'''),
        md('''
## 2. The same from code

`Session` is the view the widget runs (twice: once with the rules' `dedupe`, once without).
'''),
        code('''
s = Session(wb, Rules(context_window=WINDOW))
s.call("read_outline", path=PATH)
s.call("resolve_symbol", name=FUNC)
again = s.call("resolve_symbol", name=FUNC)
print(again.text)
s
'''),
        md('''
## 3. Whole files versus outline + regions

Two agents answer the same question about the five biggest source files. One reads every
file whole; the other reads each outline and then only the biggest function in it.
'''),
        code('''
files = wb.sql("""
    SELECT f.path, f.line_count,
           (SELECT max_by([s.start_line, s.end_line], s.end_line - s.start_line) FROM symbols s
             WHERE s.path = f.path AND s.kind IN ('function', 'method')) AS biggest
    FROM files f WHERE f.status = 'ok'
      AND EXISTS (SELECT 1 FROM symbols s WHERE s.path = f.path AND s.kind IN ('function', 'method'))
    ORDER BY f.line_count DESC, f.path LIMIT 5""").fetchall()
whole = Session(wb, Rules(context_window=WINDOW, max_chars=10**9))
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
'''),
        code('''
import plotly.graph_objects as go
fig = go.Figure()
for name, sess in [("whole files", whole), ("outline + region", lean)]:
    fig.add_trace(go.Scatter(x=[0] + [r.turn for r in sess.records],
                             y=[0] + [r.cumulative for r in sess.records], mode="lines+markers", name=name))
fig.add_hline(y=WINDOW * 0.6, line_dash="dash", annotation_text="compress at 60%")
fig.update_layout(title="Cumulative tokens: whole files vs outline + region",
                  xaxis_title="tool call", yaxis_title="tokens", height=380)
fig
'''),
        md('''
## 4. What it costs

Prices per million tokens from `workbench/pricing.toml` (edit it, or load your own with
`Pricing.load(path)`). Cached input is billed separately by providers and is cheaper.
'''),
        code('''
pd.DataFrame(price.table())
'''),
        md('''
## 5. What the agent is told about the tools

The JSON schema of each tool, as a function-calling API would receive it:
'''),
        code('''
import json
print(json.dumps(tools.TOOLS["read_region"].schema, indent=2))
'''),
        md('''
## Try

* Set the window to 8k: at which call would compression start?
* Comment out the second `read_region` (`#` at the start): how much did the repeat cost
  without the session cache?
* Add `read_region` calls of overlapping ranges: when does the session answer "already
  provided"?
'''),
    ]


@notebook("04_sql_over_code")
def sql_cookbook():
    return [
        md('''
# 04 · SQL over code: a cookbook

**What this notebook is for:** questions about a codebase answered as SQL over the workbench
tables. Each recipe is one query you can copy into `workbench sql DB "..."`, into
`wb.sql(...)`, or into a `%%sql` cell.

**Parameter:** `REPO` (default: the bundled `pyshop` sample).

Two ways to run SQL here, both on the same DuckDB connection:

* **`wb.sql("...")`** returns a DuckDB relation: `.df()` for pandas, `.show()` for text,
  `.fetchall()` for tuples. Parameters: `wb.sql("... WHERE kind = ?", ["class"])`.
  Best when the result feeds Python (plots, further filtering).
* **`%%sql`** (jupysql on a duckdb-engine SQLAlchemy engine) makes the cell pure SQL, with
  `{{var}}` templating and `<<` to save a result. Best when reading and teaching.
  `sql_engine(wb)` builds the engine over `wb`'s own connection: duckdb-engine refuses to
  open a second connection to a file this process already has open.
'''),
        code(SETUP + "\nfrom workbench.notebooks import sql_engine"),
        params('''
REPO = sample_repo("pyshop")   # the repository to study: any local folder
DB = None                      # its DuckDB file; None = one cache file per repository
'''),
        code('''
wb = open_repo(REPO, DB)
print(wb)
'''),
        md('''
### Two SQL functions for token counts

Token counts are not stored: they depend on the tokenizer. Two Python functions registered
as SQL functions bring the workbench's tokenizer (cl100k BPE) into SQL: `file_tokens(path)`
counts a repository file, `count_tokens(text)` any text (e.g. a signature). Register them
before creating the `%%sql` engine: connections opened earlier do not see functions added
later.
'''),
        code(TOKENS_UDF),
        md('''
### Setting up `%%sql`

`PLOOMBER_STATS_ENABLED=false` turns off jupysql's usage telemetry.
'''),
        code('''
import os
os.environ.setdefault("PLOOMBER_STATS_ENABLED", "false")
os.environ.setdefault("PLOOMBER_VERSION_CHECK_DISABLED", "true")
%load_ext sql
%config SqlMagic.displaylimit = 20
%config SqlMagic.displaycon = False
engine = sql_engine(wb)
%sql engine --alias wb
'''),
        md('''
## 1. The biggest functions

Length in lines straight from the symbol ranges. `start_line` includes decorators, so the
range is exactly what an edit would need to read.
'''),
        code('''
%%sql
SELECT qualname, path, start_line, end_line, end_line - start_line + 1 AS lines
FROM symbols
WHERE kind IN ('function', 'method')
ORDER BY lines DESC
LIMIT 10
'''),
        md('''
The same with `wb.sql`, kept as a DataFrame for a plot:
'''),
        code('''
big = wb.sql("""
    SELECT qualname, end_line - start_line + 1 AS lines
    FROM symbols WHERE kind IN ('function', 'method')
    ORDER BY lines DESC LIMIT 10
""").df()
import plotly.express as px
px.bar(big, x="lines", y="qualname", orientation="h", title="Biggest functions (lines)")
'''),
        md('''
## 2. Undocumented public API

Public classes, functions and methods without a doc line. (`visibility` follows each
language's convention: a leading underscore in Python, `export` in TypeScript, capitalised
names in Go, `pub` in Rust, modifiers in Java.)
'''),
        code('''
%%sql
SELECT kind, qualname, path, start_line
FROM symbols
WHERE visibility = 'public'
  AND kind IN ('class', 'function', 'method', 'interface', 'struct', 'trait', 'enum')
  AND doc IS NULL
  AND NOT starts_with(path, 'test')
ORDER BY path, start_line
'''),
        md('''
## 3. Fan-in and fan-out

Fan-in: how many call sites reach a function (only *resolved* calls have a `dst_id`).
Fan-out: how many distinct names a function calls. High fan-in means a change is risky;
high fan-out means a function is hard to understand from its own body alone.
'''),
        code('''
%%sql
SELECT s.qualname, count(*) AS call_sites, count(DISTINCT e.src_id) AS calling_functions
FROM edges e JOIN symbols s ON s.symbol_id = e.dst_id
WHERE e.kind = 'calls'
GROUP BY s.qualname
ORDER BY call_sites DESC
LIMIT 10
'''),
        code('''
%%sql
SELECT s.qualname,
       count(DISTINCT e.dst_name) AS distinct_callees,
       count(*) FILTER (WHERE e.dst_id IS NULL) AS unresolved_calls
FROM edges e JOIN symbols s ON s.symbol_id = e.src_id
WHERE e.kind = 'calls' AND s.kind <> 'module'
GROUP BY s.qualname
ORDER BY distinct_callees DESC
LIMIT 10
'''),
        md('''
How sure is the graph? Every call edge says how it was bound; `unresolved` is never silently
guessed away.
'''),
        code('''
wb.sql("SELECT resolution, count(*) AS calls FROM edges WHERE kind = 'calls' "
       "GROUP BY 1 ORDER BY 2 DESC").df()
'''),
        md('''
## 4. Import cycles

A file-level import graph from the `imports` table (`resolved_path` is filled by the resolver
for imports that point into the repository), then a recursive query that walks it and keeps
the paths that come back to their start. `list_contains` stops a walk at a repeated file.
'''),
        code('''
%%sql
WITH RECURSIVE dep AS (
    SELECT DISTINCT path AS src, resolved_path AS dst
    FROM imports WHERE resolved_path IS NOT NULL AND resolved_path <> path
), walk(start, here, trail) AS (
    SELECT src, dst, [src, dst] FROM dep
    UNION ALL
    SELECT w.start, d.dst, list_append(w.trail, d.dst)
    FROM walk w JOIN dep d ON d.src = w.here
    WHERE NOT list_contains(w.trail[2:], d.dst) AND len(w.trail) < 8
)
SELECT DISTINCT array_to_string(trail, ' -> ') AS cycle
FROM walk
WHERE here = start AND start = list_min(trail)   -- each cycle once, from its smallest file
ORDER BY cycle
'''),
        md('''
The same question at function level: mutual recursion in the call graph (a calls b, b calls a).
'''),
        code('''
%%sql
SELECT DISTINCT a.qualname AS one, b.qualname AS other
FROM edges e1
JOIN edges e2 ON e2.src_id = e1.dst_id AND e2.dst_id = e1.src_id
JOIN symbols a ON a.symbol_id = e1.src_id
JOIN symbols b ON b.symbol_id = e1.dst_id
WHERE e1.kind = 'calls' AND e2.kind = 'calls' AND a.qualname <= b.qualname
ORDER BY one
'''),
        md('''
Cross-check with networkx, fed by one `wb.sql` query:
'''),
        code('''
import networkx as nx
g = nx.DiGraph(wb.sql("SELECT DISTINCT path, resolved_path FROM imports "
                      "WHERE resolved_path IS NOT NULL AND resolved_path <> path").fetchall())
sorted(sorted(c) for c in nx.simple_cycles(g))
'''),
        md('''
## 5. Tokens by directory

With the two token functions registered at the top (`file_tokens`, `count_tokens`):
'''),
        code('''
%%sql
SELECT coalesce(nullif(regexp_extract(f.path, '^(.*)/[^/]*$', 1), ''), '.') AS directory,
       count(*) AS files,
       sum(f.line_count) AS lines,
       sum(file_tokens(f.path)) AS tokens
FROM files f
WHERE f.status <> 'skipped'
GROUP BY directory
ORDER BY tokens DESC
'''),
        md('''
What do the signatures alone cost, compared with whole files?
'''),
        code('''
%%sql
SELECT sum(count_tokens(signature)) AS signature_tokens,
       (SELECT sum(file_tokens(path)) FROM files WHERE status <> 'skipped') AS file_tokens
FROM symbols WHERE signature IS NOT NULL
'''),
        md('''
The same figures as a treemap (tokens by directory and file), from the plots module:
'''),
        code('''
from workbench import plots
plots.token_treemap(wb)
'''),
        md('''
## Your turn

* Which files have the most unresolved calls? (`edges.resolution = 'unresolved'`, group by `path`)
* Which classes have more than 10 methods? (`symbols` joined to itself on `parent_id`)
* Which public functions are never called from inside the repository? (left join on `dst_id`)
'''),
    ]


@notebook("05_context_engineering")
def context_engineering():
    return [
        md('''
# 05 · Context engineering, with real numbers

**What this notebook is for:** teaching why *how* an AI coding agent reads code matters as
much as *what* it reads. It works on real code, the Python standard library of this
interpreter, and measures four things with a real BPE tokenizer (cl100k):

1. whole file versus outline: the token math;
2. "read the first N lines": how cutting a file loses a signature the agent never knows it missed;
3. budgets: how fast a context window fills, and where a budget manager starts compressing;
4. why a call graph finds the aliased caller that grep misses.

Each part ends with a small exercise; the answer is the code cell right after it (try first,
then run it). The figures quoted from practitioner write-ups are *their* claims, used as
talking points; the numbers in the outputs are measured here.

**Parameters:** `REPO` (default: the standard library; with `SMALL=True`, a copy of the few
modules the lessons use), `N_LINES` (where the naive reader cuts) and `WINDOW`.
'''),
        code(SETUP + '''
from workbench.notebooks import stdlib_root, stdlib_sample
from workbench.views import Rules, outline, tools
from workbench.views.session import Session
from workbench.views.tokens import count_tokens
from workbench.views.pricing import default_pricing
import pandas as pd'''),
        params('''
REPO = None          # None = the standard library (a copy of LESSON_FILES when SMALL)
DB = None            # its DuckDB file; None = one cache file per repository
SMALL = False        # True: index only LESSON_FILES (seconds instead of a minute; tests set it)
N_LINES = 300        # the naive reader's cut: "read the first N lines"
WINDOW = 128_000     # context window in tokens
'''),
        code('''
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
'''),
        md('''
## 1. Whole file versus outline

The write-ups report that in a ~2,000-line class the 60-100 lines that matter cost the same
as the 18k-25k tokens of the whole file, and that an outline of a few-hundred-line file is
roughly 200-300 tokens. Let us measure on the standard library.
'''),
        code('''
rows = []
for path in LESSON_FILES:
    o = outline(wb, path)
    w = whole_tokens(path)
    lines = wb.sql("SELECT line_count FROM files WHERE path = ?", [path]).fetchall()[0][0]
    rows.append({"file": path, "lines": lines, "whole file": w, "outline": o.tokens,
                 "outline / file": round(o.tokens / w, 3), "files per outline": round(w / o.tokens, 1)})
math = pd.DataFrame(rows).sort_values("lines", ascending=False)
math
'''),
        md('''
The outline is a map: names, signatures, line ranges and one-line docs. Here is the start of
the map of `argparse.py` an agent would get from `read_outline`:
'''),
        code('''
print("\\n".join(outline(wb, "argparse.py").text.splitlines()[:25]))
'''),
        md('''
With the map, the agent reads exactly one region. Reading `ArgumentParser.parse_known_args`
through the outline costs the outline plus that method, instead of the whole file:
'''),
        code('''
target = wb.sql("""SELECT qualname, start_line, end_line FROM symbols
                   WHERE path = 'argparse.py' AND name = 'parse_known_args'""").fetchall()[0]
region = tools.call(wb, "read_region", {"path": "argparse.py", "start_line": target[1], "end_line": target[2]})
o = outline(wb, "argparse.py")
print(f"{target[0]} lines {target[1]}-{target[2]}")
print(f"whole file: {whole_tokens('argparse.py'):,} tokens")
print(f"outline + region: {o.tokens:,} + {region.tokens:,} = {o.tokens + region.tokens:,} tokens")
'''),
        md('''
**Exercise 1.** Which of the lesson files gains the *least* from an outline (highest
outline / file ratio), and why might that be? (Hint: look at its size and at what it
contains.)
'''),
        code('''
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
'''),
        md(f'''
## 2. Cutting at N lines loses signatures, silently

A common shortcut is "read the first N lines". The agent then reasons about a file it has
only partly seen, and nothing tells it what is missing. Which definitions does it never see,
and which does it see cut in the middle?
'''),
        code('''
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
'''),
        md('''
What the naive reader actually gets for `argparse.py`: the last lines before the cut. The
text simply stops; nothing says that `ArgumentParser` and its `parse_args` exist further
down.
'''),
        code('''
naive = tools.call(wb, "read_region", {"path": "argparse.py", "start_line": 1, "end_line": N_LINES},
                   rules=Rules(max_chars=10**9))
print("\\n".join(naive.text.splitlines()[-6:]))
print(f"\\n[{naive.tokens:,} tokens]  'parse_args' in the text: {'def parse_args' in naive.text}")
'''),
        md('''
The workbench's own `read_region` has a per-response cap too (6,000 characters by default),
but it cuts at a whole line and *says so*, with the range to ask for next: the agent knows
what it has not seen.
'''),
        code('''
capped = tools.call(wb, "read_region", {"path": "argparse.py", "start_line": 1, "end_line": 2000})
print("...\\n" + "\\n".join(capped.text.splitlines()[-3:]))
'''),
        md('''
**Exercise 2.** With `N_LINES`, how many public methods of the class `ArgumentParser` can the
naive reader not see at all? Write the SQL.
'''),
        code('''
# Answer
hidden = wb.sql("""
    SELECT m.name, m.start_line FROM symbols m JOIN symbols c ON c.symbol_id = m.parent_id
    WHERE c.qualname = 'argparse.ArgumentParser' AND m.kind = 'method'
      AND m.visibility = 'public' AND m.start_line > ?
    ORDER BY m.start_line""", [N_LINES]).fetchall()
print(len(hidden), "public methods of ArgumentParser start after line", N_LINES, ":",
      ", ".join(name for name, _ in hidden))
'''),
        md('''
## 3. Budgets: how fast the window fills

A session accumulates: every response stays in the context. The path-context write-up
recommends that a budget manager start compressing older reads at about 60% of the window,
leaving room for the answer. Two agents read the lesson files, biggest first: one whole
files, one the outline plus the biggest function of each file. When does each cross 60%?
'''),
        code('''
whole = Session(wb, Rules(context_window=WINDOW, max_chars=10**9))
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
'''),
        code('''
import plotly.graph_objects as go
fig = go.Figure()
for name, s in [("whole files", whole), ("outline + region", lean)]:
    fig.add_trace(go.Scatter(x=[0] + [r.turn for r in s.records], y=[0] + [r.cumulative for r in s.records],
                             mode="lines+markers", name=name))
fig.add_hline(y=WINDOW, annotation_text="window")
fig.add_hline(y=limit, line_dash="dash", annotation_text="compress at 60%")
fig.update_layout(title="Context used, call by call", xaxis_title="tool call", yaxis_title="tokens", height=380)
fig
'''),
        md('''
Repeats cost too: the same region read twice is sent twice unless the session remembers it.
The session answers "already provided above" for content it sent and that has not changed.
'''),
        code('''
s = Session(wb)
first = s.call("resolve_symbol", name="argparse.ArgumentParser.parse_known_args")
again = s.call("resolve_symbol", name="argparse.ArgumentParser.parse_known_args")
print(f"first read {first.tokens:,} tokens, repeat {again.tokens:,} tokens: {again.text}")
'''),
        md('''
**Exercise 3.** With a 32,000-token window and compression at 60%, how many *whole* reads of
`argparse.py` fit before compression must start? How many *outlines* of it?
'''),
        code('''
# Answer
budget = int(32_000 * 0.6)
w, o = whole_tokens("argparse.py"), outline(wb, "argparse.py").tokens
print(f"budget {budget:,} tokens: {budget // w} whole reads ({w:,} tokens each), "
      f"{budget // o} outlines ({o:,} tokens each)")
'''),
        md('''
## 4. Why a graph finds the aliased caller that grep misses

The code-graph write-up tells of a rename that "succeeded" after grep found four call sites;
the fifth, reached through a re-export under another name, broke CI. Grep searches text; the
resolver binds names through imports, aliases and re-exports.

The bundled `pyshop` sample is built to show it: `shop.pricing.compute_total` is re-exported
by `shop/__init__.py` and, renamed `total_price`, by `shop/util/__init__.py`; `shop/orders.py`
calls it as `ct(...)`.
'''),
        code('''
import os, re
from workbench import graph

shop = open_repo(sample_repo("pyshop"), None if DB is None else DB + ".pyshop")
pat = re.compile(r"\\bcompute_total\\s*\\(")
grep_hits = []
for (path,) in shop.sql("SELECT path FROM files WHERE language = 'python'").fetchall():
    with open(os.path.join(shop.root, path), encoding="utf-8") as fh:
        grep_hits += [(path, i) for i, line in enumerate(fh, 1) if pat.search(line)]
callers = graph.find_callers(shop.con, "shop.pricing.compute_total")
print("grep 'compute_total(':", grep_hits)
pd.DataFrame([{"caller": c.caller, "call site": f"{c.path}:{c.line}", "written as": c.as_written,
               "resolution": c.resolution, "grep finds it": (c.path, c.line) in grep_hits} for c in callers])
'''),
        md('''
Grep also finds a *different* `compute_total` (`shop/util/legacy.py`) and the definition
itself; the graph tells them apart. In the repository studied above, how every call edge was
bound (`alias` and `reexport` are the calls a grep for the definition's name would miss;
`unresolved` and `ambiguous` are where the graph honestly does not know):
'''),
        code('''
wb.sql("""SELECT resolution, count(*) AS calls FROM edges WHERE kind = 'calls'
          GROUP BY 1 ORDER BY 2 DESC""").df()
'''),
        md('''
**Exercise 4.** In `pyshop`, list the callers of `shop.pricing.compute_total` that a rename
relying on `grep "compute_total("` would have broken, with how the resolver bound each.
'''),
        code('''
# Answer
missed = [(c.caller, f"{c.path}:{c.line}", c.as_written, c.resolution)
          for c in callers if (c.path, c.line) not in grep_hits]
for m in missed:
    print(*m)
assert missed, "the aliased and re-exported callers are invisible to grep"
'''),
        md('''
## What to take away

* Give the agent a map first (outline, call graph, pruned tree), then exactly the region.
* Never cut silently: a cap must say what was left out and how to get it.
* Count tokens per session, not per call; compress before the window is full; do not resend
  what the agent already has.
* Use the graph to find *where*, then read the file before editing: the graph says where to
  look, the file is the ground truth.
'''),
    ]


def main(argv=None) -> int:
    argv = sys.argv[1:] if argv is None else argv
    check = "--check" in argv
    stale = []
    for name, fn in NOTEBOOKS.items():
        nb = build(name, fn())
        path = HERE / f"{name}.ipynb"
        text = nbformat.writes(nb) + "\n"
        if check:
            if not path.exists() or path.read_text() != text:
                stale.append(path.name)
        else:
            path.write_text(text)
            print(f"wrote {path.relative_to(HERE.parent)}")
    if stale:
        print("out of date (run notebooks/_build.py):", ", ".join(stale))
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
