"""Run one held-out case and print the calls Python really makes, in the export's names.

    python bench/callgraph_heldout/trace_calls.py bench/callgraph_heldout/python/<case>
    python bench/callgraph_heldout/trace_calls.py --check bench/callgraph_heldout/python

This is how the hand-written `expected.json` files were checked: it runs `main.py` under
`sys.setprofile` (every Python frame that starts or resumes, every call of a C function)
and `sys.settrace` line events (to see calls of builtin *types* such as `int(...)` or
`ValueError(...)`, which no profile event reports), and names both ends as
`workbench callgraph` does (docs/callgraph.md):

* a caller is the frame of the case that made the call; code in a class body or a
  comprehension is credited to its enclosing function (or module); C functions
  (`map`, `sorted(key=)`, `functools.partial`), generated code (a dataclass's `__init__`)
  and the Python code of `contextlib` / `functools` are transparent: a case function they
  call is credited to the case frame below them; a case function called back by other
  library code (`HTMLParser.feed` calling `handle_starttag`) is left out, as the export
  has no name for that caller;
* a generator (coroutine) is called where it starts running (its first `next`, `send` or
  `await`), not on resumes; where that is not where it was created (an event loop starts
  it), the edge from the creating call is added by hand;
* a callee in the case is named by module path + lexical nesting, lambdas `<lambdaN>`;
  a builtin is `<builtin>.NAME`; a library function called straight from the case is
  printed as `EXTERNAL module.qualname` (the module where it is *defined*, e.g.
  `posixpath.join`), to be renamed by hand to the import path as written (`os.path.join`);
* edges to dunder methods other than `__init__` / `__call__` and to property functions are
  listed again under "implicit" (they run without a call expression in the source).

Imports are not calls, so module bodies are never callees. Call expressions on lines that
never ran are listed ("not run"): their edges are added by hand with the target Python
would call there. Output: a draft graph (JSON)
plus the implicit edges; the case's expected.json is written from it by hand.
"""
from __future__ import annotations

import ast
import builtins
import json
import os
import runpy
import sys
from collections import defaultdict

COMPREHENSIONS = {"<listcomp>", "<dictcomp>", "<setcomp>", "<genexpr>"}
CO_OPTIMIZED = 0x1
CO_GENERATOR = 0x20 | 0x80 | 0x200  # generator, coroutine, async generator
#: library modules whose Python frames are transparent between two frames of the case
TRANSPARENT = ("contextlib.py", "functools.py")


class Case:
    def __init__(self, root: str):
        self.root = os.path.abspath(root)
        self.lambda_names: dict[str, list] = {}  # file -> [(start, end, name parts)]
        self.type_calls: dict[str, dict[int, set]] = {}  # file -> line -> builtin type names
        self.properties: set[str] = set()
        self.edges: dict[str, set] = defaultdict(set)
        self.implicit: set[tuple[str, str]] = set()
        self.started: list = []  # generator frames already started
        self.dropped: set[str] = set()  # case functions called back by library code
        self.executed: dict[str, set] = defaultdict(set)  # file -> lines run

    # ---- names -------------------------------------------------------------
    def module(self, filename: str) -> str | None:
        if not filename.endswith(".py"):
            return None
        path = os.path.abspath(filename)
        if not path.startswith(self.root + os.sep):
            return None
        parts = os.path.relpath(path, self.root)[:-3].split(os.sep)
        if parts[-1] == "__init__":
            parts = parts[:-1]
        self._scan(path)
        return ".".join(parts)

    def _scan(self, path: str) -> None:
        if path in self.lambda_names:
            return
        tree = ast.parse(open(path).read())
        lambdas: list = []
        bound = set()
        for node in ast.walk(tree):
            if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
                bound.add(node.name)
            elif isinstance(node, ast.Name) and isinstance(node.ctx, ast.Store):
                bound.add(node.id)
            elif isinstance(node, ast.alias):
                bound.add((node.asname or node.name).split(".")[0])
            elif isinstance(node, ast.arg):
                bound.add(node.arg)

        def visit(node, prefix: list, counter: list):
            if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
                outer = list(node.decorator_list)
                if isinstance(node, ast.ClassDef):
                    outer += node.bases + [k.value for k in node.keywords]
                else:
                    outer += node.args.defaults + [d for d in node.args.kw_defaults if d]
                    decos = {ast.unparse(d) for d in node.decorator_list}
                    if "property" in decos or any(x.endswith((".setter", ".getter")) for x in decos):
                        self.properties.add((path, min(d.lineno for d in node.decorator_list)))
                for expr in outer:
                    visit(expr, prefix, counter)
                inner = [0]
                for stmt in node.body:
                    visit(stmt, prefix + [node.name], inner)
                return
            if isinstance(node, ast.Lambda):
                counter[0] += 1
                name = prefix + [f"<lambda{counter[0]}>"]
                lambdas.append(((node.lineno, node.col_offset),
                                (node.end_lineno, node.end_col_offset), name))
                for d in node.args.defaults:
                    visit(d, prefix, counter)
                visit(node.body, name, [0])
                return
            for child in ast.iter_child_nodes(node):
                visit(child, prefix, counter)

        visit(tree, [], [0])
        self.lambda_names[path] = lambdas
        calls: dict[int, set] = defaultdict(set)
        for node in ast.walk(tree):
            if isinstance(node, ast.Call) and isinstance(node.func, ast.Name):
                name = node.func.id
                if name not in bound and isinstance(getattr(builtins, name, None), type):
                    calls[node.func.lineno].add(name)
        self.type_calls[path] = calls

    def lambda_name(self, code) -> list:
        path = os.path.abspath(code.co_filename)
        body = [(l, c) for l, _, c, _ in code.co_positions() if l is not None and (l, c) != (code.co_firstlineno, 0) or False]
        body = [p for p in body if p[0] is not None and p[1] is not None]
        start = min(body) if body else (code.co_firstlineno, 10**6)
        best = None
        for s, e, name in self.lambda_names[path]:
            if s <= start <= e and (best is None or s > best[0]):
                best = (s, name)
        if best is None:
            raise RuntimeError(f"lambda at {start} not found in {path}")
        return best[1]

    def func_name(self, code) -> str | None:
        """Export name of a function's code object (None for module/class/comprehension)."""
        mod = self.module(code.co_filename)
        if mod is None:
            return None
        if code.co_name == "<module>" or code.co_name in COMPREHENSIONS:
            return None
        if not code.co_flags & CO_OPTIMIZED:  # class body
            return None
        if code.co_name == "<lambda>":
            parts = self.lambda_name(code)
        else:
            parts = [p for p in code.co_qualname.split(".") if p != "<locals>" and p not in COMPREHENSIONS]
        return ".".join([mod] + parts) if mod else ".".join(parts)

    def caller_name(self, code) -> str | None:
        """Export name of the function (or module) a frame's code is credited to."""
        mod = self.module(code.co_filename)
        if mod is None:
            return None
        name = self.func_name(code)
        if name is not None:
            return name
        if code.co_name == "<module>":
            return mod
        raw = code.co_qualname.split(".")
        if code.co_name == "<lambda>":
            return ".".join([mod] + self.lambda_name(code))
        # comprehension or class body: climb to the enclosing function, skipping classes
        raw = raw[:-1]
        while raw and raw[-1] != "<locals>":
            raw = raw[:-1]  # a class (or comprehension) level
        if not raw:
            return mod
        raw = raw[:-1]  # drop '<locals>': raw[-1] is now the enclosing function
        parts = [p for p in raw if p != "<locals>" and p not in COMPREHENSIONS]
        if parts and parts[-1] == "<lambda>":
            raise RuntimeError("comprehension inside a lambda: name it by hand")
        return ".".join([mod] + parts)

    def caller_frame(self, frame):
        """The case frame that made a call, seen through generated code and TRANSPARENT
        library frames; None when other library code is the caller (a callback such as
        HTMLParser.feed calling handle_starttag, left out of the expected graph)."""
        while frame is not None and self.module(frame.f_code.co_filename) is None:
            fn = frame.f_code.co_filename
            if not (fn == "<string>" or fn.endswith(TRANSPARENT)):
                return None
            frame = frame.f_back
        return frame

    # ---- hooks -------------------------------------------------------------
    def add(self, caller, callee, implicit=False):
        self.edges[caller].add(callee)
        if implicit:
            self.implicit.add((caller, callee))

    def profile(self, frame, event, arg):
        try:
            if event == "call":
                code = frame.f_code
                callee = self.func_name(code)
                if callee is not None:
                    if code.co_flags & CO_GENERATOR:
                        if frame in self.started:
                            return  # a resume (next/send/close), not a new call
                        self.started.append(frame)
                    caller_frame = self.caller_frame(frame.f_back)
                    if caller_frame is None:
                        self.dropped.add(callee)
                        return
                    caller = self.caller_name(caller_frame.f_code)
                    last = callee.rsplit(".", 1)[-1]
                    implicit = (last.startswith("__") and last.endswith("__")
                                and last not in ("__init__", "__call__")) or \
                        (os.path.abspath(code.co_filename), code.co_firstlineno) in self.properties
                    self.add(caller, callee, implicit)
                elif self.module(code.co_filename) is None and frame.f_back is not None:
                    back = frame.f_back
                    if self.module(back.f_code.co_filename) is None:
                        return
                    fn = code.co_filename
                    if fn.startswith("<") and not (fn.startswith("<frozen ") and "importlib" not in fn):
                        return  # generated code, importlib
                    modname = frame.f_globals.get("__name__", "?")
                    self.add(self.caller_name(back.f_code), f"EXTERNAL {modname}.{code.co_qualname}")
            elif event == "c_call":
                if self.module(frame.f_code.co_filename) is None:
                    return
                owner = getattr(arg, "__self__", None)
                caller = self.caller_name(frame.f_code)
                if owner is builtins and arg.__name__ != "__build_class__":
                    self.add(caller, f"<builtin>.{arg.__name__}")
                elif isinstance(owner, type(sys)) and owner is not builtins:
                    self.add(caller, f"EXTERNAL {owner.__name__}.{arg.__name__}")
        except RuntimeError as exc:
            print("TRACER:", exc, file=sys.stderr)

    def trace(self, frame, event, arg):
        if self.module(frame.f_code.co_filename) is None:
            return None
        return self.line

    def line(self, frame, event, arg):
        if event == "line":
            path = os.path.abspath(frame.f_code.co_filename)
            self.executed[path].add(frame.f_lineno)
            names = self.type_calls.get(path, {}).get(frame.f_lineno)
            if names:
                caller = self.caller_name(frame.f_code)
                for n in names:
                    self.add(caller, f"<builtin>.{n}")
        return self.line


def all_keys(case: Case) -> set[str]:
    """Every function, method and lambda of the case's files (the export's keys)."""
    keys = set()
    for dirpath, _, files in os.walk(case.root):
        for f in files:
            path = os.path.join(dirpath, f)
            mod = case.module(path)
            if mod is None:
                continue
            keys.add(mod)
            for *_, parts in case.lambda_names[os.path.abspath(path)]:
                keys.add(".".join([mod] + parts))

            def defs(node, prefix):
                for child in ast.iter_child_nodes(node):
                    if isinstance(child, (ast.FunctionDef, ast.AsyncFunctionDef)):
                        keys.add(".".join([mod] + prefix + [child.name]))
                        defs(child, prefix + [child.name])
                    elif isinstance(child, ast.ClassDef):
                        defs(child, prefix + [child.name])
                    else:
                        defs(child, prefix)
            defs(ast.parse(open(path).read()), [])
    return {k.lstrip(".") for k in keys}


def main(root: str, write: bool = False, renames: dict | None = None) -> None:
    sys.dont_write_bytecode = True
    case = Case(root)
    entry = os.path.join(case.root, "main.py")
    sys.path.insert(0, case.root)
    old = os.getcwd()
    os.chdir(case.root)
    sys.setprofile(case.profile)
    sys.settrace(case.trace)
    try:
        runpy.run_path(entry, run_name="__main__")
    except SystemExit:
        pass
    finally:
        sys.settrace(None)
        sys.setprofile(None)
        os.chdir(old)
    renames = renames or {}

    def rename(callee):
        if callee.startswith("EXTERNAL "):
            return renames.get(callee[9:], callee)
        return callee

    graph = {k: sorted({rename(c) for c in v if renames.get(c[9:], 1) != ""})
             for k, v in case.edges.items()}
    for key in all_keys(case):
        graph.setdefault(key, [])
    graph = dict(sorted(graph.items()))
    implicit = sorted([a, rename(b)] for a, b in case.implicit)
    text = json.dumps(graph, indent=2) + "\n"
    print(text, end="")
    print("implicit:", json.dumps(implicit))
    for path in sorted(case.lambda_names):
        source = open(path).read()
        for node in ast.walk(ast.parse(source)):
            if isinstance(node, ast.Call) and node.func.lineno not in case.executed[path]:
                print(f"not run: {os.path.relpath(path, case.root)}:{node.func.lineno}: "
                      f"{ast.get_source_segment(source, node)}")
    if case.dropped:
        print("called back by library code (left out):", sorted(case.dropped))
    if write:
        if "EXTERNAL" in text:
            sys.exit("name the EXTERNAL callees first (NAME=IMPORT.PATH, or NAME= to drop)")
        with open(os.path.join(case.root, "expected.json"), "w") as f:
            f.write(text)
        path = os.path.join(case.root, "implicit.json")
        if implicit:
            with open(path, "w") as f:
                f.write(json.dumps(implicit, indent=1) + "\n")
        elif os.path.exists(path):
            os.remove(path)


def check(folder: str) -> None:
    """Trace every case under `folder` again and print where expected.json differs from the
    run, leaving out library callees (named by hand) and the edges of call sites that did
    not run (added by hand; the "not run" lines say which)."""
    import subprocess
    for case in sorted((p for p in os.scandir(folder) if p.is_dir()), key=lambda p: p.name):
        out = subprocess.run([sys.executable, __file__, case.path], capture_output=True,
                             text=True, check=True).stdout
        traced = json.loads(out[out.index("{"):out.index("\nimplicit:")])
        with open(os.path.join(case.path, "expected.json")) as f:
            expected = json.load(f)
        tops = {k.split(".")[0] for k in traced}

        def inner(g):
            return {(a, b) for a, bs in g.items() for b in bs
                    if b.startswith("<builtin>.") or b.split(".")[0] in tops}
        t, e = inner(traced), inner(expected)
        if t != e or set(traced) != set(expected):
            print(f"{case.name}: run only {sorted(t - e)}, expected only {sorted(e - t)}, "
                  f"keys differing {sorted(set(traced) ^ set(expected))}")
            print("".join(f"    {ln}\n" for ln in out.splitlines() if ln.startswith("not run")), end="")


if __name__ == "__main__":
    args = sys.argv[1:]
    if args[0] == "--check":
        check(args[1])
        sys.exit()
    write = "--write" in args
    args = [a for a in args if a != "--write"]
    main(args[0], write, dict(a.split("=", 1) for a in args[1:]))
