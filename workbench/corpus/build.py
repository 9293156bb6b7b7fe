"""`workbench corpus index`: many repositories into one corpus folder, one task per
repository on a process pool or on Dask (`engines.py`).

Each task materialises its input (`inputs.py`), indexes it with the ordinary indexer
(one process per repository: the parallelism is across repositories) into a temporary
database, exports the tables as Parquet (`export.py`) and swaps the new export in for
the old one. A repository that fails gets a manifest with `status: failed` and its error
instead; the others go on. A re-run skips every repository whose fingerprint (its input
plus the extractor, resolver, schema and export versions and the index options) matches
the manifest of its last successful export.
"""
from __future__ import annotations

import fcntl
import os
import shutil
import tempfile
import time
import traceback
from dataclasses import dataclass, field
from pathlib import Path

from .. import schema
from ..scan import DEFAULT_MAX_BYTES
from ..versions import extractor_version, resolver_version
from . import engines
from .inputs import InputError, RepoInput, fingerprint, materialize, parse_inputs
from .layout import (CORPUS_FILE, FORMAT, FORMAT_VERSION, MANIFEST, SOURCES, TABLE_FILES, LayoutError,
                     export_dirs, now, read_manifest, remove_stale_staging, replace_dir, staging_dir,
                     write_json)


class CorpusBusy(RuntimeError):
    """Another run is writing the same corpus folder."""


@dataclass
class RepoResult:
    name: str
    status: str                 # indexed | skipped | failed
    source: str                 # the input as written (path, path@rev)
    error: str | None = None
    seconds: float = 0.0        # the task's time (materialise, index, export)
    cpu_seconds: float = 0.0    # CPU time its worker process used meanwhile
    worker: str = ""            # host:pid that ran it
    peak_rss_mb: float = 0.0    # that worker's peak resident memory when the task ended
    rows: dict = field(default_factory=dict)    # table -> rows exported


@dataclass
class CorpusReport:
    out: str
    engine: str
    jobs: int
    seconds: float = 0.0
    repos: list[RepoResult] = field(default_factory=list)
    not_in_list: list[str] = field(default_factory=list)   # exports in the folder the inputs do not name
    pruned: list[str] = field(default_factory=list)

    def _names(self, status: str) -> list[str]:
        return [r.name for r in self.repos if r.status == status]

    @property
    def indexed(self) -> list[str]:
        return self._names("indexed")

    @property
    def skipped(self) -> list[str]:
        return self._names("skipped")

    @property
    def failed(self) -> dict[str, str]:
        return {r.name: r.error for r in self.repos if r.status == "failed"}

    def peak_rss_by_worker(self) -> dict[str, float]:
        out: dict[str, float] = {}
        for r in self.repos:
            if r.worker:
                out[r.worker] = max(out.get(r.worker, 0.0), r.peak_rss_mb)
        return out

    def rows(self) -> dict[str, int]:
        """Rows exported by this run, per table (indexed repositories only)."""
        out: dict[str, int] = {}
        for r in self.repos:
            for t, n in r.rows.items():
                out[t] = out.get(t, 0) + n
        return out

    def __str__(self) -> str:
        lines = [f"corpus {self.out}: {len(self.indexed)} indexed, {len(self.skipped)} unchanged "
                 f"(skipped), {len(self.failed)} failed in {self.seconds:.1f}s "
                 f"(engine {self.engine}, {self.jobs} worker{'s' if self.jobs != 1 else ''})"]
        lines += [f"  failed {name}: {err}" for name, err in self.failed.items()]
        if self.pruned:
            lines.append(f"  removed (not in the list): {', '.join(self.pruned)}")
        elif self.not_in_list:
            lines.append(f"  kept, not in the list (--prune removes them): {', '.join(self.not_in_list)}")
        return "\n".join(lines)


def _options(exclude, max_bytes, resolve, keep_sources) -> dict:
    """Everything besides the input that decides an export's rows."""
    return {"extractor_version": extractor_version(), "resolver_version": resolver_version() if resolve else None,
            "schema_version": schema.SCHEMA_VERSION, "format_version": FORMAT_VERSION,
            "exclude": sorted(exclude), "max_bytes": max_bytes, "resolve": resolve,
            "sources": keep_sources}


def _error_text(exc: BaseException) -> str:
    if isinstance(exc, (InputError, LayoutError)):
        return str(exc)
    if isinstance(exc, OSError) and exc.filename:
        return f"cannot read {exc.filename}: {exc.strerror or exc}"
    return f"{type(exc).__name__}: {exc}"


def _failure(inp: RepoInput, error: str, fp: str | None = None, facts: dict | None = None,
             trace: str | None = None) -> dict:
    return {"format": FORMAT, "format_version": FORMAT_VERSION, "repo": inp.name, "status": "failed",
            "error": error, "fingerprint": fp, "input": facts or {"kind": inp.kind, "path": inp.path,
                                                                   "rev": inp.rev},
            "failed_at": now(), "tables": {}, "traceback": trace}


def record_failure(out: Path, manifest: dict) -> None:
    """Replace the repository's export with one that holds only its failure manifest."""
    dest = Path(out) / manifest["repo"]
    staging = staging_dir(dest)
    write_json(staging / MANIFEST, manifest)
    replace_dir(staging, dest)


def index_one(task: dict) -> dict:
    """The task for one repository (runs on a worker): materialise, index, export, swap in.
    Never raises for a bad input: returns the manifest it wrote (status ok or failed)."""
    inp = RepoInput(**task["input"])
    out = Path(task["out"])
    opts = task["options"]
    dest = out / inp.name
    fp, facts = task["fingerprint"], task["facts"]
    staging = staging_dir(dest)
    try:
        root, warnings = materialize(inp, str(staging / SOURCES), facts)
        keep = opts["sources"] and inp.kind != "dir"
        final_root = inp.path if inp.kind == "dir" else str(dest / SOURCES) if keep else None
        import duckdb
        from ..indexer import index
        from .export import write_export
        with tempfile.TemporaryDirectory(prefix="workbench-corpus-") as tmp:
            db = os.path.join(tmp, "index.duckdb")      # any files the indexer adds go with it
            report = index(root, db, jobs=1, progress=False, exclude=tuple(opts["exclude"]),
                           max_bytes=opts["max_bytes"], resolve=opts["resolve"])
            # no DuckDB progress bar from a worker: it would draw over the run's own
            con = duckdb.connect(db, read_only=True)
            con.execute("SET enable_progress_bar = false").fetchall()
            try:
                manifest = write_export(
                    con, staging, inp.name, root=final_root, fingerprint=fp, input=facts,
                    sources=SOURCES if keep else None, warnings=warnings,
                    index={"files": report.files, "symbols": report.symbols, "edges": report.edges,
                           "by_status": report.by_status, "seconds": round(report.seconds, 3),
                           "timings": {k: round(v, 3) for k, v in report.timings.items()}})
            finally:
                con.close()
        if inp.kind != "dir" and not keep:
            shutil.rmtree(staging / SOURCES, ignore_errors=True)
    except Exception as exc:
        shutil.rmtree(staging, ignore_errors=True)
        trace = None if isinstance(exc, (InputError, LayoutError)) else traceback.format_exc(limit=8)
        manifest = _failure(inp, _error_text(exc), fp, facts, trace)
        record_failure(out, manifest)
        return manifest
    replace_dir(staging, dest)
    return manifest


class _Lock:
    """One run per corpus folder (an exclusive flock on `.lock`)."""

    def __init__(self, out: Path):
        self.path = out / ".lock"

    def __enter__(self):
        self.fd = os.open(self.path, os.O_RDWR | os.O_CREAT, 0o644)
        try:
            fcntl.flock(self.fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            os.close(self.fd)
            raise CorpusBusy(f"another run is writing the corpus {self.path.parent}; "
                             "wait for it to finish") from None
        return self

    def __exit__(self, *exc):
        fcntl.flock(self.fd, fcntl.LOCK_UN)
        os.close(self.fd)


def index_corpus(inputs, out, *, engine: str = "local", jobs: int | None = None,
                 scheduler: str | None = None, exclude=(), max_bytes: int = DEFAULT_MAX_BYTES,
                 resolve: bool = True, keep_sources: bool = True, force: bool = False,
                 prune: bool = False, progress: bool = True, dashboard: bool = True,
                 info=print) -> CorpusReport:
    """Index the repositories `inputs` names (folders, archives, list files, or
    `RepoInput`s; see `workbench.corpus.inputs`) into the corpus folder `out`.

    `engine` `local` (a process pool of `jobs` processes, default: all cores) or `dask`
    (a LocalCluster of `jobs` workers, or the scheduler at `scheduler`). `keep_sources`:
    keep the extracted source of archives and git revisions in the export (`src/`), so
    views that read source (regions, whole files) work on the corpus. `force`: index
    everything again. `prune`: remove exports of repositories the inputs no longer name.
    """
    t0 = time.perf_counter()
    engines.check_engine(engine, scheduler)      # before any input is read or the folder made
    if isinstance(inputs, (str, os.PathLike, RepoInput)):
        inputs = [inputs]
    inputs = parse_inputs([os.fspath(i) if isinstance(i, os.PathLike) else i for i in inputs])
    out = Path(out).absolute()
    if out.exists() and (out / MANIFEST).exists():
        raise LayoutError(f"{out} is a single export, not a corpus folder")
    out.mkdir(parents=True, exist_ok=True)
    jobs = max(1, jobs or os.cpu_count() or 1)
    report = CorpusReport(str(out), engine, jobs)
    opts = _options(exclude, max_bytes, resolve, keep_sources)
    with _Lock(out):
        remove_stale_staging(out)
        bar = engines.progress_bar(len(inputs), f"corpus ({engine})", progress)
        tasks, pending = [], []
        try:
            for inp in inputs:
                inp_opts = _options_for(inp, out, opts)
                try:
                    fp, facts = fingerprint(inp, inp_opts)
                except InputError as exc:
                    error = _record(out, _failure(inp, str(exc)))
                    report.repos.append(RepoResult(inp.name, "failed", inp.describe(), error))
                    _tick(bar, report)
                    continue
                try:
                    old = read_manifest(out / inp.name)
                except LayoutError:
                    old = None
                if (not force and old and old.get("status") == "ok" and old.get("fingerprint") == fp
                        and _complete(out / inp.name, old)):
                    report.repos.append(RepoResult(inp.name, "skipped", inp.describe()))
                    _tick(bar, report)
                    continue
                pending.append(inp)
                tasks.append({"input": inp.to_dict(), "out": str(out), "options": inp_opts,
                              "fingerprint": fp, "facts": facts})
            for o in engines.run(index_one, tasks, engine=engine, jobs=jobs, scheduler=scheduler,
                                 dashboard=dashboard, info=info if bar is None else bar.write):
                inp = pending[o.index]
                if o.error is not None:          # the task itself died: record it here
                    error = _record(out, _failure(inp, o.error, tasks[o.index]["fingerprint"],
                                                  tasks[o.index]["facts"]))
                    res = RepoResult(inp.name, "failed", inp.describe(), error)
                else:
                    m = o.value
                    ok = m.get("status") == "ok"
                    res = RepoResult(inp.name, "indexed" if ok else "failed", inp.describe(),
                                     None if ok else m.get("error"),
                                     rows={t: v["rows"] for t, v in m.get("tables", {}).items()})
                res.seconds, res.cpu_seconds = o.seconds, o.cpu_seconds
                res.worker, res.peak_rss_mb = o.worker, o.peak_rss_mb
                report.repos.append(res)
                _tick(bar, report)
        finally:
            if bar is not None:
                bar.close()
        names = {i.name for i in inputs}
        for d in export_dirs(out):
            if d.name not in names:
                report.not_in_list.append(d.name)
                if prune:
                    shutil.rmtree(d)
                    report.pruned.append(d.name)
        report.seconds = time.perf_counter() - t0
        write_json(out / CORPUS_FILE, {
            "format": "workbench-corpus", "format_version": FORMAT_VERSION, "updated_at": now(),
            "last_run": {"engine": engine, "jobs": jobs, "scheduler": scheduler,
                         "seconds": round(report.seconds, 3), "indexed": report.indexed,
                         "skipped": report.skipped, "failed": report.failed,
                         "pruned": report.pruned, "options": opts},
            "inputs": [{"name": i.name, "source": i.describe(), "kind": i.kind} for i in inputs]})
    return report


def _complete(folder: Path, manifest: dict) -> bool:
    """Every table file the manifest lists is there."""
    return all((folder / TABLE_FILES[t]).is_file() for t in manifest.get("tables", {}) if t in TABLE_FILES)


def _options_for(inp: RepoInput, out: Path, opts: dict) -> dict:
    """`opts`, plus an exclude glob for the corpus folder when it lies inside a folder input
    (`workbench corpus index . --out corpus`): its exports are not part of the repository."""
    if inp.kind != "dir":
        return opts
    rel = os.path.relpath(out, inp.path)
    if rel == "." or rel == ".." or rel.startswith("../"):
        return opts
    return {**opts, "exclude": sorted(set(opts["exclude"]) | {"/" + Path(rel).as_posix() + "/"})}


def _record(out: Path, manifest: dict) -> str:
    """Record a failure in the corpus; returns the error text for the report."""
    try:
        record_failure(out, manifest)
    except (OSError, LayoutError) as exc:   # e.g. a foreign folder in the way: the report says it
        return f"{manifest['error']} (and the failure could not be recorded: {exc})"
    return manifest["error"]


def _tick(bar, report: CorpusReport) -> None:
    if bar is not None:
        bar.update(1)
        bar.set_postfix(failed=len(report.failed), skipped=len(report.skipped), refresh=False)
