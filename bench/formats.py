"""One real file in every outline format, each with its token count next to the whole file's.

    .venv/bin/python bench/formats.py [--root DIR] [--db PATH] [FILE]     (default: json/decoder.py
                                                                         of the Python stdlib)
"""
from __future__ import annotations

import argparse
import os
import sys
import sysconfig
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import workbench  # noqa: E402
from workbench.views import FORMATS, count_tokens  # noqa: E402


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("file", nargs="?", default="json/decoder.py")
    ap.add_argument("--root", default=sysconfig.get_paths()["stdlib"])
    ap.add_argument("--db", default=os.path.join(tempfile.gettempdir(), "workbench_bench_strategies.duckdb"))
    a = ap.parse_args(argv)
    wb = workbench.index(a.root, db=a.db, progress=False)
    whole = wb.tool("read_region", path=a.file, start_line=1, end_line=10**9,
                    rules=workbench.views.Rules(max_chars=10**9, max_tokens=10**9))
    text = Path(wb.root, a.file).read_text(encoding="utf-8")
    n = count_tokens(text)
    print(f"{a.file}: {len(text.splitlines())} lines, {len(text):,} chars, {n:,} tokens (cl100k) "
          f"as a whole file; read_region(1, end) without a cap: {whole.tokens:,} tokens")
    print()
    print(f"{'format':<10}{'tokens':>8}{'chars':>8}{'of whole file':>15}")
    outs = []
    for fmt in FORMATS:
        r = wb.outline(a.file, format=fmt)
        outs.append((fmt, r))
        print(f"{fmt:<10}{r.tokens:>8,}{r.chars:>8,}{r.tokens / n:>15.1%}")
    for fmt, r in outs:
        print(f"\n===== {fmt}: {r.tokens:,} tokens (whole file {n:,})")
        print(r.text)
    wb.close()
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
