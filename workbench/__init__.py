"""Context Workbench: a repository in DuckDB, and exactly what an AI coding agent reads.

    >>> import workbench
    >>> wb = workbench.index("sample_repos/pyshop", db="pyshop.duckdb")
    >>> wb.sql("SELECT kind, count(*) FROM symbols GROUP BY 1").show()
"""
__all__ = ["Corpus", "Workbench", "index", "index_corpus", "open", "open_corpus", "NotAWorkbench",
           "IndexBusy"]
__version__ = "0.1.0"

# where each name of the API lives; imported on first use, so a command that needs one part
# (`workbench index` through `workbench.cli`) does not pay for loading the others
_HOMES = {"NotAWorkbench": "api", "Workbench": "api", "index": "api", "open": "api",
          "Corpus": "corpus", "index_corpus": "corpus", "open_corpus": "corpus",
          "IndexBusy": "snapshot"}


def __getattr__(name: str):
    home = _HOMES.get(name)
    if home is None:
        raise AttributeError(f"module 'workbench' has no attribute {name!r}")
    import importlib
    value = getattr(importlib.import_module(f".{home}", __name__), name)
    globals()[name] = value
    return value


def __dir__():
    return sorted(set(globals()) | set(__all__))
