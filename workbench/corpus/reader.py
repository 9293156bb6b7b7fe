"""`workbench.open_corpus(DIR)`: many exports as one set of views, and per-repository work
over them.

The views have the names and columns of the tables (docs/schema.md) plus `repo` first;
they read the Parquet files in place (DuckDB's Parquet reader: nothing is loaded until a
query runs, and a filter on `repo` reads only that repository's files). The call-graph
view and macros (`call_edges`, `find_callers`, ...) work on them, every answer starting
with `repo`. The view `repos` lists every repository with its status, error, input and
versions.

`Corpus.repo(name)` opens one repository as an ordinary `Workbench` (its tables copied
into a temporary database; the source read from the export's `src/` or the folder it was
indexed from), so every view, agent tool and study runs on it; `Corpus.map(fn)` runs
`fn(workbench)` for every repository on the local or the Dask engine.
"""
from __future__ import annotations

import os
import shutil
import tempfile
import weakref
from pathlib import Path

import duckdb
import pyarrow as pa

from .. import schema, store
from ..api import Workbench
from . import engines
from .layout import TABLE_FILES, LayoutError, export_dirs, read_manifest

REPOS_SCHEMA = pa.schema([
    ("repo", pa.string()), ("status", pa.string()), ("error", pa.string()), ("kind", pa.string()),
    ("source", pa.string()), ("rev", pa.string()), ("commit", pa.string()),
    ("files", pa.int64()), ("symbols", pa.int64()), ("edges", pa.int64()),
    ("index_seconds", pa.float64()), ("fingerprint", pa.string()), ("schema_version", pa.int64()),
    ("extractor_version", pa.string()), ("resolver_version", pa.string()),
    ("indexed_at", pa.string()), ("exported_at", pa.string()), ("has_source", pa.bool_()),
    ("warnings", pa.list_(pa.string())), ("folder", pa.string())])


def _quote(text) -> str:
    return "'" + str(text).replace("'", "''") + "'"


def source_root(folder: Path, manifest: dict) -> str:
    """Where the repository's source is read from: the export's `src/`, else the folder it
    was indexed from."""
    if manifest.get("sources"):
        return str(Path(folder) / manifest["sources"])
    return manifest.get("root") or str(Path(folder) / "src")


def _repos_row(folder: Path, m: dict) -> dict:
    inp = m.get("input") or m.get("source") or {}
    counts = {t: (m.get("tables", {}).get(t) or {}).get("rows") for t in ("files", "symbols", "edges")}
    root = source_root(folder, m) if m.get("status") == "ok" else None
    return {"repo": m.get("repo"), "status": m.get("status"), "error": m.get("error"),
            "kind": inp.get("kind"), "source": inp.get("path"), "rev": inp.get("rev"),
            "commit": inp.get("commit"), **counts,
            "index_seconds": (m.get("index") or {}).get("seconds"),
            "fingerprint": m.get("fingerprint"), "schema_version": m.get("schema_version"),
            "extractor_version": m.get("extractor_version"),
            "resolver_version": m.get("resolver_version"), "indexed_at": m.get("indexed_at"),
            "exported_at": m.get("exported_at"), "has_source": bool(root and os.path.isdir(root)),
            "warnings": list(m.get("warnings") or []), "folder": str(folder)}


def _empty_select(table: str) -> str:
    cols = ", ".join(f"NULL::{c.type} AS {c.name}" for c in schema.TABLES[table])
    return f"SELECT NULL::VARCHAR AS repo, {cols} WHERE false"


class RepoWorkbench(Workbench):
    """One repository of a corpus as a `Workbench` (read-only, on a temporary copy of its
    tables that is removed on `close()`). `repo` is its name, `folder` its export."""

    def __init__(self, db: str, repo: str, folder: str, tmpdir: str):
        self._cleanup = weakref.finalize(self, shutil.rmtree, tmpdir, True)
        try:
            super().__init__(db, read_only=True)
        except BaseException:
            self._cleanup()
            raise
        self.repo = repo
        self.folder = folder

    def close(self) -> None:
        try:
            super().close()
        finally:
            self._cleanup()


def open_export(folder) -> RepoWorkbench:
    """One export folder as a `Workbench` (see `RepoWorkbench`)."""
    folder = Path(folder)
    m = read_manifest(folder)
    if m is None:
        raise LayoutError(f"{folder} is not a workbench export (no manifest.json)")
    if m.get("status") != "ok":
        raise LayoutError(f"repository {m.get('repo')!r} failed to index: {m.get('error')}")
    tmp = tempfile.mkdtemp(prefix="workbench-repo-")
    db = os.path.join(tmp, "index.duckdb")
    try:
        con = duckdb.connect(db)
        try:
            store.run(con, schema.DDL)
            for table in m.get("tables", {}):
                if table in schema.TABLES:
                    cols = ", ".join(schema.columns(table))
                    store.run(con, f"INSERT INTO {table} ({cols}) SELECT {cols} "
                                   f"FROM read_parquet({_quote(folder / TABLE_FILES[table])})")
            store.run(con, "INSERT OR REPLACE INTO meta VALUES ('root', ?)", [source_root(folder, m)])
        finally:
            con.close()
    except BaseException:
        shutil.rmtree(tmp, ignore_errors=True)
        raise
    return RepoWorkbench(db, m["repo"], str(folder), tmp)


def _on_repo(item):
    """The task `Corpus.map` sends: open one export, run the function on it."""
    folder, fn, args, kwargs = item
    with open_export(folder) as wb:
        return fn(wb, *args, **kwargs)


class MapResult(dict):
    """`Corpus.map`'s answer: repository name -> value, in name order, plus `errors`
    (name -> error text) for the repositories where the function failed and `outcomes`
    (name -> `engines.Outcome`: worker, peak memory, seconds)."""

    def __init__(self):
        super().__init__()
        self.errors: dict[str, str] = {}
        self.outcomes: dict[str, engines.Outcome] = {}


class Corpus:
    """Many exported repositories queried as one (see the module doc)."""

    def __init__(self, path):
        self.path = Path(path).absolute()
        self.manifests: dict[str, tuple[Path, dict]] = {}
        for folder in export_dirs(self.path):
            m = read_manifest(folder)
            name = m.get("repo")
            if name in self.manifests:
                raise LayoutError(f"two exports of repository {name!r}: {self.manifests[name][0]} "
                                  f"and {folder}")
            self.manifests[name] = (folder, m)
        for name, (folder, m) in self.manifests.items():
            if m.get("status") == "ok" and m.get("schema_version") != schema.SCHEMA_VERSION:
                raise LayoutError(f"{folder} holds schema version {m.get('schema_version')}; this "
                                  f"workbench reads {schema.SCHEMA_VERSION} (index or export it again)")
        self.con = duckdb.connect(":memory:")
        ok = [(f, m) for f, m in self.manifests.values() if m.get("status") == "ok"]
        for table in schema.TABLES:
            files = [str(f / TABLE_FILES[table]) for f, m in ok if table in m.get("tables", {})]
            cols = ", ".join(("repo",) + schema.columns(table))
            body = (f"SELECT {cols} FROM read_parquet([{', '.join(map(_quote, files))}])"
                    if files else _empty_select(table))
            store.run(self.con, f"CREATE VIEW {table} AS {body}")
        rows = [_repos_row(f, m) for f, m in self.manifests.values()]
        self.con.register("_repos", pa.Table.from_pylist(rows, schema=REPOS_SCHEMA))
        store.run(self.con, "CREATE TABLE repos AS SELECT * FROM _repos ORDER BY repo")
        self.con.unregister("_repos")
        schema.install_sql(self.con, corpus=True)

    # -- SQL over every repository
    def sql(self, query: str, params=None) -> duckdb.DuckDBPyRelation:
        """Run SQL against the corpus views; returns a DuckDB relation."""
        return self.con.sql(query, params=params) if params else self.con.sql(query)

    @property
    def repos(self) -> duckdb.DuckDBPyRelation:
        """Every repository of the corpus with its status, error, input and versions."""
        return self.con.table("repos")

    @property
    def names(self) -> list[str]:
        """Names of the repositories that indexed (in name order)."""
        return sorted(n for n, (_, m) in self.manifests.items() if m.get("status") == "ok")

    # -- one repository at a time
    def repo(self, name: str) -> RepoWorkbench:
        """One repository as a `Workbench` (close it, or use `with`)."""
        if name not in self.manifests:
            raise KeyError(f"no repository {name!r} in {self.path} (have: {', '.join(sorted(self.manifests))})")
        return open_export(self.manifests[name][0])

    def map(self, fn, *args, repos=None, engine: str = "local", jobs: int | None = None,
            scheduler: str | None = None, progress: bool = True, desc: str | None = None,
            **kwargs) -> MapResult:
        """`fn(workbench, *args, **kwargs)` for every repository that indexed (or those named
        in `repos`), on `engine` (see `workbench.corpus.engines`). A repository where `fn`
        raises is left out of the result and listed in its `errors` (the rest go on).
        With the local engine and more than one job, `fn` must be importable (defined at
        module level): it is sent to worker processes."""
        names = self.names if repos is None else list(repos)
        for n in names:
            if n not in self.manifests:
                raise KeyError(f"no repository {n!r} in {self.path}")
        if engine == "local" and (jobs or os.cpu_count() or 1) > 1 and len(names) > 1:
            engines.check_picklable(fn)
        items = [(str(self.manifests[n][0]), fn, args, kwargs) for n in names]
        bar = engines.progress_bar(len(items), desc or getattr(fn, "__name__", "map"), progress)
        result = MapResult()
        try:
            for o in engines.run(_on_repo, items, engine=engine, jobs=jobs, scheduler=scheduler,
                                 info=print if bar is None else bar.write):
                name = names[o.index]
                result.outcomes[name] = o
                if o.error is not None:
                    result.errors[name] = o.error
                else:
                    result[name] = o.value
                if bar is not None:
                    bar.update(1)
                    bar.set_postfix(failed=len(result.errors), refresh=False)
        finally:
            if bar is not None:
                bar.close()
        ordered = {n: result[n] for n in names if n in result}
        dict.clear(result)
        result.update(ordered)
        if result.errors:
            print(f"{len(result.errors)} of {len(names)} repositories failed: "
                  + "; ".join(f"{n}: {e}" for n, e in sorted(result.errors.items())))
        return result

    def frame(self, fn, *args, **kwargs):
        """`map(fn, ...)` for a function returning a table (pandas DataFrame, Arrow table or
        DuckDB relation), concatenated into one pandas DataFrame with `repo` first."""
        import pandas as pd
        parts = []
        for name, value in self.map(fn, *args, **kwargs).items():
            df = value.df() if hasattr(value, "df") else (
                value.to_pandas() if hasattr(value, "to_pandas") else pd.DataFrame(value))
            df.insert(0, "repo", name)
            parts.append(df)
        return pd.concat(parts, ignore_index=True) if parts else pd.DataFrame({"repo": []})

    def evaluate(self, strategies=None, rule_sets=None, *, kinds=("function", "method"),
                 sample: int | None = None, seed: int = 7, name: str = "eval_results",
                 **map_options) -> duckdb.DuckDBPyRelation:
        """`workbench.eval.evaluate` on every repository: the tasks are each repository's
        definitions of `kinds` (every function and method by default; a seeded sample of
        `sample` per repository when given), run through `strategies` under `rule_sets`
        ({name: Rules}; default rules when None). The results (one row per task, strategy and
        rule set, `repo` first) are registered as view `name` on the corpus connection, so
        `workbench.eval.distribution(corpus.con, name, by=("repo",))` compares repositories.
        `map_options` go to `map` (engine, jobs, scheduler, progress, repos)."""
        map_options.setdefault("desc", "eval")
        res = self.map(_evaluate_repo, tuple(strategies) if strategies else None, rule_sets,
                       tuple(kinds), sample, seed, **map_options)
        tables = []
        for repo, tbl in res.items():
            tables.append(tbl.add_column(0, "repo", pa.array([repo] * tbl.num_rows, pa.string())))
        if tables:
            table = pa.concat_tables(tables)
        else:
            empty = schema.arrow_schema("eval_results")
            table = empty.insert(0, pa.field("repo", pa.string())).empty_table()
        self.con.register(name, table)
        return self.con.table(name)

    # -- lifetime
    def close(self) -> None:
        self.con.close()

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()

    def __repr__(self) -> str:
        failed = sum(1 for _, m in self.manifests.values() if m.get("status") != "ok")
        return (f"<Corpus {self.path}: {len(self.manifests)} repositories"
                + (f" ({failed} failed)" if failed else "") + ">")


for _table in ("files", "symbols", "edges", "imports"):      # the Workbench's table shortcuts
    setattr(Corpus, _table, property(lambda self, t=_table: self.con.table(t),
                                     doc=f"The `{_table}` view of every repository."))


def _evaluate_repo(wb, strategies, rule_sets, kinds, sample, seed):
    import random

    from .. import eval as ev
    from ..tasks import from_symbols
    rows, _ = from_symbols(wb.con, kinds=list(kinds), task_set="functions")
    if sample is not None and sample < len(rows):
        rows = random.Random(seed).sample(rows, sample)
    for i, row in enumerate(rows, 1):
        row["task_id"] = i
    return ev.evaluate(wb, rows, strategies, rule_sets).results


def open_corpus(path) -> Corpus:
    """Open a corpus folder (`workbench corpus index ... --out DIR`, or exports side by side)
    or a single export folder as one set of views."""
    return Corpus(path)
