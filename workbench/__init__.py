"""Context Workbench: a repository in DuckDB, and exactly what an AI coding agent reads.

    >>> import workbench
    >>> wb = workbench.index("sample_repos/pyshop", db="pyshop.duckdb")
    >>> wb.sql("SELECT kind, count(*) FROM symbols GROUP BY 1").show()
"""
from .api import NotAWorkbench, Workbench, index, open  # noqa: A004  (workbench.open is the API's name)
from .corpus import Corpus, index_corpus, open_corpus
from .snapshot import IndexBusy

__all__ = ["Corpus", "Workbench", "index", "index_corpus", "open", "open_corpus", "NotAWorkbench",
           "IndexBusy"]
__version__ = "0.1.0"
