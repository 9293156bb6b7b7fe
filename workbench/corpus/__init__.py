"""Corpus scale: many repositories as one Parquet dataset (docs/corpus.md).

    workbench.corpus.export("pyshop.duckdb", "exports/pyshop")          # one index as Parquet
    workbench.corpus.index_corpus(["repos.txt"], "corpus/", engine="dask")   # many repositories
    corpus = workbench.open_corpus("corpus/")                            # one set of views
    corpus.sql("SELECT repo, count(*) FROM symbols GROUP BY repo")

Modules: `layout` (folders, manifests), `export` (tables to Parquet), `inputs` (folders,
archives, git revisions; safe extraction; fingerprints), `engines` (process pool, Dask),
`build` (the indexing run), `reader` (`Corpus`: views, macros, per-repository work).
"""
from .build import CorpusBusy, CorpusReport, index_corpus
from .engines import ENGINES, EngineError
from .export import export
from .inputs import InputError, ListError, RepoInput
from .layout import LayoutError
from .reader import Corpus, MapResult, RepoWorkbench, open_corpus, open_export

__all__ = ["Corpus", "CorpusBusy", "CorpusReport", "ENGINES", "EngineError", "InputError",
           "LayoutError", "ListError", "MapResult", "RepoInput", "RepoWorkbench", "export",
           "index_corpus", "open_corpus", "open_export"]
