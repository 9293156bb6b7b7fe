"""Pause Python's cyclic garbage collector around allocation-heavy work.

Extraction and resolution build millions of small tuples, dicts and tree-sitter nodes that
hold no reference cycles; with the collector on, each generation-2 pass walks all the live
ones again (extracting the standard library takes about 13 s of CPU with it, 8 s without).
Reference counting still frees everything; cycles made meanwhile wait until it resumes.
"""
from __future__ import annotations

import gc
from contextlib import contextmanager


# the collector's state each open `gc_paused` block found, outermost first
_FOUND: list[bool] = []


@contextmanager
def gc_paused():
    """Disable the cyclic collector inside the block (nesting-safe: restores the state it found)."""
    enabled = gc.isenabled()
    _FOUND.append(enabled)
    gc.disable()
    try:
        yield
    finally:
        _FOUND.pop()
        if enabled:
            gc.enable()


def collector_runs() -> bool:
    """Whether the cyclic collector runs in this process outside the `gc_paused` blocks
    now open: False when the program turned it off for good (the CLI's `index` ends the
    process instead), so work meant to spare later collections can be skipped."""
    return _FOUND[0] if _FOUND else gc.isenabled()


_LIBC = None
_DUCKDB_CTL = None
_ALL_ARENAS = 4096          # jemalloc's MALLCTL_ARENAS_ALL: "arena.4096.purge" purges every arena


def _duckdb_mallctl():
    """`mallctl` of the jemalloc that DuckDB links into its own extension module (its Linux
    builds allocate through it, not through the C library's malloc), or None."""
    global _DUCKDB_CTL
    if _DUCKDB_CTL is None:
        _DUCKDB_CTL = False
        import sys
        mod = sys.modules.get("_duckdb") or sys.modules.get("duckdb.duckdb")
        path = getattr(mod, "__file__", None)
        if path:
            try:
                import ctypes
                ctl = ctypes.CDLL(path).duckdb_je_mallctl
                ctl.argtypes = [ctypes.c_char_p, ctypes.c_void_p, ctypes.c_void_p, ctypes.c_void_p,
                                ctypes.c_size_t]
                ctl.restype = ctypes.c_int
                _DUCKDB_CTL = ctl
            except (OSError, AttributeError):   # another platform, or a build without jemalloc
                pass
    return _DUCKDB_CTL or None


def release_unused_memory() -> None:
    """Hand memory the allocators keep for reuse back to the system: Arrow's pool (it keeps
    freed pages by default), DuckDB's jemalloc (it keeps the pages its queries freed -
    a sort, a result converted to Arrow - until its decay clock purges them, and that
    clock only moves while DuckDB allocates: after the model's queries ~100 MB on the
    standard library) and the C library's heaps (glibc: `malloc_trim`; freed blocks
    below the top of a heap, and whole heaps of other threads, stay mapped otherwise). A
    long run calls it between phases, so the next phase's peak does not stack on the
    garbage of the last one. Does nothing where none applies."""
    import sys
    global _LIBC
    pa = sys.modules.get("pyarrow")
    if pa is not None:
        try:
            pa.default_memory_pool().release_unused()
        except AttributeError:          # an older pyarrow
            pass
    ctl = _duckdb_mallctl()
    if ctl is not None:
        ctl(f"arena.{_ALL_ARENAS}.purge".encode(), None, None, None, 0)
    if _LIBC is None:
        _LIBC = False
        if sys.platform.startswith("linux"):
            try:
                import ctypes
                libc = ctypes.CDLL(None)
                libc.malloc_trim.argtypes = [ctypes.c_size_t]
                _LIBC = libc
            except (OSError, AttributeError):   # not glibc (musl has no malloc_trim)
                pass
    if _LIBC:
        _LIBC.malloc_trim(0)
