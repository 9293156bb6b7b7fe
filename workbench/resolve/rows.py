"""What evaluation keeps for the write-back, out of Python objects: the evaluated edges
and the changed rows among them as Arrow tables of `_WRITE_BATCH` rows (`_Rows`), the
callback rows evaluation found (`_Rows.add_callback`), and what each file's evaluation
read, packed into one buffer (`_Reads`, for `deps`).
"""
from __future__ import annotations

from array import array
from collections import Counter
from operator import itemgetter

import pyarrow as pa

from .. import store

#: rows per Arrow table of `_Rows.tables` (and of `_Rows.callbacks`): each table is one
#: `UPDATE ... FROM` of an incremental run's write-back (a smaller join each), and what
#: evaluation keeps is never one list of Python objects for every changed row
_WRITE_BATCH = 50_000


class _Rows:
    """The evaluated edges: how many, the resolutions counted, all their ids (and, once
    written, those of the callback rows deleted or inserted: `writeback`), the rows whose
    result differs from what the table holds (the only rows written back), and the
    callback rows evaluation found.

    The rows outlive evaluation, so they are kept out of Python objects: edge ids as
    machine integers (`array`), the changed rows as Arrow tables of `_WRITE_BATCH` rows
    each (a tuple per edge would hold ~80 MB on the standard library; as Python lists
    ~40 MB), a target's own qualname left out (`writeback._write_back` joins it back). Small
    objects made during evaluation and kept past it (strings of external names,
    candidate lists, ids) would also sit among the bindings and the memo and keep the
    allocator's arenas those leave empty from being handed back."""

    __slots__ = ("n", "by_resolution", "edge_ids", "tables", "_ids", "_cols", "_qual", "callbacks", "_cbs")

    def __init__(self, qual: dict | None = None):
        self._qual = qual if qual is not None else {}    # symbol id -> qualname (`Model.qual`)
        self.n = 0
        self.by_resolution: dict[str, int] = {}
        self.edge_ids = array("q")
        self.tables: list[pa.Table] = []    # the changed rows: edge_id, dst_id, dst_qualname, ...
        self._ids = array("q")
        self._cols: tuple[list, list, list, list] = ([], [], [], [])
        # the callback rows of the evaluated files (`fileeval._callback_rows`), a file's
        # rows together: Arrow tables of path, src_id, dst_name, line, dst_id, candidates
        self.callbacks: list[pa.Table] = []
        self._cbs: list[tuple] = []

    def add(self, eid, old_id, old_q, old_res, old_c, dst_id, dst_q, how, cands) -> None:
        """One evaluated edge: its id, what the table holds, what evaluation found."""
        self.add_file([eid], [old_id], [old_q], [old_res], [old_c], [(dst_id, dst_q, how, cands)])

    def add_file(self, eids: list, old_ids: list, old_qs: list, old_res: list, old_cs: list, new: list) -> None:
        """`add` for each edge of a file, in order: its id, what the table holds, and its
        new (dst_id, dst_qualname, resolution, candidates) in `new`."""
        self.n += len(eids)
        self.edge_ids.extend(eids)
        by_res = self.by_resolution
        for how, k in Counter(map(itemgetter(2), new)).items():
            by_res[how] = by_res.get(how, 0) + k
        qual = self._qual
        ids, (c0, c1, c2, c3) = self._ids, self._cols
        for eid, (dst_id, dst_q, how, cands), old_id, old_q, old_r, old_c in zip(
                eids, new, old_ids, old_qs, old_res, old_cs):
            # (what the table holds, compared item by item: no two tuples made per edge)
            if (how != old_r or dst_id != old_id or dst_q != old_q
                    or (cands and list(cands) or None) != old_c):
                ids.append(eid)
                c0.append(dst_id)
                # a symbol's own qualname is left to the write's join with `symbols` (`writeback._write_back`)
                c1.append(None if dst_id is not None and dst_q is qual.get(dst_id) else dst_q)
                c2.append(how)
                c3.append(cands)
                if len(ids) >= _WRITE_BATCH:
                    self.flush()
                    ids, (c0, c1, c2, c3) = self._ids, self._cols

    def add_callback(self, path: str, src: int, text: str, line, dst: int | None, cands,
                     how: str = "callback") -> None:
        """A row resolution adds to file `path` (`how`: `callback`, `implicit`): a call in
        `src` at `line` hands `text`, which is function `dst` of the repository (or one of
        `cands`, qualnames), to an outside function that calls it; or the code there calls
        `dst` without a call expression (`p / q`: `p.__truediv__`)."""
        self._cbs.append((path, src, text, line, dst, cands, how))
        if len(self._cbs) >= _WRITE_BATCH:
            self._flush_callbacks()

    def _flush_callbacks(self) -> None:
        if self._cbs:
            path, src, text, line, dst, cands, how = zip(*self._cbs)
            self.callbacks.append(pa.table({
                "path": store.arrow_array(list(path), pa.string()),
                "src_id": store.arrow_array(list(src), pa.int64()),
                "dst_name": store.arrow_array(list(text), pa.string()),
                "line": store.arrow_array(list(line), pa.int32()),
                "dst_id": store.arrow_array(list(dst), pa.int64()),
                "candidates": store.arrow_array(list(cands), pa.list_(pa.string())),
                "resolution": store.arrow_array(list(how), pa.string())}))
            self._cbs = []

    def flush(self) -> None:
        """The pending changed rows into an Arrow table: the qualname only where it is not
        that of `dst_id`, the resolution dictionary-encoded; the pending callback rows into
        another."""
        self._flush_callbacks()
        if not self._ids:
            return
        import numpy as np
        dst_id, dst_q, how, cands = self._cols
        self.tables.append(pa.table({
            "edge_id": store.arrow_array(np.array(self._ids, dtype=np.int64), pa.int64()),
            "dst_id": store.arrow_array(dst_id, pa.int64()),
            "dst_qualname": store.arrow_array(dst_q, pa.string()),
            "resolution": _dictionary(how),
            "candidates": store.arrow_array(cands, pa.list_(pa.string())),
        }))
        self._ids = array("q")
        self._cols = ([], [], [], [])

    def extend(self, other: "_Rows") -> None:
        """`other`'s rows after these (the evaluation of later files)."""
        self.flush()
        other.flush()
        self.n += other.n
        for how, k in other.by_resolution.items():
            self.by_resolution[how] = self.by_resolution.get(how, 0) + k
        self.edge_ids.extend(other.edge_ids)
        self.tables.extend(other.tables)
        self.callbacks.extend(other.callbacks)

    def __getstate__(self):             # sent by the helper process: without the qualnames
        self.flush()
        return self.n, self.by_resolution, self.edge_ids, self.tables, self.callbacks

    def __setstate__(self, state) -> None:
        self.n, self.by_resolution, self.edge_ids, self.tables, self.callbacks = state
        self._qual, self._ids, self._cols, self._cbs = {}, array("q"), ([], [], [], []), []


def _dictionary(texts: list[str]) -> pa.DictionaryArray:
    """`texts` (a dozen distinct ones) dictionary-encoded, without `pyarrow.compute`
    (`Array.dictionary_encode` imports it: slow to import for a small run)."""
    import numpy as np
    codes: dict[str, int] = {}
    idx = np.fromiter((codes.setdefault(t, len(codes)) for t in texts), dtype=np.int32, count=len(texts))
    return pa.DictionaryArray.from_arrays(store.arrow_array(idx, pa.int32()),
                                          store.arrow_array(list(codes), pa.string()))


class _Reads:
    """What each file's evaluation read (`memo.Memo.end_unit`: file bits and name tokens),
    packed into one buffer as evaluation goes: the tokens are strings made during
    evaluation, and kept as such they would hold on to the memory the memo lets go (see
    `_Rows`). `items` gives them back as (bits, set of tokens)."""

    __slots__ = ("paths", "_buf", "_ends")

    def __init__(self):
        self.paths: list[str] = []
        self._buf = bytearray()
        self._ends = array("q")         # per file: end of its bits, end of its tokens

    def add(self, path: str, bits: int, names) -> None:
        self.paths.append(path)
        self._buf += bits.to_bytes((bits.bit_length() + 8) // 8, "little", signed=True)
        self._ends.append(len(self._buf))
        self._buf += "\0".join(names).encode("utf-8", "surrogatepass")
        self._ends.append(len(self._buf))

    def extend(self, other: "_Reads") -> None:
        """`other`'s files after these."""
        base = len(self._buf)
        self.paths.extend(other.paths)
        self._buf += other._buf
        self._ends.extend(end + base for end in other._ends)

    def __len__(self) -> int:
        return len(self.paths)

    def readers(self, nbits: int):
        """How many of the files read each file: a numpy array by file bit, `nbits` long
        (a file's own bit counts too), from every file's bits at once."""
        import numpy as np
        if not self.paths:
            return np.zeros(nbits, dtype=np.int64)
        ends = np.frombuffer(self._ends, dtype=np.int64).reshape(-1, 2)
        starts = np.concatenate(([0], ends[:-1, 1]))        # each file's bits: starts to ends[:, 0]
        sizes = ends[:, 0] - starts
        first = np.cumsum(sizes) - sizes                    # where each file's bytes begin among all
        at = np.arange(int(sizes.sum())) - np.repeat(first, sizes)     # a byte's place in its file's bits
        data = np.frombuffer(self._buf, dtype=np.uint8)[np.repeat(starts, sizes) + at]
        set_ = np.flatnonzero(data)
        row, bit = np.nonzero(np.unpackbits(data[set_, None], axis=1, bitorder="little"))
        return np.bincount(at[set_][row] * 8 + bit, minlength=nbits)[:nbits]

    def items(self):
        buf, ends, start = self._buf, self._ends, 0
        for k, path in enumerate(self.paths):
            mid, end = ends[2 * k], ends[2 * k + 1]
            bits = int.from_bytes(buf[start:mid], "little", signed=True)
            text = buf[mid:end].decode("utf-8", "surrogatepass")
            yield path, (bits, set(text.split("\0")) if text else set())
            start = end

