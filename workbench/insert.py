"""The store step of an index run: the extracted rows of parser chunks (`indexer._Chunk`:
per-file results plus Arrow tables of local ids) given global ids and bulk-inserted into
the files, symbols, edges, imports and bindings tables."""
from __future__ import annotations

from . import store
from .gcpause import release_unused_memory
from .languages import SPECS, module_path

#: a table of at least this many rows hands the memory of its Arrow copies back once it
#: is inserted (`insert_chunks`), so the next table's copies do not stack on them
RELEASE_MIN_ROWS = 50_000


def insert_chunks(con, chunks: list) -> dict[str, str]:
    """Give the chunks' local rows global ids and bulk-insert them: file ids in processing
    order, symbol ids as per-file base + local index (one vectorised add per column).
    Returns the `meta` values saying which ids are handed out now (`store.used_ids_meta`),
    for the caller to write before the run commits."""
    import numpy as np
    import pyarrow as pa
    fid, sid, eid = store.next_ids(con, (("files", "file_id"), ("symbols", "symbol_id"),
                                         ("edges", "edge_id")))
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
    ctx_ids = (np.array([g[0] if g else -1 for g in got], dtype=np.int64),
               np.array([g[1] if g else 0 for g in got], dtype=np.int64))
    ctx_text = ([chunks[k].results[i].path if g else None for (k, i), g in zip(flat, got)],
                [chunks[k].results[i].language if g else None for (k, i), g in zip(flat, got)])
    for k, chunk in enumerate(chunks):
        for name, tbl in chunk.tables.items():
            parts[name].append((tbl, offsets[k]))

    def derive(name):
        """Concatenated local rows of one table and, per row, its file id, id base, path, language."""
        if not parts[name]:
            return None, (None, None, None, None)
        tbl = pa.concat_tables([t for t, _ in parts[name]]).combine_chunks()
        idx = np.concatenate([np_ints(t.column("_file")) + off for t, off in parts[name]])
        return tbl, (store.arrow_array(ctx_ids[0][idx], pa.int64()), ctx_ids[1][idx],
                     *(_take(c, idx) for c in ctx_text))

    def glob(base, local):
        return _plus(local, base)       # nulls (no parent / no target) stay null

    def done(name: str, n: int) -> None:
        """`name`'s rows are in DuckDB: the chunks' Arrow tables of it go (the caller lets
        the chunks go after this), and in a large run the memory they held goes back to
        the system before the next table is put together (the standard library: ~40 MiB
        less at the store's peak)."""
        parts[name] = []
        for chunk in chunks:
            chunk.tables.pop(name, None)
        if n >= RELEASE_MIN_ROWS:
            release_unused_memory()

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
        n, tbl = tbl.num_rows, None
        c = fids = base = path = lang = None
        done("symbols", n)
    tbl, (fids, base, path, lang) = derive("edges")
    n_edges = tbl.num_rows if tbl is not None else 0
    used = store.used_ids_meta(files=fid - 1, symbols=sid - 1, edges=eid + n_edges - 1)
    if tbl is not None:
        c = tbl.column
        n = tbl.num_rows
        store.insert_columns(con, "edges", {
            "edge_id": store.arrow_array(np.arange(eid, eid + n, dtype=np.int64), pa.int64()),
            "src_id": glob(base, c("src_local")), "kind": c("kind"), "dst_name": c("dst_name"),
            "dst_id": glob(base, c("dst_local")), "dst_qualname": c("dst_qualname"), "path": path,
            "line": c("line"), "resolution": c("resolution"),
            "candidates": pa.nulls(n, pa.list_(pa.string()))})
        tbl = c = fids = base = path = lang = None
        done("edges", n)
    tbl, (fids, base, path, lang) = derive("imports")
    if tbl is not None:
        c = tbl.column
        store.insert_columns(con, "imports", {
            "file_id": fids, "path": path, "src_id": glob(base, c("src_local")),
            "module": c("module"), "name": c("name"), "alias": c("alias"), "line": c("line"),
            "resolved_path": pa.nulls(tbl.num_rows, pa.string())})
        n, tbl = tbl.num_rows, None
        c = fids = base = path = lang = None
        done("imports", n)
    tbl, (fids, base, path, lang) = derive("bindings")
    if tbl is not None:
        c = tbl.column
        store.insert_columns(con, "bindings", {
            "file_id": fids, "path": path, "src_id": glob(base, c("src_local")),
            "kind": c("kind"), "name": c("name"), "value": c("value"),
            "value_type": c("value_type"), "value_id": glob(base, c("value_local")),
            "line": c("line")})
    return used


def _take(values: list, idx):
    """`values[i] for i in idx` as an Arrow string array (pyarrow.compute, whose import
    costs a cold start more than a small repository's whole index, only for large runs)."""
    import pyarrow as pa
    if len(idx) > store.PANDAS_FREE_MAX:
        import pyarrow.compute as pc    # (`pa.array` would import pandas: ~35 MB held)
        return pc.take(store.arrow_array(values, pa.string()), store.arrow_array(idx, pa.int64()))
    return store.arrow_array([values[i] for i in idx.tolist()], pa.string())


def np_ints(col):
    """The values of an integer Arrow array or chunked column without nulls as a numpy array
    (no copy for one chunk; `to_numpy` on a chunked column imports pandas)."""
    import numpy as np
    import pyarrow as pa
    arr = col.combine_chunks() if isinstance(col, pa.ChunkedArray) else col
    return np.frombuffer(arr.buffers()[1], dtype=arr.type.to_pandas_dtype(),
                         count=len(arr) + arr.offset)[arr.offset:]


def _plus(local, base):
    """Local ids + their file's id base (numpy array), nulls kept: one vectorised add."""
    import numpy as np
    import pyarrow as pa
    arr = local.combine_chunks() if isinstance(local, pa.ChunkedArray) else local
    if arr.offset:
        import pyarrow.compute as pc
        return pc.add(arr, pa.array(base))
    validity = arr.buffers()[0]
    vals = np_ints(arr)
    return pa.Array.from_buffers(pa.int64(), len(arr), [validity if arr.null_count else None,
                                                        pa.py_buffer(vals + base)], arr.null_count)
