"""Fuzzing with real code: 200 standard-library files, their bytes and their names mutated
(flipped and inserted bytes, cut and doubled spans, NULs, stray BOMs, invalid UTF-8, very
long lines, deep nesting, broken ignore rules). The index must finish with a row for every
file, re-index incrementally after more mutations, and every tool must answer each file
with text, never an exception."""
from __future__ import annotations

import os
import random
import sys
import sysconfig
from pathlib import Path

import duckdb
import pytest

import workbench
from workbench.indexer import index

pytestmark = pytest.mark.skipif(sys.platform == "win32", reason="POSIX file names")

STDLIB = Path(sysconfig.get_paths()["stdlib"])
N_FILES = 200


def _mutate(data: bytes, rnd: random.Random) -> bytes:
    data = bytearray(data)
    for _ in range(rnd.randint(1, 4)):
        op = rnd.randrange(9)
        n = len(data)
        i = rnd.randrange(n + 1)
        if op == 0 and n:                                   # flip bytes
            for _ in range(rnd.randint(1, 20)):
                data[rnd.randrange(n)] = rnd.randrange(256)
        elif op == 1:                                       # cut a span
            del data[i:i + rnd.randint(1, 400)]
        elif op == 2:                                       # double a span
            data[i:i] = data[i:i + rnd.randint(1, 2000)]
        elif op == 3:                                       # invalid UTF-8 and NULs
            data[i:i] = rnd.choice([b"\xff\xfe", b"\x00", b"\xc3(", b"\xed\xa0\x80", b"\xf8\x88"])
        elif op == 4:                                       # deep nesting
            depth = rnd.randint(50, 3000)
            data[i:i] = b"(" * depth + b"x" + b")" * rnd.randint(0, depth)
        elif op == 5:                                       # a very long line
            data[i:i] = b"x = '" + b"a" * rnd.randint(1500, 30_000) + b"'\n"
        elif op == 6:                                       # a stray BOM or CR
            data[i:i] = rnd.choice([b"\xef\xbb\xbf", b"\r", b"\xff\xfe", b"\r\r\n"])
        elif op == 7:                                       # truncate
            del data[i:]
        else:                                               # unbalanced brackets and quotes
            data[i:i] = rnd.choice([b"def (", b'"""', b"{", b"class :", b"\\", b"@"])
    return bytes(data)


def _mutate_name(name: bytes, rnd: random.Random) -> bytes:
    choice = rnd.randrange(6)
    if choice == 0:
        return name[:1] + bytes([rnd.randrange(0x80, 0x100)]) + name[1:]   # invalid UTF-8
    if choice == 1:
        return name.replace(b".", b"\n.", 1)                              # a line break
    if choice == 2:
        return b" " + name                                                 # leading space
    return name


def _write_fuzzed(root: Path, rnd: random.Random) -> list[bytes]:
    sources = sorted(p for p in STDLIB.rglob("*.py")
                     if "site-packages" not in p.parts and p.stat().st_size < 200_000)
    picked = rnd.sample(sources, N_FILES)
    written = []
    rootb = os.fsencode(root)
    for k, src in enumerate(picked):
        name = _mutate_name(f"f{k:03d}_{src.name}".encode(), rnd)
        sub = os.path.join(rootb, b"d%d" % (k % 7))
        os.makedirs(sub, exist_ok=True)
        path = os.path.join(sub, name)
        with open(path, "wb") as fh:
            fh.write(_mutate(src.read_bytes(), rnd))
        written.append(path)
    with open(os.path.join(rootb, b"d1", b".gitignore"), "wb") as fh:
        fh.write(_mutate(b"*.log\n!keep.log\nbuild/\n", rnd) + b"\n!\n")
    return written


def _check_every_tool(db: str) -> int:
    calls = 0
    with workbench.open(db) as wb:
        paths = [r[0] for r in wb.sql("SELECT path FROM files WHERE status <> 'skipped' "
                                      "ORDER BY path").fetchall()]
        names = [r[0] for r in wb.sql("SELECT DISTINCT name FROM symbols WHERE kind <> 'module' "
                                      "ORDER BY name LIMIT 60").fetchall()]
        for p in paths:
            for tool, args in (("read_outline", {"path": p}), ("file_index", {"path": p}),
                               ("read_region", {"path": p, "start_line": 1, "end_line": 80})):
                resp = wb.tool(tool, **args)
                assert isinstance(resp.text, str) and resp.text
                calls += 1
        for name in names:
            assert wb.tool("resolve_symbol", name=name).text
            calls += 1
        assert wb.tool("list_files", max_depth=3).text
        for fmt in ("stub", "json", "tags", "prose"):
            assert wb.outline("d1", format=fmt) is not None
    return calls


def test_mutated_stdlib_files_and_names_never_stop_the_index_or_a_tool(tmp_path):
    rnd = random.Random(20240611)
    root = tmp_path / "fuzz"
    root.mkdir()
    written = _write_fuzzed(root, rnd)
    db = str(tmp_path / "f.duckdb")
    report = index(root, db, jobs=2, progress=False)
    con = duckdb.connect(db, read_only=True)
    rows = con.execute("SELECT status, count(*) FROM files GROUP BY 1").fetchall()
    con.close()
    assert sum(n for _, n in rows) == report.files == N_FILES + 1      # + the .gitignore
    assert {s for s, _ in rows} <= {"ok", "partial", "failed", "skipped"}
    parsed = sum(n for s, n in rows if s != "skipped")
    assert parsed > N_FILES // 3 and _check_every_tool(db) >= 3 * parsed

    # mutate a quarter again and re-index incrementally: the result equals a fresh index
    for path in rnd.sample(written, N_FILES // 4):
        with open(path, "rb") as fh:
            data = fh.read()
        with open(path, "wb") as fh:
            fh.write(_mutate(data, rnd))
    again = index(root, db, jobs=2, progress=False)
    assert again.changed + again.added >= 1 and again.files == N_FILES + 1
    fresh = str(tmp_path / "fresh.duckdb")
    index(root, fresh, jobs=2, progress=False)
    q = "SELECT path, status, sha256, line_count FROM files ORDER BY path"
    a, b = duckdb.connect(db, read_only=True), duckdb.connect(fresh, read_only=True)
    try:
        assert a.execute(q).fetchall() == b.execute(q).fetchall()
    finally:
        a.close()
        b.close()
    _check_every_tool(db)
