"""`workbench export DB DIR`: every table of an index as Parquet, with a `repo` column and
a manifest of the versions that wrote the rows (layout: docs/corpus.md)."""
from __future__ import annotations

import os
import shutil
from importlib import metadata
from pathlib import Path

from .. import schema, store
from .layout import (FORMAT, FORMAT_VERSION, MANIFEST, TABLE_FILES, check_name, now, replace_dir,
                     safe_name, staging_dir, write_json)


def _sql_string(text: str) -> str:
    return "'" + str(text).replace("'", "''") + "'"


def package_version() -> str:
    try:
        return metadata.version("context-workbench")
    except metadata.PackageNotFoundError:
        return "unknown"


def write_tables(con, folder, repo: str, root: str | None = None) -> dict:
    """Write every table of the index open on `con` into `folder` as `<table>.parquet`,
    `repo` first in every row, rows in a stable order. `root` replaces `meta.root` (the
    place the source is read from once exported). Returns {table: {"file", "rows"}}."""
    check_name(repo)
    out = {}
    for table in schema.TABLES:
        cols = ", ".join(schema.columns(table))
        if table == "meta" and root is not None:
            cols = f"key, CASE WHEN key = 'root' THEN {_sql_string(root)} ELSE value END AS value"
        path = Path(folder) / TABLE_FILES[table]
        store.run(con, f"COPY (SELECT {_sql_string(repo)} AS repo, {cols} FROM {table} ORDER BY ALL) "
                       f"TO {_sql_string(path)} (FORMAT parquet, COMPRESSION zstd)")
        out[table] = {"file": TABLE_FILES[table], "rows": store.one(con, f"SELECT count(*) FROM {table}")[0]}
    return out


def write_export(con, folder, repo: str, *, root: str | None = None, **fields) -> dict:
    """Tables and manifest of one repository into the (new, empty) folder `folder`;
    `fields` go into the manifest as they are. Returns the manifest."""
    meta = dict(store.run(con, "SELECT key, value FROM meta"))
    tables = write_tables(con, folder, repo, root)
    manifest = {
        "format": FORMAT, "format_version": FORMAT_VERSION, "repo": repo, "status": "ok",
        "error": None, "schema_version": int(meta.get("schema_version") or schema.SCHEMA_VERSION),
        "extractor_version": meta.get("extractor_version"),
        "resolver_version": meta.get("resolver_version"),
        "workbench_version": package_version(), "root": root or meta.get("root"),
        "indexed_at": meta.get("indexed_at"), "exported_at": now(), "tables": tables,
        "sources": None, **fields}
    write_json(Path(folder) / MANIFEST, manifest)
    return manifest


def export(db: str, out, repo: str | None = None) -> dict:
    """Export the index `db` into the folder `out` (created, or replaced when it holds an
    earlier export; never a folder that is not one). `repo` defaults to the name of the
    indexed root. Returns the manifest. Several exports side by side in one folder
    (`out` = `CORPUS/NAME`) are a corpus: `workbench.open_corpus(CORPUS)`."""
    from ..api import open as open_db
    if not os.path.exists(db):
        raise FileNotFoundError(f"no workbench database at {db!r}")
    out = Path(out)
    with open_db(db, read_only=True) as wb:
        name = check_name(repo) if repo else safe_name(os.path.basename(str(wb.root).rstrip("/")))
        staging = staging_dir(out)
        try:
            manifest = write_export(wb.con, staging, name, source={"kind": "database",
                                                                  "path": os.path.abspath(db)})
        except BaseException:
            shutil.rmtree(staging, ignore_errors=True)
            raise
    replace_dir(staging, out)
    return manifest
