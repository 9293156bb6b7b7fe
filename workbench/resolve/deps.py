"""What each file's resolution read, and which files a change makes stale.

While a file's edges are evaluated, the evaluator notes what it reads (`memo.Memo`): the
files whose symbols, bindings or imports it looked at, and *name tokens* for the indexes
it consulted by name, where a change anywhere can change the answer:

=======================  ===========================================================
``a:NAME``               argument rows of calls to something named NAME (values that
                         flow into parameters)
``A:NAME``               the same rows, found too many to follow: read by an evaluation
                         that took none of them, as it would after more such calls
``g:NAME``               decorators named NAME (Python)
``s:NAME``               classes whose written bases end in NAME (subclass lookups)
``e:NAME``               containers filled through an attribute NAME of another object
                         (`obj.NAME.append(f)`, Python: `Members.filled_outside`)
``b:FAMILY:NAME``        definitions named NAME (guesses by name, bases by name)
``c:NAME``               C / C++ functions and macros named NAME
``r:NAME``               Rust macros named NAME
``p:PACKAGE``            the files of a Java package
``d:DIRECTORY``          the files of a Go package
=======================  ===========================================================

Each file in turn *provides* tokens (the names its rows put into those indexes, and
``f:PATH`` for files whose types it adds members to: Rust `impl` blocks, Go methods).
Both are kept in the table `resolve_deps`. After an edit, the files to resolve again are
the edited ones, those that read an edited file or a file it provides members to, and
those that read a token the edited files provide (before or after the edit), but for
``A:NAME`` when the edit removed or changed no argument row of a call to NAME (only added
some: too many before, too many after). Adding or
removing a file changes which names exist (modules, packages, specifiers) and resolves
everything.

A file that read an edited file is left alone when the edit only *added* facts nobody can
reach: the indexer takes the edited files' rows before it replaces them
(`quiet.before_edit`), and `affected` asks the module `quiet` which of those edits no
other file can see (`quiet.quiet`).
"""
from __future__ import annotations

import hashlib
import re
from collections import Counter, defaultdict
from dataclasses import dataclass

import pyarrow as pa

from .. import store
from .argrows import ARG_ROWS_MAX
from .kinds import CALL_TARGET_KINDS, CLASS_KINDS, FUNCTION_KINDS
from .lang import FAMILIES
from .model import Model
from . import changedrows, quiet

_NAMED = CALL_TARGET_KINDS | CLASS_KINDS
_DECORATED = FUNCTION_KINDS | CLASS_KINDS
# the callee's last name of an `arg` binding row, as `Model` computes it
_ARG_KEY = Model._ARG_KEY
# ... and in Python, for the rows of `quiet.facts` (the same leftmost match)
_CALL_KEY_RE = re.compile(r"^(?:[A-Za-z0-9_$]*[.])*([A-Za-z_$][A-Za-z0-9_$]*)[(].*[)]#[^#]*$")
_ARG_KEY_RE = re.compile(r"([A-Za-z_$][A-Za-z0-9_$]*)[^A-Za-z0-9_$#]*#[^#]*$")


def provides(con, m: Model, paths) -> dict[str, dict[str, str]]:
    """What each of `paths` puts into the indexes evaluation reads by name: path -> token
    -> a digest of the facts behind it (qualnames and texts, never ids or lines, so an
    edit elsewhere in the file leaves it alone). Kept in the model: an incremental run asks
    for the changed files' twice (`affected`, `write`)."""
    known = m.ext.setdefault("deps.provides", {})
    todo = set(paths) - known.keys()
    if todo:
        got = _provides(con, m, todo)
        for path in todo:
            known[path] = got.get(path, {})
    return {path: known[path] for path in sorted(set(paths)) if known[path]}


# files whose facts are gathered at a time: a full run's facts and argument rows at once
# took ~150 MB on the standard library (267,000 `arg` rows as Python tuples, then texts)
_PROVIDES_GROUP = 256


def _provides(con, m: Model, paths: set[str]) -> dict[str, dict[str, str]]:
    ordered = sorted(paths)
    out: dict[str, dict[str, str]] = {}
    # the argument rows of the files a refresh read again (`Model.refresh`): no query
    held = m.ext.get("deps.arg_rows")
    for i in range(0, len(ordered), _PROVIDES_GROUP):
        group = set(ordered[i:i + _PROVIDES_GROUP])
        args = held if held is not None and group <= held.keys() else None
        out.update(_provides_group(con, m, group, args))
    return out


def _provides_group(con, m: Model, paths: set[str], args: dict | None = None) -> dict[str, dict[str, str]]:
    facts: dict[str, dict[str, list[str]]] = defaultdict(lambda: defaultdict(list))
    kinds, names, fams, quals, paths_of = m.kind, m.name, m.fam, m.qual, m.path
    decos, bases_written = m.decos, m.bases_written
    cur, mine = None, None
    for sid in m.symbols_in(paths):           # by path: one `facts` lookup per file
        path = paths_of[sid]
        if path != cur:
            cur, mine = path, facts[path]
        kind = kinds.get(sid)
        if kind in _NAMED:
            mine[f"b:{fams.get(sid)}:{names.get(sid)}"].append(f"{quals.get(sid)}|{kind}")
        if sid in decos and kind in _DECORATED and fams.get(sid) == "python":
            for dec in decos[sid]:
                base = dec.lstrip("@").strip().split("(", 1)[0].rsplit(".", 1)[-1]
                mine["g:" + base].append(f"{quals.get(sid)}|{dec}")
        if sid in bases_written:
            qual = quals.get(sid)
            for base in bases_written[sid]:
                mine["s:" + base.rsplit(".", 1)[-1]].append(f"{qual}|{base}")
    for rules in FAMILIES.values():
        for path, tokens in rules.provides(m, paths).items():
            for token, items in tokens.items():
                facts[path][token].extend(items)
    if args is not None:            # the model's rows (`_model_args`): no query
        for path in paths:
            mine = facts[path] if path in args else None
            # (a key's rows, and a scope's, mostly come one after another: their token's
            # list and the scope's qualname looked up once for them)
            last_key = last_scope = items = sq = None
            for key, (scope, _, name, value, vtype, vid, _) in args.get(path, ()):
                if key is not last_key:
                    last_key, items = key, mine["a:" + key]
                if scope != last_scope:
                    last_scope, sq = scope, quals.get(scope)
                items.append(f"{sq}|{name}|{value}|{vtype}|{quals.get(vid) if vid is not None else ''}")
    elif paths:
        rows = store.run(con, f"""
            SELECT path, src_id, {_ARG_KEY}, name, value, value_type, value_id FROM bindings
            WHERE kind = 'arg' AND path IN (SELECT unnest($paths::VARCHAR[]))""", {"paths": sorted(paths)})
        scope_qual: dict = {}
        for path, src, key, name, value, vtype, vid in rows:
            if key:
                sq = scope_qual.get(src, scope_qual)
                if sq is scope_qual:
                    sq = scope_qual[src] = quals.get(m.ns(src))
                facts[path]["a:" + key].append(
                    f"{sq}|{name}|{value}|{vtype}|{quals.get(vid) if vid is not None else ''}")
    return {path: {token: _digest(items) for token, items in tokens.items()}
            for path, tokens in facts.items()}


def _digest(items: list[str]) -> str:
    text = items[0] if len(items) == 1 else "\n".join(sorted(items))
    return hashlib.blake2b(text.encode("utf-8", "surrogatepass"), digest_size=8).hexdigest()


def needs_full(con, changed: list[str]) -> bool:
    """Whether a change adds or removes files (or the reads of earlier runs are unknown)."""
    if not changed:
        return False
    rows = store.run(con, """
        SELECT count(*) FILTER (WHERE f.path IS NULL OR d.path IS NULL)
        FROM (SELECT unnest($chg::VARCHAR[]) AS path) c
        LEFT JOIN (SELECT path FROM files WHERE status <> 'skipped') f USING (path)
        LEFT JOIN resolve_deps d USING (path)""", {"chg": sorted(set(changed))})
    return rows[0][0] > 0


def affected(con, m: Model, changed: list[str], before: quiet.Before | None = None,
             into: EdgesInto | None = None) -> set[str]:
    """Files an edit of `changed` can change the edges of (see the module doc), and the
    files holding an edge into a symbol that is gone and has no unique successor
    (`rebind`). `before`: the changed files before the edit (`quiet.before_edit`); the
    readers of those whose edit is quiet (`quiet.quiet`) are left alone. `into`: the edges
    into the changed files' symbols read beforehand (`edges_into`), for `rebind`."""
    chg = sorted(set(changed))
    if before is not None and before.paths != chg:
        before = None                   # not every changed file: what is gone is not known
    if before is None:
        m.row_texts = None              # the changed files' new texts are not at hand
    # the changed files' rows a refresh of the model read (their facts now, without a query)
    rows = m.ext.pop(changedrows.KEY, None)
    after = quiet.facts(con, before.facts, rows=rows) if before is not None else None
    hushed = quiet.quiet(con, before.facts, m, after) if before is not None else set()
    gone_ids = before.symbol_ids if before is not None else None
    was: set[str] = set()
    for toks in _deps_column(con, m, chg, "provides"):
        was |= set(toks or ())
    now = {f"{t}={d}" for tokens in provides(con, m, chg).values() for t, d in tokens.items()}
    moved = {t.rsplit("=", 1)[0] for t in was ^ now}
    files = sorted((set(chg) - hushed) | {t[2:] for t in moved if t.startswith("f:")})
    names = sorted(t for t in moved if not t.startswith("f:"))
    # the readers that found too many calls by a name to follow (``A:NAME``) find too many
    # again after an edit that only added such calls, or that leaves too many
    args = {t[2:] for t in moved if t.startswith("a:")}
    if before is not None:
        args &= _arg_keys_removed(before.facts, after)
    names += sorted("A:" + k for k in args - _crowded(con, m, args))
    known = into.rows_for(gone_ids, chg) if into is not None and gone_ids is not None else None
    unbound = rebind(con, gone_ids, m, known)
    return set(chg) | _readers(con, m, files, names) | unbound


def _crowded(con, m: Model, keys: set[str]) -> set[str]:
    """The callee keys among `keys` with more argument rows than evaluation follows
    (`argrows.ARG_ROWS_MAX`): each function an evaluation follows through the rows of such a
    key gets nothing from them. Counted as the model counts (`Model.arg_rows`: rows in a
    scope), from the table (~10 ms per key on the standard library)."""
    if not keys:
        return set()
    got = store.run(con, f"""
        SELECT key, src_id FROM (SELECT {_ARG_KEY} AS key, src_id FROM bindings
                                 WHERE kind = 'arg' AND ({' OR '.join('contains(name, ?)' for _ in keys)}))
        WHERE key IN (SELECT unnest(?::VARCHAR[]))""", [*sorted(keys), sorted(keys)])
    counts: Counter = Counter(key for key, src in got if m.ns(src) is not None)
    return {key for key, n in counts.items() if n > ARG_ROWS_MAX}


def _arg_keys_removed(before: dict[str, Counter], after: dict[str, Counter]) -> set[str]:
    """The callee keys (``a:NAME``) of the argument rows an edit removed or changed: the
    rows of `before` (`quiet.facts`) that `after` lacks, their lines aside (an edit above a
    call moves it; its argument is the same)."""
    out: set[str] = set()
    for path, old in before.items():
        new = after.get(path, Counter())
        gone = _arg_rows_of(old) - _arg_rows_of(new)
        out.update(key for key, *_ in gone)
    return out


def _arg_rows_of(rows: Counter) -> Counter:
    """The argument rows among `rows` (`quiet.facts`) by callee key, without their lines."""
    out: Counter = Counter()
    for row, n in rows.items():
        if row[0] == "b" and row[2] == "arg":
            got = _CALL_KEY_RE.search(row[3] or "") or _ARG_KEY_RE.search(row[3] or "")
            if got:
                out[(got.group(1), *row[1:7])] += n
    return out


def _readers(con, m: Model | None, files: list[str], names: list[str]) -> set[str]:
    """The files whose `resolve_deps` row holds one of `files` in its files or one of
    `names` in its names: from the model's copy of the table (`Model.deps_rows`) when it
    holds one, through Arrow's kernels on its lists (~2.5 ms of CPU on the standard
    library, the query ~7 ms), else from the table."""
    rows = m.deps_rows if m is not None else None
    if rows is None:
        # the lists unnested (a third less than `list_has_any` on each row's lists)
        return {r[0] for r in store.run(con, """
            SELECT path FROM (SELECT path, unnest(files) AS x FROM resolve_deps)
            WHERE x IN (SELECT unnest($files::VARCHAR[]))
            UNION SELECT path FROM (SELECT path, unnest(names) AS x FROM resolve_deps)
            WHERE x IN (SELECT unnest($names::VARCHAR[]))""", {"files": files, "names": names})}
    import pyarrow.compute as pc
    out: set[str] = set()
    at = rows.schema.get_field_index("path")
    for column, wanted in (("files", files), ("names", names)):
        if not wanted:
            continue
        want, k = store.arrow_array(wanted, pa.string()), rows.schema.get_field_index(column)
        for batch in rows.to_batches():     # (a slice's parent indices count from its start)
            lists = batch.column(k)
            hit = pc.is_in(pc.list_flatten(lists), value_set=want)
            if hit.true_count:
                out.update(batch.column(at).take(pc.list_parent_indices(lists).filter(hit)).to_pylist())
    return out


def previous_reads(con, paths, m: Model | None = None) -> tuple[set[str], set[str]]:
    """The files and the argument callee names (``a:NAME``) the last resolution of `paths`
    read: what resolving them again most likely reads (`Model.prefetch`). `m`: the run's
    model, whose copy of the table (`Model.deps_rows`) is read when it holds one."""
    files, keys = set(paths), set()
    for fs, names in _deps_columns(con, m, sorted(paths), ("files", "names")):
        files.update(fs or ())
        keys.update(n[2:] for n in names or () if n.startswith(("a:", "A:")))
    return files, keys


def _deps_column(con, m: Model | None, paths: list[str], column: str) -> list:
    """The values of `column` of the `resolve_deps` rows of `paths` (`_deps_columns`)."""
    return [row[0] for row in _deps_columns(con, m, paths, (column,))]


def _deps_columns(con, m: Model | None, paths: list[str], columns: tuple[str, ...]) -> list[tuple]:
    """The values of `columns` of the `resolve_deps` rows of `paths` (those it has), a tuple
    per row in the order of `paths`: from the model's copy of the table (`Model.deps_rows`)
    when it holds one (a row's lists in the table are fetched whole, ~3 ms each on the
    standard library), else from the table, in one query."""
    kept_rows = m.deps_rows if m is not None else None
    if kept_rows is None:
        got = {row[0]: row[1:] for row in store.run(
            con, f"""SELECT path, {', '.join(columns)} FROM resolve_deps
                     WHERE path IN (SELECT unnest($p::VARCHAR[]))""", {"p": paths})}
        return [got[p] for p in paths if p in got]
    at = m.ext.get("deps.rows_at")
    if at is None:
        at = m.ext["deps.rows_at"] = {p: i for i, p in enumerate(kept_rows.column("path").to_pylist())}
    cols = [kept_rows.column(c) for c in columns]
    return [tuple(col[at[p]].as_py() for col in cols) for p in paths if p in at]


@dataclass
class EdgesInto:
    """The edges into the symbols of the files `paths` (`ids`) as a cursor read them before
    the run wrote anything (`edges_into`, in the prefetch's thread): (edge id, path, target
    qualname) rows. The run's own writes by the time `rebind` reads them replace only
    those files' edges, whose new rows point at their new symbols: the rows of the other
    files are the run's (`rows_for`)."""
    paths: list[str]
    ids: list[int]
    rows: list[tuple]

    def rows_for(self, gone_ids: list[int], changed: list[str]) -> list[tuple] | None:
        """`rebind`'s rows for the symbols `gone_ids` after an edit of the files `changed`,
        when these were read for those symbols of those files (else None)."""
        if sorted(set(changed)) != self.paths or sorted(gone_ids) != self.ids:
            return None
        mine = set(self.paths)
        return [row for row in self.rows if row[1] not in mine]


def edges_into(con, paths) -> EdgesInto:
    """`EdgesInto` the symbols of the files `paths` as `con` reads the tables."""
    paths = sorted(set(paths))
    ids = sorted(r[0] for r in store.run(con, """SELECT symbol_id FROM symbols
                                                WHERE path IN (SELECT unnest($p::VARCHAR[]))""", {"p": paths}))
    rows = store.run(con, """SELECT edge_id, path, dst_qualname FROM edges
                             WHERE dst_id IN (SELECT unnest($ids::BIGINT[]))""", {"ids": ids}) if ids else []
    return EdgesInto(paths, ids, rows)


def rebind(con, gone_ids: list[int] | None = None, m: Model | None = None,
           rows: list[tuple] | None = None) -> set[str]:
    """Edges into a re-indexed file point at symbol ids that are gone (its symbols got new
    ids). What such an edge means changes only if its file read the edit (a file or a
    name token above, and then the file is resolved again); otherwise it keeps its target
    qualname, and when exactly one symbol has that qualname now, the edge takes its id,
    as a fresh resolution would give it. The rest stay pointing nowhere and their files
    are resolved again. Candidates are qualnames: `call_candidates` takes the new ids
    when it is rebuilt (`writeback._write_candidates`). Returns the files of the edges that
    still point nowhere. `gone_ids`: the ids of every symbol that is gone, when known
    (`Before`): the edges into them are looked up instead of scanned for. `m`: the model
    of the run, refreshed, whose symbols by qualname (`Model.with_qualnames`) stand for
    the table's. `rows`: the edges into `gone_ids` as the query below reads them, read
    beforehand (`EdgesInto.rows_for`)."""
    # the edges into symbols that are gone, once (an anti join over the edges), then the
    # symbols of their qualnames only; few rows: read into Python, no temporary tables
    if gone_ids is not None:
        if not gone_ids:
            return set()
        if rows is None:
            rows = store.run(con, """SELECT edge_id, path, dst_qualname FROM edges
                                     WHERE dst_id IN (SELECT unnest($ids::BIGINT[]))""", {"ids": gone_ids})
    else:
        rows = store.run(con, """
            SELECT e.edge_id, e.path, e.dst_qualname FROM edges e
            ANTI JOIN symbols s ON s.symbol_id = e.dst_id
            WHERE e.dst_id IS NOT NULL""")
    if not rows:
        return set()
    quals = sorted({q for _, _, q in rows if q is not None})
    if m is not None:
        unique = {q: ids[0] for q, ids in m.with_qualnames(quals).items() if len(ids) == 1}
    else:
        unique = {q: sid for q, sid, n in store.run(con, """
                      SELECT qualname, min(symbol_id), count(*) FROM symbols
                      WHERE qualname IN (SELECT unnest($q::VARCHAR[])) GROUP BY qualname""", {"q": quals})
                  if n == 1}
    now = [(eid, unique[q]) for eid, _, q in rows if q in unique]
    if now:
        store.run_over(con, pa.table({"edge_id": store.arrow_array([e for e, _ in now], pa.int64()),
                                      "symbol_id": store.arrow_array([s for _, s in now], pa.int64())}),
                       "UPDATE edges SET dst_id = t.symbol_id FROM _wb_rows t WHERE edges.edge_id = t.edge_id")
    return {path for _, path, q in rows if q not in unique}


def write(con, m: Model, reads: dict[str, tuple[int, set]], full: bool,
          provided: tuple[list[str], pa.ChunkedArray] | None = None) -> None:
    """Store what the resolved files read and provide (all rows in a full run).
    `provided`: `provides_column` of a full run worked out earlier (its paths, the column);
    used when its paths are those of `reads`."""
    paths = sorted(reads)
    by_bit = sorted(m.file_index.items(), key=lambda kv: kv[1])
    names_of_bits = [p for p, _ in by_bit]
    if full:
        # every file's tokens, kept in the model for nothing: the next run's refresh starts
        # `ext` afresh, and letting ~5,000 files' go there cost that run ~7 ms
        m.ext.pop("deps.provides", None)
        prov_col = (provided[1] if provided is not None and provided[0] == paths
                    else provides_column(con, m, paths)[1])
    else:
        prov = provides(con, m, paths)
        prov_col = [_provides_texts(prov.get(p)) for p in paths]
    files_col, names_col = [], []
    for p in paths:
        bits, names = reads[p]
        files_col.append([names_of_bits[i] for i in _bit_indexes(bits)])
        names_col.append(sorted(names))
    if full:
        store.run(con, "DELETE FROM resolve_deps")
    else:
        store.run(con, "DELETE FROM resolve_deps WHERE path IN (SELECT unnest($p::VARCHAR[]))", {"p": paths})
    if paths:
        tbl = pa.table({"path": store.arrow_array(paths, pa.string()),
                        "files": store.arrow_array(files_col, pa.list_(pa.string())),
                        "names": store.arrow_array(names_col, pa.list_(pa.string())),
                        "provides": (prov_col if isinstance(prov_col, pa.ChunkedArray)
                                     else store.arrow_array(prov_col, pa.list_(pa.string())))})
        store.insert_columns(con, "resolve_deps", {n: tbl.column(n) for n in tbl.column_names})
    # the model's copy of the table (`Model.deps_rows`): the rows written, in place of theirs
    m.ext.pop("deps.rows_at", None)
    if full:
        m.deps_rows = tbl if paths else None
    elif m.deps_rows is not None and paths:
        m.deps_rows = _replaced(m.deps_rows, set(paths), tbl)


#: the model's copy of `resolve_deps` is made one chunk again past this many chunks
_DEPS_CHUNKS_MAX = 32


def _replaced(rows: pa.Table, written: set[str], tbl: pa.Table) -> pa.Table:
    """`rows` (a copy of `resolve_deps`) without the rows of the paths `written`, then the
    rows `tbl`: slices of it around the rows replaced, no copy of the lists (a `take` of
    every other row and one chunk again took ~10-40 ms on the standard library); one chunk
    again once it holds `_DEPS_CHUNKS_MAX` chunks."""
    parts, at = [], 0
    for i, p in enumerate(rows.column("path").to_pylist()):
        if p in written:
            if i > at:
                parts.append(rows.slice(at, i - at))
            at = i + 1
    if at < rows.num_rows:
        parts.append(rows.slice(at))
    out = pa.concat_tables([*parts, tbl])
    return out.combine_chunks() if out.column(0).num_chunks > _DEPS_CHUNKS_MAX else out


def provides_column(con, m: Model, paths) -> tuple[list[str], pa.ChunkedArray]:
    """What each of `paths` provides (`provides`) as `write` stores it: the paths sorted,
    and per path its `token=digest` texts, sorted, as an Arrow column, worked out
    `_PROVIDES_GROUP` files at a time, not kept in the model. A model that holds every
    argument row (a full run's, `Model.holds_every_arg_row`) gives them without a query
    (`con` may be None then: a full run's resolution helper works this out, `passes`)."""
    ordered = sorted(set(paths))
    args = _model_args(m) if m.holds_every_arg_row() else None
    chunks = []
    for i in range(0, len(ordered), _PROVIDES_GROUP):
        group = ordered[i:i + _PROVIDES_GROUP]
        got = _provides_group(con, m, set(group), args)
        chunks.append(store.arrow_array([_provides_texts(got.get(p)) for p in group],
                                        pa.list_(pa.string())))
        del got
    return ordered, pa.chunked_array(chunks, type=pa.list_(pa.string()))


def _model_args(m: Model) -> dict[str, list[tuple]]:
    """The argument rows with a callee key, as the model holds them, by the file of their
    scope (a binding's file: its scope is in it): path -> (callee key, row)."""
    out: dict[str, list[tuple]] = defaultdict(list)
    path_of = m.path
    for key, rows in m.args_by_callee.items():
        for row in rows:
            out[path_of.get(row[0])].append((key, row))
    return out


def _provides_texts(tokens: dict[str, str] | None) -> list[str]:
    return sorted(f"{t}={d}" for t, d in (tokens or {}).items())


def _bit_indexes(bits: int):
    while bits:
        low = bits & -bits
        i = low.bit_length() - 1
        yield i
        bits ^= low


__all__ = ["provides", "provides_column", "needs_full", "affected", "previous_reads", "rebind", "write",
           "EdgesInto", "edges_into"]
