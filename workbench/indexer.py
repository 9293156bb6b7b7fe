"""scan -> parse/extract (process pool) -> store, incrementally, in one transaction."""
from __future__ import annotations

import hashlib
import os
import time
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass, field

from . import store
from .extract import FileRows, extract_file
from .gcpause import gc_paused
from .languages import SPECS, detect, module_path, refine
from .locations import default_db
from .scan import DEFAULT_MAX_BYTES, ScanEntry, is_binary, scan
from .versions import extractor_version


@dataclass
class IndexReport:
    root: str
    db: str
    added: int = 0
    changed: int = 0
    removed: int = 0
    unchanged: int = 0
    files: int = 0
    symbols: int = 0
    edges: int = 0
    parsed: int = 0
    seconds: float = 0.0
    scan_summary: str = ""
    by_status: dict = field(default_factory=dict)
    changed_paths: list = field(default_factory=list)   # added, changed and removed paths
    timings: dict = field(default_factory=dict)         # seconds per phase: scan, extract, store, resolve

    def __str__(self) -> str:
        st = ", ".join(f"{k} {v}" for k, v in sorted(self.by_status.items()))
        return (f"indexed {self.root} -> {self.db} in {self.seconds:.2f}s: "
                f"{self.added} added, {self.changed} changed, {self.removed} removed, "
                f"{self.unchanged} unchanged; {self.files} files ({st}), {self.symbols} symbols, "
                f"{self.edges} edges; scan: {self.scan_summary}; phases: "
                + ", ".join(f"{k} {v:.2f}s" for k, v in self.timings.items()))


@dataclass
class _Result:
    """What a worker returns for one file."""
    path: str
    language: str | None
    size: int
    mtime: float
    sha256: str | None
    status: str
    skip_reason: str | None = None
    encoding: str | None = None
    message: str | None = None
    line_count: int = 0
    rows: FileRows | None = None
    unchanged: bool = False
    n_symbols: int = 0                  # set when the rows leave for the chunk's tables


def _decode_note(data: bytes) -> tuple[bytes, str, str | None]:
    """Bytes to parse, the encoding name, and a message when it is not plain UTF-8."""
    if data.startswith(b"\xef\xbb\xbf"):
        return data, "utf-8-sig", None
    if data.startswith((b"\xff\xfe", b"\xfe\xff")):
        text = data.decode("utf-16", "replace")
        return text.encode("utf-8"), "utf-16", "UTF-16 file: parsed as UTF-8 after transcoding"
    try:
        data.decode("utf-8")
        return data, "utf-8", None
    except UnicodeDecodeError as exc:
        text = data.decode("latin-1")
        return text.encode("utf-8"), "latin-1", (
            f"not valid UTF-8 (first bad byte at offset {exc.start}); decoded as latin-1 "
            "(byte offsets refer to the UTF-8 text)")


def process_file(entry: ScanEntry, known_sha: str | None) -> _Result:
    """Read, hash and extract one file. Never raises: failures become a status."""
    spec = detect(entry.path)
    lang = spec.name if spec else None
    if entry.skip_reason:
        return _Result(entry.path, lang, entry.size, entry.mtime, None, "skipped", entry.skip_reason)
    try:
        with open(entry.abspath, "rb") as fh:
            data = fh.read()
    except OSError as exc:
        return _Result(entry.path, lang, entry.size, entry.mtime, None, "failed",
                       f"unreadable: {exc.strerror or exc}")
    sha = hashlib.sha256(data).hexdigest()
    if known_sha is not None and sha == known_sha:
        return _Result(entry.path, lang, len(data), entry.mtime, sha, "ok", unchanged=True)
    lines = data.count(b"\n") + (1 if data and not data.endswith(b"\n") else 0)
    if is_binary(data[:8192]):
        return _Result(entry.path, lang, len(data), entry.mtime, sha, "skipped", "binary",
                       line_count=0)
    parse_bytes, encoding, note = _decode_note(data)
    spec = refine(spec, entry.path, parse_bytes)      # a C++ header named `.h`
    lang = spec.name if spec else None
    if spec is None:
        return _Result(entry.path, None, len(data), entry.mtime, sha, "skipped",
                       "no grammar for this file type", encoding, note, lines)
    try:
        rows = extract_file(entry.path, parse_bytes, spec)
    except Exception as exc:  # a grammar or query crash must not stop the run
        return _Result(entry.path, lang, len(data), entry.mtime, sha, "failed", None, encoding,
                       f"extraction failed: {type(exc).__name__}: {exc}", lines)
    msg = note
    if rows.status == "partial":
        err = f"{rows.error_count} syntax error node(s); partial tree used"
        msg = f"{msg}; {err}" if msg else err
    return _Result(entry.path, lang, len(data), entry.mtime, sha, rows.status, None, encoding,
                   msg, lines, rows)


def _process_chunk(chunk: list[tuple[ScanEntry, str | None]]) -> "_Chunk":
    """Process files and hand their rows back as Arrow tables (cheap to send between
    processes; the main process only concatenates them and adds id offsets)."""
    with gc_paused():
        results = [process_file(e, sha) for e, sha in chunk]
        return _Chunk(results, _chunk_tables(results))


@dataclass
class _Chunk:
    results: list[_Result]
    tables: dict        # table name -> pyarrow Table of local rows, with `_file` = index in results


_LOCAL_SCHEMAS = None


def _local_schemas() -> dict:
    """Arrow schemas of the worker-side tables: local ids, plus `_file` (the row's file)."""
    global _LOCAL_SCHEMAS
    if _LOCAL_SCHEMAS is None:
        import pyarrow as pa
        t = store._TYPES
        pick = lambda table, *names: [t[table].field(n) for n in names]  # noqa: E731
        _LOCAL_SCHEMAS = {
            "symbols": pa.schema([("_file", pa.int32()), ("local", pa.int64())]
                                 + pick("symbols", "kind", "name", "qualname")
                                 + [("parent_local", pa.int64())]
                                 + pick("symbols", "start_line", "end_line", "start_byte", "end_byte",
                                        "signature", "doc", "decorators", "visibility", "is_truncated",
                                        "is_declaration", "body_start_line")),
            "edges": pa.schema([("_file", pa.int32()), ("src_local", pa.int64())]
                               + pick("edges", "kind", "dst_name")
                               + [("dst_local", pa.int64())]
                               + pick("edges", "line", "resolution", "dst_qualname")),
            "imports": pa.schema([("_file", pa.int32()), ("src_local", pa.int64())]
                                 + pick("imports", "module", "name", "alias", "line")),
            "bindings": pa.schema([("_file", pa.int32()), ("src_local", pa.int64())]
                                  + pick("bindings", "kind", "name", "value", "value_type")
                                  + [("value_local", pa.int64())] + pick("bindings", "line")),
        }
    return _LOCAL_SCHEMAS


def _chunk_tables(results: list[_Result]) -> dict:
    """The chunk's rows as Arrow tables (local ids, `_file` = index in `results`); each
    result keeps only its counts and status afterwards."""
    import pyarrow as pa
    schemas = _local_schemas()
    cols = {name: [[] for _ in schemas[name]] for name in schemas}
    for i, r in enumerate(results):
        rows = r.rows
        if rows is None:
            continue
        quals = [x[3] for x in rows.symbols]
        edges = rows.edges
        parts = {"symbols": rows.symbols,
                 "edges": [e + (None if e[3] is None else quals[e[3]],) for e in edges],
                 "imports": rows.imports, "bindings": rows.bindings}
        for name, part in parts.items():
            if part:
                acc = cols[name]
                acc[0].extend([i] * len(part))
                for dst, src in zip(acc[1:], zip(*part)):
                    dst.extend(src)
        r.n_symbols = len(rows.symbols)
        r.rows = FileRows(rows.status, rows.error_count, rows.message)   # shipped as tables
    return {name: pa.Table.from_arrays([pa.array(c, type=f.type) for c, f in zip(cs, schemas[name])],
                                       schema=schemas[name])
            for name, cs in cols.items() if cs[0]}


def _chunks(items: list, n: int) -> list[list]:
    return [items[i:i + n] for i in range(0, len(items), n)]


def index(root: str | os.PathLike, db: str | None = None, *, jobs: int | None = None,
          exclude: tuple[str, ...] | list[str] = (), max_bytes: int = DEFAULT_MAX_BYTES,
          progress: bool = True, resolve: bool = True, con=None) -> IndexReport:
    """Index `root` into the DuckDB file `db` (default: one file per repository in the user's
    cache folder, `workbench.locations.default_db`; never inside the repository).

    Re-indexing an indexed root re-parses only changed files. The new rows and the
    cross-file resolution are written in one transaction, so an interrupted run leaves
    the previous state intact. `resolve=False` skips cross-file resolution (edges keep
    their same-file resolution, edges into changed files are unbound, and the next
    resolving run - `workbench resolve DB` or an index without the flag - resolves all).
    """
    t0 = time.perf_counter()
    root = os.path.abspath(os.fspath(root))
    if db is None:
        db = default_db(root)
    os.makedirs(os.path.dirname(os.path.abspath(db)) or ".", exist_ok=True)
    jobs = jobs or os.cpu_count() or 1
    exclude = tuple(exclude)
    scanned = scan(root, exclude=exclude, max_bytes=max_bytes)
    scan_s = time.perf_counter() - t0
    own = con is None
    if own:
        con = store.connect(db)
    try:
        with gc_paused():
            report = _index_into(con, root, db, scanned, jobs, progress, resolve)
        store.set_meta(con, root=root, schema_version=str(store.SCHEMA_VERSION),
                       extractor_version=extractor_version(),
                       exclude=list(exclude), max_bytes=str(max_bytes),
                       ignored_dirs=sorted(scanned.ignored_dir_paths),
                       indexed_at=time.strftime("%Y-%m-%dT%H:%M:%S"))
    finally:
        if own:
            con.close()
    report.timings = {"scan": scan_s, **report.timings}
    report.seconds = time.perf_counter() - t0
    return report


def _index_into(con, root: str, db: str, scanned, jobs: int, progress: bool,
                resolve: bool = True) -> IndexReport:
    t_extract = time.perf_counter()
    known = {r[0]: r[1:] for r in con.execute(
        "SELECT path, file_id, size_bytes, mtime, sha256, status FROM files").fetchall()}
    # rows written by another version of the extractor are redone: every file counts as changed
    same_code = store.get_meta(con, "extractor_version") == extractor_version()
    work: list[tuple[ScanEntry, str | None]] = []
    unchanged_paths: list[str] = []
    seen = set()
    for e in scanned.entries:
        seen.add(e.path)
        old = known.get(e.path)
        if (same_code and old is not None and old[1] == e.size and old[2] == e.mtime
                and (e.skip_reason is None or old[4] == "skipped")):
            unchanged_paths.append(e.path)      # size and mtime agree: trust what we have
            continue
        work.append((e, old[3] if old is not None and same_code else None))
    removed = [p for p in known if p not in seen]

    chunks: list[_Chunk] = []
    if work:
        bar = None
        if progress:
            from tqdm.auto import tqdm
            bar = tqdm(total=len(work), desc="indexing", unit="file", leave=False)
        try:
            size = max(4, min(32, len(work) // (jobs * 16) or 4))
            if jobs > 1 and len(work) > 32:
                # biggest files first, so no worker is left with a large file at the end
                work = sorted(work, key=lambda w: -w[0].size)
                with ProcessPoolExecutor(max_workers=jobs) as pool:
                    done = pool.map(_process_chunk, _chunks(work, size))
                    import pyarrow.compute  # noqa: F401  (warm the store's imports meanwhile)
                    for chunk in done:
                        chunks.append(chunk)
                        if bar is not None:
                            bar.update(len(chunk.results))
            else:
                for part in _chunks(work, size):
                    chunks.append(_process_chunk(part))
                    if bar is not None:
                        bar.update(len(part))
        finally:
            if bar is not None:
                bar.close()
    results = [r for c in chunks for r in c.results]

    t_store = time.perf_counter()
    touched_mtime = [r for r in results if r.unchanged]
    fresh = [r for r in results if not r.unchanged]
    report = IndexReport(root=root, db=db, scan_summary=scanned.summary())
    report.unchanged = len(unchanged_paths) + len(touched_mtime)
    report.changed = sum(1 for r in fresh if r.path in known)
    report.added = sum(1 for r in fresh if r.path not in known)
    report.removed = len(removed)
    report.parsed = sum(1 for r in fresh if r.rows is not None)
    report.changed_paths = sorted([r.path for r in fresh] + removed)

    stale_ids = [known[p][0] for p in removed] + [known[r.path][0] for r in fresh if r.path in known]
    store.run(con, "BEGIN TRANSACTION")
    try:
        if stale_ids:
            store.run(con, "CREATE OR REPLACE TEMP TABLE _stale AS SELECT unnest(?::BIGINT[]) AS file_id",
                        [stale_ids])
            store.run(con, "DELETE FROM edges WHERE path IN (SELECT f.path FROM files f JOIN _stale USING (file_id))")
            store.run(con, "DELETE FROM imports WHERE file_id IN (SELECT file_id FROM _stale)")
            store.run(con, "DELETE FROM bindings WHERE file_id IN (SELECT file_id FROM _stale)")
            store.run(con, "DELETE FROM symbols WHERE file_id IN (SELECT file_id FROM _stale)")
            store.run(con, "DELETE FROM files WHERE file_id IN (SELECT file_id FROM _stale)")
            store.run(con, "DROP TABLE _stale")
        if touched_mtime:               # same content, new mtime: one bulk update
            import pyarrow as pa
            name = f"_touched_{time.monotonic_ns()}"
            con.register(name, pa.table({"path": [r.path for r in touched_mtime],
                                         "mtime": [r.mtime for r in touched_mtime]}))
            try:
                store.run(con, f"UPDATE files SET mtime = t.mtime FROM {name} t WHERE files.path = t.path")
            finally:
                con.unregister(name)
        _insert_chunks(con, chunks)
        if report.changed_paths:
            _mark_out_of_line_methods(con)
        t_resolve = time.perf_counter()
        if resolve:
            from .resolve import resolve_edges
            resolve_edges(con, report.changed_paths, progress=progress)
        elif stale_ids:                 # rows were replaced or removed: unbind what pointed there
            _unbind_stale(con)
        elif report.changed_paths:      # only additions: nothing can point at a removed symbol
            store.run(con, "DELETE FROM meta WHERE key = 'resolver_version'")
        store.run(con, "COMMIT")
    except BaseException:
        store.run(con, "ROLLBACK")
        raise
    t_end = time.perf_counter()
    report.timings = {"extract": t_store - t_extract, "store": t_resolve - t_store,
                      "resolve": t_end - t_resolve}
    counts = store.one(con, """SELECT (SELECT count(*) FROM files), (SELECT count(*) FROM symbols),
                                      (SELECT count(*) FROM edges)""")
    report.files, report.symbols, report.edges = counts
    report.by_status = dict(con.execute("SELECT status, count(*) FROM files GROUP BY 1").fetchall())
    return report


def _mark_out_of_line_methods(con) -> None:
    """Languages with `out_of_line_methods` (C++): a function defined outside its class
    (`void geo::Circle::area() {...}`, qualname `...geo.Circle.area` under a namespace or
    the module) is a `method` when a method of the same name, module prefix aside, is
    declared in a class anywhere in the repository (`geometry.hpp` for `geometry.cpp`,
    `include/geo.h` for `src/geo.cpp`); otherwise, or once that declaration is gone, a
    `function`. Recomputed over the whole table, so a re-index equals a fresh index."""
    langs = [s.name for s in SPECS.values() if s.out_of_line_methods]
    if not langs:
        return
    store.run(con, """
        CREATE OR REPLACE TEMP TABLE _ool AS
        WITH cand AS (
            SELECT s.symbol_id, substr(s.qualname, length(f.module) + 2) AS cname
            FROM symbols s JOIN files f USING (file_id) JOIN symbols p ON p.symbol_id = s.parent_id
            WHERE list_contains($langs, s.language) AND s.kind IN ('function', 'method')
              AND p.kind IN ('module', 'namespace')
              AND s.qualname <> p.qualname || '.' || s.name),
        decl AS (
            SELECT DISTINCT substr(s.qualname, length(f.module) + 2) AS cname
            FROM symbols s JOIN files f USING (file_id) JOIN symbols p ON p.symbol_id = s.parent_id
            WHERE list_contains($langs, s.language) AND s.kind = 'method'
              AND p.kind IN ('class', 'struct', 'interface', 'union'))
        SELECT c.symbol_id, CASE WHEN d.cname IS NULL THEN 'function' ELSE 'method' END AS kind
        FROM cand c LEFT JOIN decl d USING (cname)""", {"langs": langs})
    store.run(con, """UPDATE symbols SET kind = o.kind FROM _ool o
                      WHERE symbols.symbol_id = o.symbol_id AND symbols.kind <> o.kind""")
    store.run(con, "DROP TABLE _ool")


def _unbind_stale(con) -> None:
    """Without cross-file resolution: no edge may keep pointing at a symbol that is gone,
    and the next resolving run must resolve everything."""
    store.run(con, """UPDATE edges SET dst_id = NULL, dst_qualname = NULL, candidates = NULL,
                             resolution = 'unresolved'
                      WHERE dst_id IS NOT NULL AND dst_id NOT IN (SELECT symbol_id FROM symbols)""")
    store.run(con, "DELETE FROM meta WHERE key = 'resolver_version'")


def _insert_chunks(con, chunks: list[_Chunk]) -> None:
    """Give the chunks' local rows global ids and bulk-insert them: file ids in processing
    order, symbol ids as per-file base + local index (one vectorised add per column)."""
    import numpy as np
    import pyarrow as pa
    import pyarrow.compute as pc
    fid = store.next_id(con, "files", "file_id")
    sid = store.next_id(con, "symbols", "symbol_id")
    eid = store.next_id(con, "edges", "edge_id")
    files = []
    parts = {t: [] for t in ("symbols", "edges", "imports", "bindings")}
    # file and symbol ids in path order, whatever order the files were processed in: the
    # same tree gets the same ids with one process or many (edge ids follow processing
    # order; within a file they follow the source)
    order = sorted(((r.path, k, i) for k, chunk in enumerate(chunks)
                    for i, r in enumerate(chunk.results) if not r.unchanged))
    ids = {}
    for path, k, i in order:
        r = chunks[k].results[i]
        spec = SPECS.get(r.language) if r.language else None
        files.append((fid, r.path, r.language, r.size, r.line_count, r.sha256, r.mtime,
                      r.status, r.rows.error_count if r.rows is not None else 0,
                      r.skip_reason, r.encoding, r.message, module_path(r.path, spec)))
        ids[(k, i)] = (fid, sid)
        sid += r.n_symbols
        fid += 1
    # per result of every chunk (flattened): its file id, id base, path and language
    offsets, flat = [], []
    for k, chunk in enumerate(chunks):
        offsets.append(len(flat))
        flat.extend((k, i) for i in range(len(chunk.results)))
    got = [ids.get(key) for key in flat]
    ctx = (pa.array(np.array([g[0] if g else -1 for g in got], dtype=np.int64)),
           pa.array(np.array([g[1] if g else 0 for g in got], dtype=np.int64)),
           pa.array([chunks[k].results[i].path if g else None for (k, i), g in zip(flat, got)],
                    pa.string()),
           pa.array([chunks[k].results[i].language if g else None for (k, i), g in zip(flat, got)],
                    pa.string()))
    for k, chunk in enumerate(chunks):
        for name, tbl in chunk.tables.items():
            parts[name].append((tbl, offsets[k]))

    def derive(name):
        """Concatenated local rows of one table and, per row, its file id, id base, path, language."""
        if not parts[name]:
            return None, (None, None, None, None)
        tbl = pa.concat_tables([t for t, _ in parts[name]]).combine_chunks()
        idx = np.concatenate([t.column("_file").to_numpy() + off for t, off in parts[name]])
        return tbl, [pc.take(values, pa.array(idx)) for values in ctx]

    def glob(base, local):
        return pc.add(local, base)      # nulls (no parent / no target) stay null

    store.insert_columns(con, "files", dict(zip(store.FILE_COLS, (list(c) for c in zip(*files))))
                         if files else {})
    tbl, (fids, base, path, lang) = derive("symbols")
    if tbl is not None:
        c = tbl.column
        store.insert_columns(con, "symbols", {
            "symbol_id": glob(base, c("local")), "file_id": fids, "path": path, "language": lang,
            "kind": c("kind"), "name": c("name"), "qualname": c("qualname"),
            "parent_id": glob(base, c("parent_local")),
            **{k: c(k) for k in ("start_line", "end_line", "start_byte", "end_byte", "signature",
                                 "doc", "decorators", "visibility", "is_truncated",
                                 "is_declaration", "body_start_line")}})
    tbl, (fids, base, path, lang) = derive("edges")
    if tbl is not None:
        c = tbl.column
        n = tbl.num_rows
        store.insert_columns(con, "edges", {
            "edge_id": pa.array(np.arange(eid, eid + n, dtype=np.int64)),
            "src_id": glob(base, c("src_local")), "kind": c("kind"), "dst_name": c("dst_name"),
            "dst_id": glob(base, c("dst_local")), "dst_qualname": c("dst_qualname"), "path": path,
            "line": c("line"), "resolution": c("resolution"),
            "candidates": pa.nulls(n, pa.list_(pa.string()))})
    tbl, (fids, base, path, lang) = derive("imports")
    if tbl is not None:
        c = tbl.column
        store.insert_columns(con, "imports", {
            "file_id": fids, "path": path, "src_id": glob(base, c("src_local")),
            "module": c("module"), "name": c("name"), "alias": c("alias"), "line": c("line"),
            "resolved_path": pa.nulls(tbl.num_rows, pa.string())})
    tbl, (fids, base, path, lang) = derive("bindings")
    if tbl is not None:
        c = tbl.column
        store.insert_columns(con, "bindings", {
            "file_id": fids, "path": path, "src_id": glob(base, c("src_local")),
            "kind": c("kind"), "name": c("name"), "value": c("value"),
            "value_type": c("value_type"), "value_id": glob(base, c("value_local")),
            "line": c("line")})
