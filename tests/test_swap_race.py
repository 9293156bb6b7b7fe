"""The swap race: another process keeps swapping a repository file for a symlink to a file
outside the root. Checking the path and then opening it lets some reads through to the
outside file; the one safe open (check and read as one step) must let none through."""
from __future__ import annotations

import os
import subprocess
import sys
import textwrap
import time

import pytest

import workbench
from conftest import write
from workbench.indexer import index
from workbench.safeio import ReadRefused
from workbench.views.pathsafe import PathError
from workbench.views.source import file_info, read_text

pytestmark = pytest.mark.skipif(sys.platform == "win32", reason="POSIX symlinks and renames")

SWAPPER = textwrap.dedent("""
    import os, sys, time
    target, master, outside, stop, count = sys.argv[1:]
    tmp_link, tmp_real = target + ".l", target + ".r"
    n, t_end = 0, time.monotonic() + 120
    while not os.path.exists(stop) and time.monotonic() < t_end:
        for _ in range(200):
            os.symlink(outside, tmp_link)
            os.replace(tmp_link, target)          # now a link out of the root
            os.link(master, tmp_real)
            os.replace(tmp_real, target)          # and the real file again
            n += 1
    with open(count, "w") as fh:
        fh.write(str(n))
""")


@pytest.fixture
def racing(tmp_path):
    repo = tmp_path / "repo"
    inside = "def target():\n    return 'inside'\n"
    write(repo, "pkg/target.py", inside)
    write(repo, "pkg/other.py", "def other():\n    return target()\n")
    write(tmp_path / "outside", "target.py", "def target():\n    return 'OUTSIDE SECRET'\n")
    write(tmp_path, "master.py", inside)
    db = str(tmp_path / "r.duckdb")
    index(repo, db, jobs=1, progress=False)
    stop, count = tmp_path / "stop", tmp_path / "count"
    proc = subprocess.Popen([sys.executable, "-c", SWAPPER, str(repo / "pkg" / "target.py"),
                             str(tmp_path / "master.py"), str(tmp_path / "outside" / "target.py"),
                             str(stop), str(count)])
    try:
        yield db
    finally:
        stop.touch()
        proc.wait(timeout=60)
    assert int(count.read_text()) > 100, "the swapper did not run"


def test_reads_racing_a_symlink_swap_never_return_outside_content(racing):
    escapes, read, refused = 0, 0, 0
    with workbench.open(racing) as wb:
        root = wb.root
        info = file_info(wb.con, "pkg/target.py")
        # What every tool reads through. At least 6,000 reads, and on a busy machine (the
        # swapper gets few time slices) more until the link state was met often enough.
        n, t_end = 0, time.monotonic() + 60
        while n < 6000 or (refused <= 10 and time.monotonic() < t_end):
            n += 1
            try:
                text = read_text(root, info)
            except (ReadRefused, PathError, FileNotFoundError):
                refused += 1
                continue
            read += 1
            escapes += any("OUTSIDE" in line for line in text.lines)
        for i in range(600):                           # the tools themselves
            resp = (wb.tool("read_region", path="pkg/target.py", start_line=1, end_line=2)
                    if i % 2 else wb.tool("resolve_symbol", name="target"))
            escapes += "OUTSIDE" in resp.text
            read += not resp.error
    assert escapes == 0
    assert read > 100 and refused > 10, (read, refused)    # both states were really met
