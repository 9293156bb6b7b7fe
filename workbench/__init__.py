"""Context Workbench: a repository in DuckDB, and exactly what an AI coding agent reads.

    >>> import workbench
    >>> wb = workbench.index("sample_repos/pyshop", db="pyshop.duckdb")
    >>> wb.sql("SELECT kind, count(*) FROM symbols GROUP BY 1").show()
"""
from .api import Workbench, index, open  # noqa: A004  (workbench.open is the API's name)
from .corpus import Corpus, index_corpus, open_corpus

__all__ = ["Corpus", "Workbench", "index", "index_corpus", "open", "open_corpus"]
__version__ = "0.1.0"
