"""Executors imported on first use: the module's `__getattr__` binds the module-level
name through `global`, so the next lookup finds it without calling `__getattr__`."""

__all__ = ["ProcessPool", "ThreadPool"]


def __getattr__(name):
    global ProcessPool, ThreadPool

    if name == "ProcessPool":
        from .procs import ProcessPool as pp
        ProcessPool = pp
        return pp

    if name == "ThreadPool":
        from .threads import ThreadPool as tp
        ThreadPool = tp
        return tp

    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
