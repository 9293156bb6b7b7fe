"""Benchmark: reliability under hostile input, concurrency and crashes.

Prints, measured on the code as it is:

* attacks through the Python API (every agent tool and the call-graph functions, with
  hostile paths, symbols, types and oversize values) and through the CLI, and index runs
  of hostile repositories: attempts, escapes (content from outside the root in an answer),
  crashes (an exception or a traceback instead of an answer), hangs (no answer in time);
* the swap race: reads racing a process that swaps a file for a link out of the root;
* kill -9 during index runs: trials, and trials that lost data (a state that is neither
  the one before nor the one after the run, or a database that no longer opens);
* readers polling while index runs write: polls and failures;
* drift: edges whose resolution or target differ between an incremental re-index and a
  fresh index of the same files, per trial, on a copy of the standard library;
* the worst symbol lookup on the standard-library index (seconds and peak memory, each
  lookup in its own capped process) and the worst single file to index (peak memory);
* the per-call time limit (rule `tool_timeout`): slow requests through real tool arguments
  (a large repo_map of the standard library, a deep call chain through a dense call graph),
  how long each ran with and without the limit, and the next call on the same connection,
  in process and over MCP.

    .venv/bin/python bench/reliability.py [--quick] [--out bench/results/reliability.txt]

Targets: zero escapes, crashes, hangs, data-loss trials, poll failures and drift edges;
worst lookup < 1 s and < 500 MB.
"""
from __future__ import annotations

import argparse
import json
import os
import random
import shutil
import signal
import subprocess
import sys
import sysconfig
import tempfile
import textwrap
import threading
import time
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))

import duckdb  # noqa: E402

import workbench  # noqa: E402
from workbench.indexer import index  # noqa: E402

STDLIB = Path(sysconfig.get_paths()["stdlib"])
MARKER = "OUTSIDE-THE-ROOT-7f3a"
TIMEOUT = 20.0


def last_error(stderr: str) -> str:
    """The exception line of a traceback (or the last line of stderr)."""
    lines = [ln for ln in stderr.strip().splitlines() if ln.strip()]
    for ln in reversed(lines):
        if ln[:1].isalpha() and ":" in ln and not ln.startswith(("Traceback", "During")):
            return ln.strip()
    return lines[-1].strip() if lines else "?"


def last_json(out: str) -> dict:
    """The JSON object a child printed last (DuckDB may print a progress bar on the same
    line, before it)."""
    for line in reversed(out.splitlines()):
        if "{" in line:
            return json.loads(line[line.index("{"):])
    raise ValueError("no JSON in the output")


def log(*a) -> None:
    print(*a, flush=True)


def write(root: Path, rel: str, data) -> Path:
    p = root / rel
    p.parent.mkdir(parents=True, exist_ok=True)
    p.write_bytes(data if isinstance(data, bytes) else data.encode())
    return p


def run_py(code: str, *args: str, timeout: float, limit_mb: int | None = None):
    """Run Python code in a child (optionally with a data-segment cap); (rc, out, err, s) or
    rc None on a timeout."""
    pre = ""
    if limit_mb:
        pre = ("import resource; resource.setrlimit(resource.RLIMIT_DATA, "
               f"({limit_mb << 20}, resource.RLIM_INFINITY))\n")
    t = time.perf_counter()
    try:
        r = subprocess.run([sys.executable, "-c", pre + textwrap.dedent(code), *args], cwd=REPO,
                           capture_output=True, text=True, timeout=timeout)
    except subprocess.TimeoutExpired:
        return None, "", "", time.perf_counter() - t
    return r.returncode, r.stdout, r.stderr, time.perf_counter() - t


class Tally:
    def __init__(self, name: str):
        self.name = name
        self.attempts = self.escapes = self.crashes = self.hangs = 0
        self.examples: dict[str, list[str]] = {"escape": [], "crash": [], "hang": []}
        from collections import Counter
        self.causes: Counter = Counter()

    def note(self, kind: str, what: str, why: str = "") -> None:
        field = {"escape": "escapes", "crash": "crashes", "hang": "hangs"}[kind]
        setattr(self, field, getattr(self, field) + 1)
        if why:
            self.causes[why] += 1
        if len(self.examples[kind]) < 4:
            self.examples[kind].append(what[:160])

    def line(self) -> str:
        causes = ", ".join(f"{k} {v}" for k, v in self.causes.most_common(6))
        return (f"{self.name}: {self.attempts} attempts, {self.escapes} escapes, "
                f"{self.crashes} crashes, {self.hangs} hangs"
                + (f" (crashes by error: {causes})" if causes else ""))


# ---------------------------------------------------------------- hostile repositories

def tool_repo(base: Path) -> tuple[Path, Path]:
    """A repository whose hazards show at read time (links, FIFOs, growth), and the
    directory outside it holding the marker."""
    outside = base / "outside"
    write(outside, "secret.py", f"SECRET = '{MARKER}'\ndef stolen():\n    return SECRET\n")
    root = base / "tools"
    write(root, "app/main.py", "from app.util import helper\n\ndef main():\n    return helper()\n")
    write(root, "app/util.py", "def helper():\n    return 1\n\nclass Thing:\n    def __init__(self):\n"
                               "        self.x = helper()\n")
    write(root, "app/later_fifo.py", "def soon_a_fifo():\n    pass\n")
    write(root, "app/later_link.py", "def soon_a_link():\n    pass\n")
    write(root, "app/grows.py", "def grows():\n    pass\n")
    write(root, "pkg/inner.py", "def inner():\n    return 2\n")
    os.symlink(outside / "secret.py", root / "app" / "secret_link.py")
    os.symlink(outside, root / "outside_dir")
    os.symlink("/etc/passwd", root / "passwd.py")
    os.mkfifo(root / "app" / "pipe.py")
    return root, outside


def after_index_hazards(root: Path, outside: Path, base: Path) -> list:
    """Change the repository under the index: a FIFO, a link out, a huge file, a parent
    directory swapped for a link. Returns FIFOs to unblock afterwards."""
    os.remove(root / "app" / "later_fifo.py")
    os.mkfifo(root / "app" / "later_fifo.py")
    os.remove(root / "app" / "later_link.py")
    os.symlink(outside / "secret.py", root / "app" / "later_link.py")
    os.truncate(root / "app" / "grows.py", 303_000_000)          # sparse
    os.rename(root / "pkg", base / "pkg-moved")
    write(outside, "inner.py", f"def inner():\n    return '{MARKER}'\n")
    os.symlink(outside, root / "pkg")
    return [root / "app" / "later_fifo.py", root / "app" / "pipe.py"]


def unblock(fifos: list) -> None:
    for f in fifos:
        try:
            fd = os.open(f, os.O_WRONLY | os.O_NONBLOCK)
            os.close(fd)
        except OSError:
            pass


INDEX_HAZARDS = {
    "non-UTF-8 file name": lambda r: open(os.path.join(os.fsencode(r), b"caf\xe9.py"), "wb").write(b"x = 1\n"),
    "non-UTF-8 directory name": lambda r: (os.mkdir(os.path.join(os.fsencode(r), b"d\xffir")),
                                           open(os.path.join(os.fsencode(r), b"d\xffir", b"a.py"), "wb").write(b"x = 1\n")),
    "newline in a file name": lambda r: write(r, "evil\nname.py", "x = 1\n"),
    "lone ! in .gitignore": lambda r: write(r, ".gitignore", "*.log\n!\n"),
    "trailing backslash in .gitignore": lambda r: write(r, "sub/.gitignore", "\\\n"),
    ".gitignore is a FIFO": lambda r: os.mkfifo(r / ".gitignore"),
    ".gitignore links to /dev/zero": lambda r: os.symlink("/dev/zero", r / ".gitignore"),
    "FIFO named like code": lambda r: os.mkfifo(r / "pipe.py"),
    "symlink loop": lambda r: os.symlink(".", r / "loop"),
    "link to /etc/passwd": lambda r: os.symlink("/etc/passwd", r / "passwd.py"),
    "binary with a .py name": lambda r: write(r, "blob.py", bytes(range(256)) * 40),
    "UTF-16 source": lambda r: write(r, "u16.py", "def f():\n    pass\n".encode("utf-16")),
    "deep nesting": lambda r: write(r, "deep.py", "x = " + "(" * 5000 + "1" + ")" * 5000 + "\n"),
    "1 MB one-line JavaScript": lambda r: write(r, "app.js", _minified(1_000_000)),
    "10,000 module variables": lambda r: write(r, "consts.py", "".join(f"X_{i} = {i}\n" for i in range(10000))),
}


def _minified(size: int) -> str:
    parts, n, i = ["!function(e,t){"], 0, 0
    while n < size:
        s = (f"var a{i}={{m{i}:function(x){{return x+{i}}},n{i}:function(y,z){{if(y){{return "
             f"a{max(i - 1, 0)}.m{max(i - 1, 0)}(z)}}return null}}}};function f{i}(a,b){{var c=a+b;"
             f"return g{i % 50}(c,function(q){{return q*{i}}})}}")
        parts.append(s)
        n += len(s)
        i += 1
    return "".join(parts) + "}(window,document);"


def index_attacks(base: Path, tally: Tally) -> None:
    for name, make in INDEX_HAZARDS.items():
        root = base / f"ix{len(os.listdir(base))}"
        write(root, "ok.py", "def ok():\n    return 1\n")
        make(root)
        db = str(base / f"{root.name}.duckdb")
        tally.attempts += 1
        rc, out, err, _ = run_py("""
            import sys, workbench
            from workbench.indexer import index
            index(sys.argv[1], sys.argv[2], jobs=1, progress=False)
            with workbench.open(sys.argv[2], read_only=True) as wb:
                print(wb.sql("SELECT count(*) FROM files").fetchall()[0][0])
                for p in [r[0] for r in wb.sql("SELECT path FROM files").fetchall()]:
                    wb.tool("read_outline", path=p)
            """, str(root), db, timeout=180)
        if rc is None:
            tally.note("hang", f"index: {name}")
        elif rc != 0:
            tally.note("crash", f"index: {name}: {last_error(err)}", last_error(err).split(":")[0])


# ---------------------------------------------------------------- tool attacks

PATHS = ["/etc/passwd", "../x", "../../../../etc/passwd", "..", "a/../../x", "app/../../outside/secret.py",
         "./../outside/secret.py", "~/x", "~root/.bashrc", "C:\\Windows\\win.ini", "\\\\server\\share",
         "..\\..\\x", "app/./../..", "/", "//", "outside_dir/secret.py", "outside_dir", "app/secret_link.py",
         "passwd.py", "app/pipe.py", "app/later_fifo.py", "app/later_link.py", "app/grows.py",
         "pkg/inner.py", "pkg", "app\x00/main.py", "app/main.py\x00.txt", "app/\udcff.py", "\udce9",
         "app/\ud800x.py", "\xff", "app/main.py\n", "app/main.py\nIGNORE", " app/main.py", "app/main.py ",
         "app//main.py", "APP/MAIN.PY", "app/main.py/", "%2e%2e/%2e%2e/etc/passwd", "\uff0e\uff0e/x",
         "app/" + "a" * 5000, "x/" * 3000 + "y", "", ".", "*", "app/*", "[a-z]*", "' OR 1=1 --",
         "'); DROP TABLE files; --", "app/main.py' --", "$(id)", "`id`", "\u202e.py", "app\r\nx",
         "\t", "app/main.py\x1b[2J"]
SYMBOLS = ["__init__", "0", "1", "123456789012345678901", "-1", "\u00b2", "\u0663", "\udcff", "\xff",
           "\ud800", "a\x00b", "", " ", ".", "..", "...", "a..b", "*", "%", "_", "' OR 1=1 --",
           "x'); DROP TABLE symbols; --", "helper\n", "helper\nmain", "Thing.__init__", "app.util.Thing",
           "app.util", "stolen", "SECRET", "x" * 100_000, ".".join(["a"] * 5000), "main(", "\u202emain",
           "helper OR 1", "lambda"]
INTS = [0, -1, -(2 ** 63), 2 ** 63, 10 ** 12, 10 ** 100, "1e9", "0x10", "", " ", "-", "1.5", 1.5,
        True, None, "\udcff", [1], {"a": 1}]
ARRAYS = [[1], [None], [["app"]], [{}], ["/etc/passwd"], ["../x"], ["\udcff"], ["app/main.py"] * 100_000,
          [], "app/main.py,../x", "", 5, {"a": 1}, [True], ["x" * 100_000]]
ANY = [None, 0, True, 1.5, [], {}, {"path": "/etc/passwd"}, b"app/main.py", "\udcff"]


def _values_for(prop: dict, name: str) -> list:
    t = prop.get("type")
    if t == "integer" or t == "number":
        return INTS + ANY
    if t == "array":
        return ARRAYS + ANY
    if t == "boolean":
        return ANY + ["yes", "\udcff"]
    if name in ("symbol", "name") or "symbol" in name:
        return SYMBOLS + ANY
    if t == "string" and "enum" in prop:
        return ["down", "sideways", "\udcff", "", "UP"] + ANY
    return PATHS + ANY


def _bad(text: str) -> bool:
    return MARKER in text or "root:x:0:0" in text


def _answered(exc: BaseException) -> bool:
    """An exception of the Python API that is an answer: one of workbench's own errors
    (symbol not found, ambiguous, refused path...) with a message, or a TypeError for an
    argument of the wrong type. Anything else (AttributeError, a DuckDB conversion error,
    a ValueError from int('²')...) is a crash."""
    own = type(exc).__module__.startswith("workbench")
    return bool(str(exc)) and (own or isinstance(exc, TypeError))


def _call(fn, timeout: float = TIMEOUT):
    box = {}

    def target():
        try:
            box["v"] = fn()
        except BaseException as exc:  # noqa: BLE001 - classified by the caller
            box["e"] = exc
    t = threading.Thread(target=target, daemon=True)
    t.start()
    t.join(timeout)
    if t.is_alive():
        return "hang", None
    if "e" in box:
        return "crash", box["e"]
    return "ok", box["v"]


def api_attacks(db: str, tally: Tally) -> None:
    from workbench.views import TOOLS
    wb = workbench.open(db, read_only=True)
    base = {"read_region": {"path": "app/main.py", "start_line": 1, "end_line": 5},
            "resolve_symbol": {"name": "helper"}, "file_index": {"path": "app/main.py"},
            "read_outline": {"path": "app/main.py"}}
    for name, tool in sorted(TOOLS.items()):
        props = tool.parameters["properties"]
        required = tool.parameters.get("required", [])
        for prop, spec in props.items():
            for value in _values_for(spec, prop):
                args = dict(base.get(name, {}))
                for r in required:
                    args.setdefault(r, "helper" if r in ("symbol", "name") else
                                    1 if props[r].get("type") == "integer" else "app")
                args[prop] = value
                tally.attempts += 1
                status, out = _call(lambda: wb.tool(name, **args))
                what = f"{name}({prop}={value!r:.60})"
                if status == "hang":
                    tally.note("hang", what)
                elif status == "crash":
                    tally.note("crash", f"{what}: {type(out).__name__}: {str(out)[:80]}",
                               type(out).__name__)
                elif _bad(out.text):
                    tally.note("escape", what)
    graph_calls = [("find_definition", lambda v: wb.find_definition(v)),
                   ("find_callers", lambda v: wb.find_callers(v)),
                   ("trace_call_chain", lambda v: wb.trace_call_chain(v, depth=3)),
                   ("architecture", lambda v: wb.get_architecture_overview(v)),
                   ("impact", lambda v: wb.impact([v]))]
    for label, fn in graph_calls:
        values = PATHS if label in ("architecture", "impact") else SYMBOLS
        for value in values + [None, 0, 1.5, [], {}]:
            tally.attempts += 1
            status, out = _call(lambda: fn(value))
            what = f"wb.{label}({value!r:.60})"
            if status == "hang":
                tally.note("hang", what)
            elif status == "crash" and not _answered(out):
                tally.note("crash", f"{what}: {type(out).__name__}: {str(out)[:80]}",
                           type(out).__name__)
            elif status == "ok" and _bad(repr(out)):
                tally.note("escape", what)
    wb.close()


CLI_CASES = [
    ["tool", "{db}", "read_region", b"path=../outside/secret.py", "start_line=1", "end_line=5"],
    ["tool", "{db}", "read_region", b"path=/etc/passwd", "start_line=1", "end_line=5"],
    ["tool", "{db}", "read_region", b"path=app/\xff.py", "start_line=1", "end_line=5"],
    ["tool", "{db}", "read_region", b"path=app/later_fifo.py", "start_line=1", "end_line=5"],
    ["tool", "{db}", "read_region", b"path=app/later_link.py", "start_line=1", "end_line=5"],
    ["tool", "{db}", "read_region", b"path=app/grows.py", "start_line=1", "end_line=5"],
    ["tool", "{db}", "read_region", b"path=pkg/inner.py", "start_line=1", "end_line=5"],
    ["tool", "{db}", "read_region", b"path=app/main.py", "start_line=1", "end_line=99999999999999"],
    ["tool", "{db}", "read_region", b"path=app/main.py", "start_line=x", "end_line=5"],
    ["tool", "{db}", "resolve_symbol", b"name=\xff"],
    ["tool", "{db}", "resolve_symbol", b"name=0"],
    ["tool", "{db}", "resolve_symbol", "name=\u00b2"],
    ["tool", "{db}", "find_callers", b"symbol=0"],
    ["tool", "{db}", "find_callers", b"symbol=\xff"],
    ["tool", "{db}", "find_callers", "symbol=\u00b2"],
    ["tool", "{db}", "find_definition", b"symbol=\xed\xa0\x80"],
    ["tool", "{db}", "repo_map", b"focus=[1]"],
    ["tool", "{db}", "repo_map", b"budget_tokens=1000000000000"],
    ["tool", "{db}", "list_files", b"path=../", "max_depth=1000000000"],
    ["tool", "{db}", "trace_call_chain", b"symbol=helper", "depth=100000000"],
    ["tool", "{db}", "get_architecture_overview", b"directory=/etc"],
    ["tool", "{db}", "read_outline", b"path=outside_dir"],
    ["tool", "{db}", "no_such_tool"],
    ["tool", "{db}", "read_region", b"bogus"],
    ["definition", "{db}", b"\xff"],
    ["definition", "{db}", "0"],
    ["callers", "{db}", "0"],
    ["callers", "{db}", "\u00b2"],
    ["callers", "{db}", b"\xed\xa0\x80"],
    ["callees", "{db}", "-1"],
    ["chain", "{db}", "helper", "--depth", "100000000"],
    ["overview", "{db}", "/etc"],
    ["overview", "{db}", "../x"],
    ["impact", "{db}", "/etc/passwd"],
    ["impact", "{db}", "../x", b"\xff"],
    ["outline", "{db}", "../outside"],
    ["outline", "{db}", b"app/\xff"],
    ["outline", "{db}", "app/pipe.py"],
    ["sql", "{db}", "SELECT * FROM read_text('/etc/passwd')", "--safe"],
    ["sql", "{db}", "COPY files TO '{tmp}/leak.csv'", "--safe"],
    ["sql", "{db}", "ATTACH '{tmp}/other.duckdb' AS o", "--safe"],
    ["sql", "{db}", "SELECT * FROM glob('/etc/*')", "--safe"],
    ["stats", "{tmp}/nothing.duckdb"],
    ["stats", "{readme}"],
    ["index", "{tmp}/no-such-dir"],
]


def cli_attacks(db: str, tmp: Path, tally: Tally, limit: int | None) -> None:
    cases = CLI_CASES[:limit] if limit else CLI_CASES
    readme = str(REPO / "README.md")
    for case in cases:
        argv = [a.replace("{db}", db).replace("{tmp}", str(tmp)).replace("{readme}", readme)
                if isinstance(a, str) else a for a in case]
        tally.attempts += 1
        t = time.perf_counter()
        try:
            r = subprocess.run([sys.executable, "-m", "workbench.cli", *argv], cwd=REPO,
                               capture_output=True, timeout=120)
        except subprocess.TimeoutExpired:
            tally.note("hang", f"cli {case}")
            continue
        out, err = r.stdout.decode("utf-8", "replace"), r.stderr.decode("utf-8", "replace")
        if "Traceback" in err:
            tally.note("crash", f"cli {case}: {last_error(err)}", last_error(err).split(":")[0])
        elif _bad(out) or os.path.exists(tmp / "leak.csv"):
            tally.note("escape", f"cli {case}")
        elif case[0] == "sql" and r.returncode == 0:
            tally.note("escape", f"cli {case} ran with --safe")
        _ = time.perf_counter() - t


# ---------------------------------------------------------------- swap race

SWAPPER = """
import os, sys, time
target, master, outside, stop = sys.argv[1:]
t_end = time.monotonic() + 300
while not os.path.exists(stop) and time.monotonic() < t_end:
    for _ in range(200):
        os.symlink(outside, target + ".l"); os.replace(target + ".l", target)
        os.link(master, target + ".r"); os.replace(target + ".r", target)
"""


def swap_race(base: Path, seconds: float) -> tuple[int, int, int]:
    root = base / "race"
    inside = "def target():\n    return 'inside'\n"
    write(root, "pkg/target.py", inside)
    write(base / "race_outside", "target.py", f"def target():\n    return '{MARKER}'\n")
    write(base, "race_master.py", inside)
    db = str(base / "race.duckdb")
    index(root, db, jobs=1, progress=False)
    stop = base / "race_stop"
    proc = subprocess.Popen([sys.executable, "-c", SWAPPER, str(root / "pkg" / "target.py"),
                             str(base / "race_master.py"), str(base / "race_outside" / "target.py"),
                             str(stop)])
    calls = escapes = crashes = 0
    try:
        wb = workbench.open(db, read_only=True)
        t_end = time.monotonic() + seconds
        while time.monotonic() < t_end:
            for name, args in (("read_region", {"path": "pkg/target.py", "start_line": 1, "end_line": 2}),
                               ("resolve_symbol", {"name": "target"})):
                calls += 1
                try:
                    text = wb.tool(name, **args).text
                except Exception:  # noqa: BLE001 - counted
                    crashes += 1
                    continue
                escapes += MARKER in text
        wb.close()
    finally:
        stop.touch()
        proc.wait(timeout=60)
    return calls, escapes, crashes


# ---------------------------------------------------------------- kill -9, readers

def _content(db: str):
    try:
        con = duckdb.connect(db, read_only=True)
    except duckdb.Error:
        return "unopenable"
    try:
        return (con.execute("SELECT path, sha256, status FROM files ORDER BY path").fetchall(),
                con.execute("SELECT path, qualname, start_line, end_line FROM symbols ORDER BY ALL").fetchall(),
                con.execute("SELECT value FROM meta WHERE key = 'root'").fetchall())
    except duckdb.Error:
        return "broken"
    finally:
        con.close()


def _slice(dst: Path, n: int, salt: str = "", changed: int | None = None) -> None:
    for k, p in enumerate(sorted(STDLIB.glob("*.py"))[:n]):
        if salt and changed is not None and k >= changed:
            continue
        write(dst, p.name, p.read_text(encoding="utf-8", errors="replace") + salt)


def _kill(argv: list, delay: float | None, writing) -> int:
    proc = subprocess.Popen([sys.executable, "-m", "workbench.cli", *argv], cwd=REPO,
                            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                            start_new_session=True)
    if delay is not None:
        time.sleep(delay)
    else:
        end = time.monotonic() + 120
        while not writing() and proc.poll() is None and time.monotonic() < end:
            time.sleep(0.002)
    try:
        os.killpg(proc.pid, signal.SIGKILL)
    except ProcessLookupError:
        pass
    return proc.wait(timeout=60)


HOLD = """
import sys, workbench
wb = workbench.open(sys.argv[1], read_only=True)
wb.sql("SELECT count(*) FROM files").fetchall()
print("open", flush=True)
sys.stdin.read()
"""


def kill_trials(base: Path, trials: int) -> tuple[int, int, list]:
    n_trials = lost = 0
    notes = []
    for mode in ("alone", "with a reader"):
        root = base / f"kill-{mode[:4]}"
        _slice(root, 80)
        db = str(base / f"kill-{mode[:4]}.duckdb")
        index(root, db, progress=False)
        before = _content(db)
        _slice(root, 80, "\n\ndef _changed():\n    return 1\n", 20 if mode == "alone" else 80)
        after_db = str(base / f"kill-{mode[:4]}-after.duckdb")
        index(root, after_db, progress=False)
        after = _content(after_db)
        holder = None
        if mode == "with a reader":
            holder = subprocess.Popen([sys.executable, "-c", HOLD, db], cwd=REPO, text=True,
                                      stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                      stderr=subprocess.DEVNULL)
            holder.stdout.readline()
        wal = Path(db + ".wal")
        name = os.path.basename(db)

        def writing():
            return wal.exists() or any(base.glob(f".{name}.snapshot-*.wal"))
        try:
            for delay in ([None] + [0.5 + 0.7 * k for k in range(trials - 1)]):
                _kill(["index", str(root), "--db", db, "-q"], delay, writing)
                now = _content(db)
                n_trials += 1
                if now not in (before, after):
                    lost += 1
                    notes.append(f"{mode}, killed at {delay or 'first write'}: "
                                 f"{now if isinstance(now, str) else 'a state neither before nor after'}")
                if now == after:
                    break
        finally:
            if holder:
                holder.communicate("", timeout=60)
    # a first index killed: no database, or a complete one
    root = base / "kill-first"
    _slice(root, 100)
    for k, delay in enumerate((None, 0.8, 1.6)):
        db = str(base / f"first{k}.duckdb")
        wal = Path(db + ".wal")
        name = os.path.basename(db)
        _kill(["index", str(root), "--db", db, "-q"], delay,
              lambda: wal.exists() or any(base.glob(f".{name}.snapshot-*.wal")))
        n_trials += 1
        if os.path.exists(db):
            r = subprocess.run([sys.executable, "-m", "workbench.cli", "stats", db], cwd=REPO,
                               capture_output=True, text=True, timeout=120)
            if r.returncode != 0 and "Traceback" in r.stderr:
                lost += 1
                notes.append(f"first index killed at {delay or 'first write'}: the database left "
                             f"behind answers with a traceback ({last_error(r.stderr)})")
    return n_trials, lost, notes


POLLER = """
import os, sys, workbench
db, stop = sys.argv[1], sys.argv[2]
ok = failed = 0
print("ready", flush=True)
while not os.path.exists(stop):
    try:
        with workbench.open(db, read_only=True) as wb:
            wb.sql("SELECT count(*) FROM files").fetchall()
        ok += 1
    except Exception:
        failed += 1
print(ok, failed, flush=True)
"""


def polling_readers(base: Path, runs: int) -> tuple[int, int, int]:
    root = base / "poll"
    _slice(root, 60)
    db = str(base / "poll.duckdb")
    index(root, db, progress=False)
    stop = base / "poll_stop"
    proc = subprocess.Popen([sys.executable, "-c", POLLER, db, str(stop)], cwd=REPO, text=True,
                            stdout=subprocess.PIPE, stderr=subprocess.DEVNULL)
    proc.stdout.readline()
    index_failures = 0
    try:
        for k in range(runs):
            write(root, f"added_{k}.py", f"def added_{k}():\n    return {k}\n")
            try:
                index(root, db, progress=False)
            except Exception:  # noqa: BLE001 - counted
                index_failures += 1
            time.sleep(0.2)
    finally:
        stop.touch()
        out, _ = proc.communicate(timeout=300)
    ok, failed = (int(x) for x in out.split()[:2])
    return ok, failed, index_failures


# ---------------------------------------------------------------- drift

def _edges(db: str) -> dict:
    con = duckdb.connect(db, read_only=True)
    try:
        rows = con.execute("SELECT path, line, kind, dst_name, resolution, dst_qualname "
                           "FROM edges ORDER BY ALL").fetchall()
    finally:
        con.close()
    from collections import Counter
    return Counter(rows)


def drift(base: Path, trials: int, quick: bool, seed: int = 11) -> list[int]:
    corpus = base / "drift"
    shutil.copytree(STDLIB, corpus, symlinks=True,
                    ignore=shutil.ignore_patterns("site-packages", "__pycache__", "test", "tests",
                                                  "idlelib", "lib2to3") if quick else
                    shutil.ignore_patterns("site-packages", "__pycache__"))
    db = str(base / "drift.duckdb")
    index(corpus, db, progress=False)
    rnd = random.Random(seed)
    files = sorted(p for p in corpus.rglob("*.py") if p.is_file() and not p.is_symlink())
    out = []
    for t in range(trials):
        for p in rnd.sample(files, 5):                 # edits: new code, a renamed function
            text = p.read_text(encoding="utf-8", errors="replace")
            if t % 2 and "\ndef " in text:
                text = text.replace("\ndef ", "\ndef renamed_", 1)
            p.write_text(text + f"\n\ndef _drift_{t}(x):\n    return str(x).partition(',')\n",
                         encoding="utf-8")
        index(corpus, db, progress=False)
        fresh = str(base / f"drift-fresh-{t}.duckdb")
        index(corpus, fresh, progress=False)
        a, b = _edges(db), _edges(fresh)
        out.append(sum(((a - b) + (b - a)).values()))
        os.remove(fresh)
    return out


# ---------------------------------------------------------------- memory

# Peak memory of a child: the kernel's high-water mark of its own memory map (VmHWM), reset
# once the child is ready (clear_refs 5), in KiB. Not ru_maxrss: Linux carries a parent's
# resident size at fork time into the child's ru_maxrss across exec, so a child of a large
# bench process would report the parent's size.
PEAK = """
def _status(key):
    with open("/proc/self/status") as fh:
        for line in fh:
            if line.startswith(key + ":"):
                return int(line.split()[1])
def reset_peak():
    try:
        with open("/proc/self/clear_refs", "w") as fh:
            fh.write("5")
    except OSError:
        pass
    return _status("VmRSS")
def peak():
    return _status("VmHWM")
"""

LOOKUP = PEAK + """
import json, resource, sys, time, workbench
from workbench.views.rules import Rules
from workbench.views.tokens import get_tokenizer
db, op, name = sys.argv[1], sys.argv[2], sys.argv[3]
wb = workbench.open(db, read_only=True)
wb.sql("SELECT count(*) FROM symbols").fetchall()
get_tokenizer(Rules().tokenizer).count("warm up")     # loaded once per process (a server: at start)
base = reset_peak()
t = time.perf_counter()
try:
    if op == "api.find_definition":
        wb.find_definition(name)
    elif op == "api.find_callers":
        wb.find_callers(name)
    else:
        wb.tool(op.split(".", 1)[1], symbol=name)
    err = ""
except MemoryError:
    err = "out of memory"
except Exception as exc:
    err = type(exc).__name__ + ": " + str(exc).splitlines()[0][:80]
s = time.perf_counter() - t
print(json.dumps({"s": s, "peak": peak(), "base": base, "err": err}))
"""

ONE_FILE = PEAK + """
import json, os, resource, sys, time
import workbench.indexer as ix
from workbench.extract import extract_file
from workbench.languages import detect
from workbench.scan import ScanEntry
root, name, cap = sys.argv[1], sys.argv[2], int(sys.argv[3])
if hasattr(ix, "_limit_memory"):               # what a parser process of the index gets
    ix._limit_memory(ix.WORKER_MEMORY)
spec = detect(name)
if spec is not None:                           # load the grammar and compile its queries first
    extract_file("warm" + os.path.splitext(name)[1], b"x = 1\\n", spec)
base = reset_peak()
path = os.path.join(root, name)
entry = ScanEntry(name, path, os.path.getsize(path), os.path.getmtime(path))
t = time.perf_counter()
try:
    r = ix.process_file(entry, None, root, cap)
except TypeError:                              # older signature
    r = ix.process_file(entry, None)
s = time.perf_counter() - t
print(json.dumps({"s": s, "peak": peak(), "base": base,
                  "status": r.status + (f" ({r.skip_reason})" if r.skip_reason else "")
                  + (f" ({r.message})" if r.status == "failed" else "")}))
"""


def worst_lookup(db: str, names: list[str], ops: list[str], runs: int, cap_mb: int, timeout: float):
    rows = []
    for name in names:
        for op in ops:
            for _ in range(runs):
                rc, out, err, wall = run_py(LOOKUP, db, op, name, timeout=timeout, limit_mb=cap_mb)
                if rc is None:
                    rows.append((name, op, float("inf"), float("inf"), f"no answer in {timeout:g} s",
                                 float("inf")))
                    continue
                try:
                    d = last_json(out)
                except (ValueError, IndexError):
                    rows.append((name, op, wall, float("inf"),
                                 f"process died: {last_error(err)[:80]}", float("inf")))
                    continue
                rows.append((name, op, d["s"], (d["peak"] - d["base"]) / 1024, d["err"],
                             d["peak"] / 1024))
    return rows


def worst_file(base: Path, quick: bool, timeout: float) -> list:
    cases = []
    stdlib_big = sorted((p for p in STDLIB.rglob("*.py") if "site-packages" not in p.parts),
                        key=lambda p: -p.stat().st_size)[:3 if quick else 10]
    for p in stdlib_big:
        cases.append((f"stdlib {p.relative_to(STDLIB)}", p.name, p.read_bytes(), 1 << 20))
    cases.append(("1 MB one-line JavaScript", "app.js", _minified(1_000_000).encode(), 1 << 20))
    cases.append(("2 MB one-line JavaScript, cap raised to 4 MB", "app.js",
                  _minified(2_000_000).encode(), 4 << 20))
    cases.append(("10,000 module variables", "consts.py",
                  "".join(f"X_{i} = {i}\n" for i in range(10000)).encode(), 1 << 20))
    if not quick:                              # a big generated file, size cap raised
        cases.append(("8 MB generated JavaScript (short lines), cap raised to 16 MB", "gen.js",
                      _minified(8_000_000).replace("};function", "};\nfunction").encode(), 16 << 20))
    rows = []
    for k, (label, name, data, cap) in enumerate(cases):
        root = base / f"one{k}"
        write(root, name, data)
        rc, out, err, wall = run_py(ONE_FILE, str(root), name, str(cap), timeout=timeout,
                                    limit_mb=8192)
        if rc is None:
            rows.append((label, float("inf"), float("inf"), f"no answer in {timeout:g} s"))
            continue
        try:
            d = last_json(out)
        except (ValueError, IndexError):
            rows.append((label, wall, float("inf"), f"died: {last_error(err)[:80]}"))
            continue
        rows.append((label, d["s"], (d["peak"] - d["base"]) / 1024, d["status"]))
    return rows


def stub_seconds(base: Path) -> float:
    root = base / "stubvars"
    write(root, "consts.py", "".join(f"X_{i} = {i}\n" for i in range(10000)))
    db = str(base / "stubvars.duckdb")
    index(root, db, jobs=1, progress=False)
    wb = workbench.open(db, read_only=True)
    t = time.perf_counter()
    status, _ = _call(lambda: wb.outline("consts.py", format="stub"), timeout=600)
    s = time.perf_counter() - t
    wb.close()
    return s if status == "ok" else float("inf")


# ---------------------------------------------------------------- tool time limit

def _dense_repo(base: Path, width: int = 8, layers: int = 9) -> str:
    """A call graph where every function calls every function of the next layer:
    `trace_call_chain` at depth 8 from the top follows width**8 paths."""
    lines = []
    for layer in range(layers):
        for i in range(width):
            lines.append(f"def f{layer}_{i}():")
            lines += [f"    f{layer + 1}_{j}()" for j in range(width)] if layer + 1 < layers \
                else ["    return 1"]
            lines.append("")
    root = base / "dense"
    write(root, "dense.py", "\n".join(lines))
    db = str(base / "dense.duckdb")
    index(root, db, jobs=1, progress=False)
    return db


def tool_limit(base: Path, stdlib_db: str) -> list[str]:
    """Slow requests through real tool arguments, with and without `tool_timeout`: how long
    each call ran, whether it was stopped, and the next call on the same connection."""
    from workbench.server.client import run_calls
    from workbench.views import call
    from workbench.views.rules import Rules
    out = []
    nxt = ("find_definition", {"symbol": "__init__"})

    def timed(wb, name, args, rules):
        t = time.perf_counter()
        r = call(wb, name, args, rules=rules)
        return time.perf_counter() - t, r

    def show(name, args):
        return f"{name}(" + ", ".join(f"{k}={v!r}" for k, v in args.items()) + ")"

    cases = [(stdlib_db, "the standard-library index", "repo_map", {"budget_tokens": 100000},
              [None, 2.0, Rules().tool_timeout], nxt),
             (_dense_repo(base), "a dense call graph (8 layers of 8 functions)", "trace_call_chain",
              {"symbol": "dense.f0_0", "depth": 8}, [2.0, Rules().tool_timeout],
              ("find_callers", {"symbol": "f4_2"}))]
    for db, where, name, args, limits, then in cases:
        wb = workbench.open(db)
        call(wb, *then)                              # tokenizer and caches loaded
        for lim in limits:
            s, r = timed(wb, name, args, Rules(tool_timeout=lim))
            s2, r2 = timed(wb, *then, Rules(tool_timeout=lim))
            out.append(f"{show(name, args)} on {where}, tool_timeout={lim}: {s:.2f} s, "
                       f"{'stopped' if r.error and 'tool_timeout' in r.text else 'error' if r.error else 'answered'}"
                       f"; next call {show(*then)} {s2:.2f} s, "
                       f"{'error: ' + r2.text[:60] if r2.error else 'answered'}")
        wb.close()
    t = time.perf_counter()
    ans = run_calls(stdlib_db, [("repo_map", {"budget_tokens": 100000}), nxt], stdio=True,
                    extra_args=("--rule", "tool_timeout=2"))
    s = time.perf_counter() - t
    out.append(f"over MCP (workbench serve, stdio, --rule tool_timeout=2): repo_map(budget_tokens=100000) "
               f"{'stopped' if ans[0].is_error and 'tool_timeout' in ans[0].text else 'NOT stopped'}, "
               f"next call {'answered' if not ans[1].is_error else 'error'}; both with server start {s:.2f} s")
    return out


# ---------------------------------------------------------------- main

def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--quick", action="store_true", help="fewer trials, a smaller drift corpus")
    ap.add_argument("--out", help="also write the report here")
    ap.add_argument("--lookup-cap-mb", type=int, default=6144,
                    help="memory cap of each lookup process (a runaway lookup is stopped there)")
    ap.add_argument("--stdlib-db", metavar="FILE",
                    help="an index of the standard library made by this code (default: index it here)")
    ap.add_argument("--only", default="attacks,race,kill,poll,drift,lookup,limit,file,stub",
                    help="comma-separated sections to run (default: all)")
    a = ap.parse_args(argv)
    only = set(a.only.split(","))
    lines: list[str] = []

    def say(text: str = "") -> None:
        lines.append(text)
        log(text)

    t0 = time.perf_counter()
    base = Path(tempfile.mkdtemp(prefix="wb-reliability-"))
    fifos = []
    try:
        say(f"# reliability bench ({time.strftime('%Y-%m-%d %H:%M')}, load {os.getloadavg()[0]:.1f}, "
            f"{'quick' if a.quick else 'full'})")
        if "attacks" in only:
            api, cli, idx = Tally("attacks through the Python API"), Tally("attacks through the CLI"), \
                Tally("index runs of hostile repositories")
            root, outside = tool_repo(base)
            db = str(base / "tools.duckdb")
            index(root, db, jobs=1, progress=False)
            fifos = after_index_hazards(root, outside, base)
            api_attacks(db, api)
            unblock(fifos)
            cli_attacks(db, base, cli, 12 if a.quick else None)
            unblock(fifos)
            ixbase = base / "ix"
            ixbase.mkdir()
            index_attacks(ixbase, idx)
            for t in (api, cli, idx):
                say(t.line())
                for kind, ex in t.examples.items():
                    for e in ex:
                        say(f"    {kind}: {e}")
            total = [sum(getattr(t, f) for t in (api, cli, idx))
                     for f in ("attempts", "escapes", "crashes", "hangs")]
            say(f"attempts {total[0]}, escapes {total[1]}, crashes {total[2]}, hangs {total[3]}")

        if "race" in only:
            calls, esc, crash = swap_race(base, 8 if a.quick else 30)
            say(f"swap race: {calls} tool calls racing a link swap, {esc} escapes, {crash} crashes")

        if "kill" in only:
            n, lost, notes = kill_trials(base, 3 if a.quick else 5)
            say(f"kill -9 during index runs: {n} trials, {lost} data-loss trials")
            for note in notes[:6]:
                say(f"    {note}")

        if "poll" in only:
            ok, failed, ixfail = polling_readers(base, 4 if a.quick else 8)
            say(f"readers polling during index runs: {ok + failed} polls, {failed} failed; "
                f"index runs that failed because of the reader: {ixfail}")

        if "drift" in only:
            d = drift(base, 2 if a.quick else 3, a.quick)
            say(f"drift edges (incremental vs fresh, per trial): {d} (total {sum(d)})")

        stdlib_db = a.stdlib_db or str(base / "stdlib.duckdb")
        if only & {"lookup", "limit"} and not a.stdlib_db:
            index(STDLIB, stdlib_db, progress=False)
        if "lookup" in only:
            names = ["__init__", "setUp", "get", "__repr__", "run"][:3 if a.quick else 5]
            ops = ["api.find_definition", "api.find_callers", "tool.find_definition", "tool.find_callers"]
            rows = worst_lookup(stdlib_db, names, ops, 1 if a.quick else 3, a.lookup_cap_mb, 300)
            worst = max(rows, key=lambda r: (r[3], r[2]))
            slow = max(rows, key=lambda r: r[2])
            say(f"worst symbol lookup (memory): {worst[1]}({worst[0]!r}) {worst[2]:.2f} s, "
                f"+{worst[3]:.0f} MB over the open index (process peak {worst[5]:.0f} MB)"
                f"{' - ' + worst[4] if worst[4] else ''}")
            say(f"worst symbol lookup (time): {slow[1]}({slow[0]!r}) {slow[2]:.2f} s, "
                f"+{slow[3]:.0f} MB (process peak {slow[5]:.0f} MB){' - ' + slow[4] if slow[4] else ''}")
            for r in sorted(rows, key=lambda r: (-r[3], -r[2]))[:8]:
                say(f"    {r[1]}({r[0]!r}): {r[2]:.2f} s, +{r[3]:.0f} MB, peak {r[5]:.0f} MB {r[4]}")

        if "limit" in only:
            for line in tool_limit(base, stdlib_db):
                say(f"tool time limit: {line}")

        if "file" in only:
            files = worst_file(base, a.quick, 900)
            wf = max(files, key=lambda r: (r[2], r[1]))
            say(f"worst single file (one parser process): {wf[0]}: {wf[1]:.1f} s, peak +{wf[2]:.0f} MB ({wf[3]})")
            for r in sorted(files, key=lambda r: -r[2])[:6]:
                say(f"    {r[0]}: {r[1]:.1f} s, +{r[2]:.0f} MB {r[3]}")
        if "stub" in only:
            say(f"stub outline of 10,000 module variables: {stub_seconds(base):.2f} s")
        say(f"bench time: {time.perf_counter() - t0:.0f} s")
    finally:
        unblock(fifos)
        shutil.rmtree(base, ignore_errors=True)
    if a.out:
        with open(a.out, "a", encoding="utf-8") as fh:
            fh.write("\n".join(lines) + "\n\n")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
