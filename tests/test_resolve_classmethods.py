"""A classmethod's `cls` is also each subclass it is evidently called through: the edge
of `cls(...)` to the subclass's `__init__` comes and goes with the call through the
subclass, in a re-index as in a fresh index."""
from __future__ import annotations

from pathlib import Path

from drift import _touch_later, differences, rows
from workbench.indexer import index

BASE = '''\
class Reader:
    def __init__(self, source):
        self.source = source

    @classmethod
    def open(cls, source):
        return cls(source)
'''
SUB = '''\
from base import Reader


class CachedReader(Reader):
    def __init__(self, source):
        super().__init__(source)
        self.cache = {}
'''
USE_BEFORE = '''\
from sub import CachedReader


def load(path):
    return path
'''
USE_AFTER = '''\
from sub import CachedReader


def load(path):
    return CachedReader.open(path)
'''
TARGETS = ("SELECT d.qualname FROM edges e JOIN symbols s ON s.symbol_id = e.src_id "
           "JOIN call_candidates c ON c.edge_id = e.edge_id JOIN symbols d ON d.symbol_id = c.symbol_id "
           "WHERE s.qualname = 'base.Reader.open' AND e.dst_name = 'cls' "
           "UNION SELECT d.qualname FROM edges e JOIN symbols s ON s.symbol_id = e.src_id "
           "JOIN symbols d ON d.symbol_id = e.dst_id "
           "WHERE s.qualname = 'base.Reader.open' AND e.dst_name = 'cls'")


def _write(root: Path, use: str) -> None:
    (root / "base.py").write_text(BASE)
    (root / "sub.py").write_text(SUB)
    (root / "use.py").write_text(use)


def test_cls_follows_the_calls_through_a_subclass(tmp_path):
    root = tmp_path / "repo"
    root.mkdir()
    _write(root, USE_BEFORE)
    db = str(tmp_path / "inc.duckdb")
    index(root, db, jobs=1, progress=False)
    assert rows(db, TARGETS) == {("base.Reader.__init__",)}

    (root / "use.py").write_text(USE_AFTER)
    _touch_later(root / "use.py")
    index(root, db, jobs=1, progress=False)
    assert rows(db, TARGETS) == {("base.Reader.__init__",), ("sub.CachedReader.__init__",)}
    fresh = str(tmp_path / "fresh1.duckdb")
    index(root, fresh, jobs=1, progress=False)
    assert not differences(db, fresh)

    (root / "use.py").write_text(USE_BEFORE)
    _touch_later(root / "use.py")
    index(root, db, jobs=1, progress=False)
    assert rows(db, TARGETS) == {("base.Reader.__init__",)}
    fresh = str(tmp_path / "fresh2.duckdb")
    index(root, fresh, jobs=1, progress=False)
    assert not differences(db, fresh)
