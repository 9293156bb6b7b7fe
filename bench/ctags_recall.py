"""Benchmark: how many of Universal Ctags' definitions the index finds, per language and kind.

Universal Ctags is the reference (Debian's `universal-ctags`; the script installs it with
`apt-get install -y universal-ctags` when `ctags` is missing or is not Universal Ctags).
For every corpus (real code fetched at run time, see CORPORA) it runs ctags with its
default kinds and the index without cross-file resolution, then counts a ctags tag as
found when a symbol of the same file has the same name (whitespace aside, the last part of
a qualified name) and the tag's line lies in the symbol's header: from its start line to
the line its body starts on (to its end line when it has no body).

Kinds not counted, and why (everything else ctags emits by default is counted):

  * every language: tags ctags names `__anon...` or `<lambda>` (an anonymous struct, enum,
    union or lambda has no name to look up); tags of files the index did not parse (skipped as binary/too big).
  * import bindings (Python `I` namespace = `import x as y` and `x` unknown = `from m import
    y`, Go `P` packageName, PHP `a` alias = `use A\\B;`, TypeScript `alias` tags that are no
    `type X =` but an imported type): rows of the `imports` table, not definitions.
  * package clauses (Java `p`, Go `p`, Kotlin `p`): the package is the qualname prefix
    of every symbol of the file, not a symbol.
  * locals: ctags' JavaScript/TypeScript variables and constants, and C/C++ definitions,
    in a function or method scope (local variables are not modelled). ctags' JavaScript
    parser often loses the function scope of a local (`const x = ..` in a method of an
    object, an assignment `x = ..` it takes for a constant, a `const` in an arrow function
    passed to a call), so a JavaScript/TypeScript variable or constant on a line inside a
    function body is a local; the bench finds the bodies with a tree-sitter query of its
    own, not from the index's symbols. A loop variable (`for (const x of xs)`) is local to
    its loop, also at the top level of a module.
  * JavaScript object literals: ctags calls a non-function property value `property` and an
    object literal (`x = { a: {..} }`) a `class` and a shorthand member (`{ CLIEngine }`) a
    `field` (a `field` counts only in an ES class, and not on a line inside a method body,
    where ctags takes uses of `this.x` for fields); the index keeps the functions of an object
    literal (`{ run() {} }` is a symbol) but no plain values (docs/queries.md). ES classes
    (`class Name`) are counted.
  * JavaScript/TypeScript variables and constants whose own line does not declare them
    (`const`/`let`/`var NAME`, or `NAME` starting the line or after a comma): ctags' TypeScript
    parser names a constant after the object of a call behind a `/*@__PURE__*/` comment, or
    after a member of an object literal (`Minute: -1,`).
  * Kotlin: `val`/`var` in a function (locals, loop and destructuring variables; ctags'
    scope or a line inside a function, accessor or lambda body as found by the bench's
    query, as for JavaScript), and `method` tags on a line without `fun`:
    ctags makes each lambda parameter (`{ (key, value) -> .. }`) a `method` of a `<lambda>`
    scope, and some loop variables (`for (i in xs)`) and `when (val x = ..)` subjects too.
  * Lua: a `function` tag on a line without the word `function`: ctags' Lua parser takes an
    assignment from a call of a name starting with `function` (`fun = function_arg(1, fun)`)
    for a definition.
  * Ruby: a `constant` tag on a line that does not assign it: ctags' Ruby parser takes
    uses of a constant as a hash key or in a comparison (`CONTENT_LENGTH => '0'`,
    `CHUNKED == x`) for definitions.
  * C#: a `field` tag whose name is used on its line only inside parentheses: ctags' C#
    parser takes the parameters of a member (mostly expression-bodied ones,
    `static int Get(Ref ob) => ..`) for fields.
  * JavaScript `A.prototype.f = g;`: ctags calls every assignment to a prototype member a
    method; one whose value is a name rebinds an existing function and defines none.
  * C/C++ include guards (the `#define` of the name a header's first `#ifndef` tests: no
    API), and names ctags took from annotation macros (`int x OVS_GUARDED;` gives ctags a
    member `OVS_GUARDED`): tags whose name is a macro of the corpus or a Microsoft source
    annotation (`_In_`, `_IRQL_requires_`), of a kind other than macro.

Universal Ctags 5.9 (Debian 12) has no Swift or Scala parser: for a language without one
the script prints the index's symbol counts by kind (Swift files come with the Kotlin
corpus; no Scala corpus is fetched).

  .venv/bin/python bench/ctags_recall.py [--only c,cpp] [--cache DIR] [--misses N] [--kinds]
"""
from __future__ import annotations

import argparse
import collections
import functools
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench.languages_bench import (_apt, _run, corpus, fetch_go, fetch_java,  # noqa: E402
                                   fetch_rust, fetch_ts)
from workbench.indexer import index  # noqa: E402


def _tarballs(dest: str, pattern: str, keep: tuple[str, ...] = ()) -> str:
    """Unpack the source tarball(s) a `*-source` package ships; the first one's root."""
    import glob
    tars = sorted(glob.glob(os.path.join(dest, pattern)))
    out = os.path.join(dest, "src")
    os.makedirs(out, exist_ok=True)
    for t in tars:
        shutil.unpack_archive(t, out)
    roots = [os.path.join(out, d) for d in sorted(os.listdir(out))]
    return roots[0] if len(roots) == 1 else out


def fetch_c(dest: str) -> str:
    # Open vSwitch: annotation macros on structs (`struct OVS_LOCKABLE ovs_mutex`), SAL/IRQL
    # annotations in its Windows datapath, typedef-heavy headers
    _apt(["openvswitch-source"], dest)
    return _tarballs(dest, "usr/src/openvswitch/*.tar.*")


def fetch_cpp(dest: str) -> str:
    # fmt and googletest: export/inline/attribute macros, namespace-opening macros
    _apt(["libfmt-dev", "libgtest-dev"], dest)
    return os.path.join(dest, "usr/include")


def fetch_npm(spec: str, dest: str) -> str:
    _run(["npm", "pack", "--silent", spec], dest)
    import glob
    tgz = glob.glob(os.path.join(dest, "*.tgz"))[0]
    shutil.unpack_archive(tgz, dest)
    return os.path.join(dest, "package")


def fetch_js(dest: str) -> str:
    # eslint: rule objects whose visitor methods live in objects nested in calls
    return fetch_npm("eslint@8", dest)


def fetch_mobile(dest: str) -> str:
    # Kotlin (android/) and Swift (ios/) sources of a React Native module package
    return fetch_npm("expo-modules-core@2", dest)


def fetch_csharp(dest: str) -> str:
    _run([sys.executable, "-m", "pip", "download", "-q", "--no-deps", "--no-binary", ":all:",
          "pythonnet==3.0.5", "-d", dest], dest)
    import glob
    return _tarballs(dest, "pythonnet-*.tar.gz")


def fetch_deb(package: str, sub: str):
    def fetch(dest: str) -> str:
        _apt([package], dest)
        return os.path.join(dest, sub)
    return fetch


def fetch_python(dest: str) -> str:
    import sysconfig
    return sysconfig.get_paths()["stdlib"]


# name -> (fetcher, languages scored there, description printed with the figures)
CORPORA = {
    "c": (fetch_c, ("c",), "openvswitch-source (Debian)"),
    "cpp": (fetch_cpp, ("cpp",), "libfmt-dev + libgtest-dev headers (Debian)"),
    "javascript": (fetch_js, ("javascript",), "eslint@8 (npm)"),
    "typescript": (fetch_ts, ("typescript",), "zod@3 (npm)"),
    "python": (fetch_python, ("python",), "the running interpreter's standard library"),
    "go": (fetch_go, ("go",), "golang-1.NN-src (Debian)"),
    "java": (fetch_java, ("java",), "openjdk-17-source java.base (Debian)"),
    "rust": (fetch_rust, ("rust",), "librust-tokio-dev (Debian)"),
    "ruby": (fetch_deb("ruby-rack", "usr"), ("ruby",), "ruby-rack (Debian)"),
    "php": (fetch_deb("php-league-commonmark", "usr/share/php"), ("php",),
            "php-league-commonmark (Debian)"),
    "lua": (fetch_deb("lua-penlight", "usr/share/lua"), ("lua",), "lua-penlight (Debian)"),
    "csharp": (fetch_csharp, ("csharp",), "pythonnet 3.0.5 sdist (PyPI)"),
    "kotlin": (fetch_mobile, ("kotlin", "swift"), "expo-modules-core@2 (npm; Kotlin and Swift)"),
}

# our language -> ctags language
CTAGS_LANG = {"c": "C", "cpp": "C++", "javascript": "JavaScript", "typescript": "TypeScript",
              "python": "Python", "go": "Go", "java": "Java", "rust": "Rust", "ruby": "Ruby",
              "php": "PHP", "lua": "Lua", "csharp": "C#", "kotlin": "Kotlin"}

# (ctags language, kind) not counted: see the module docstring
EXCLUDED = {("Python", "namespace"), ("Python", "unknown"), ("PHP", "alias"),
            ("Go", "packageName"), ("Go", "package"),
            ("Java", "package"), ("Kotlin", "package")}
LOCAL_SCOPES = {"function", "method", "func", "getter", "setter", "generator"}


def ensure_ctags() -> str:
    exe = shutil.which("ctags")
    ok = exe and "Universal Ctags" in subprocess.run([exe, "--version"], capture_output=True,
                                                     text=True).stdout
    if not ok:
        subprocess.run(["apt-get", "install", "-y", "-q", "universal-ctags"], check=True,
                       stdout=subprocess.DEVNULL)
        exe = shutil.which("ctags")
    return exe


def ctags_tags(exe: str, root: str, paths: dict[str, str]) -> list[dict]:
    """ctags' default-kind definitions of the files the index parsed (repo-relative paths),
    each file given the language the index gave it (`.h` is C or C++ by content)."""
    by_lang = collections.defaultdict(list)
    for p, lang in paths.items():
        if lang in CTAGS_LANG:
            by_lang[CTAGS_LANG[lang]].append(p)
    tags = []
    for clang, files in by_lang.items():
        with tempfile.NamedTemporaryFile("w", suffix=".lst", delete=False) as lst:
            lst.write("\n".join(files) + "\n")
        try:
            out = subprocess.run([exe, "--output-format=json", "--fields=+nKZe", "-f", "-",
                                  f"--language-force={clang}", "-L", lst.name],
                                 cwd=root, capture_output=True, text=True, errors="replace")
        finally:
            os.unlink(lst.name)
        for line in out.stdout.splitlines():
            try:
                t = json.loads(line)
            except ValueError:
                continue
            if t.get("_type") == "tag":
                t["clang"] = clang
                tags.append(t)
    return tags


_SAL = re.compile(r"^_[A-Z]\w*_$")
_GUARD = re.compile(rb"^\s*#\s*(?:ifndef\s+(\w+)|if\s+!\s*defined\s*\(?\s*(\w+))", re.M)
_REQUIRE = re.compile(r"=\s*require\s*\(")
_REBIND = re.compile(r"\.prototype\.[\w$]+\s*=\s*[\w$.]+;?\$/$")


@functools.lru_cache(maxsize=4096)
def _guard(root: str, path: str) -> str | None:
    """The include guard of a header: the name its first preprocessor directive tests."""
    try:
        data = Path(root, path).read_bytes()
    except OSError:
        return None
    first = re.search(rb"^\s*#\s*\w+", data, re.M)
    m = _GUARD.match(data, first.start()) if first else None
    return (m.group(1) or m.group(2)).decode() if m else None


# function bodies, found by a tree-sitter query of the bench's own (independent of the
# index's symbols): JavaScript/TypeScript arrow functions passed to calls included; Kotlin
# function, accessor, initializer and lambda bodies
_ECMA_BODIES = """[(function_declaration body: (_) @b) (function_expression body: (_) @b)
 (arrow_function body: (statement_block) @b) (method_definition body: (_) @b)
 (generator_function_declaration body: (_) @b) (generator_function body: (_) @b)]"""
_BODY_QUERY = {"javascript": _ECMA_BODIES, "typescript": _ECMA_BODIES, "tsx": _ECMA_BODIES,
               "kotlin": """[(function_body) (getter) (setter) (anonymous_initializer)
                             (lambda_literal)] @b"""}


class _FunctionBodies:
    """(first line, last line) of every function body of a file (languages of `_BODY_QUERY`)."""

    def __init__(self, root: str, paths: dict):
        self.root, self.paths, self.cache = root, paths, {}

    def get(self, path: str, default=()):
        if path not in self.cache:
            self.cache[path] = self._bodies(path)
        return self.cache[path] or default

    def _bodies(self, path: str) -> list:
        lang = self.paths.get(path)
        if lang not in _BODY_QUERY:
            return []
        from tree_sitter import Parser, Query, QueryCursor

        from workbench.languages import grammar
        g = grammar(lang)
        key = ("q", lang)
        if key not in self.cache:
            self.cache[key] = (Parser(g), Query(g, _BODY_QUERY[lang]))
        parser, query = self.cache[key]
        tree = parser.parse(Path(self.root, path).read_bytes())
        return [(n.start_point[0] + 1, n.end_point[0] + 1)
                for ns in QueryCursor(query).captures(tree.root_node).values() for n in ns]


def _is_object_literal(t: dict) -> bool:
    """A ctags JavaScript `class` that is an object literal, not a `class Name`."""
    return not re.search(r"\bclass\s+" + re.escape(t["name"]) + r"\b", t.get("pattern", ""))


def _only_in_parentheses(name: str, pattern: str) -> bool:
    """Whether every use of `name` on the tag's line is inside parentheses (a parameter:
    `static int Get(Ref ob) => ..`), so the line declares no field of that name."""
    depth, found = 0, False
    for m in re.finditer(r"[()]|\b" + re.escape(name) + r"\b", pattern):
        tok = m.group(0)
        if tok == "(":
            depth += 1
        elif tok == ")":
            depth = max(0, depth - 1)
        elif depth == 0:
            return False
        else:
            found = True
    return found


def _excluded(t: dict, kind: str, root: str, ctx: dict) -> str | None:
    """Why a ctags tag is not counted (see the module docstring), or None."""
    clang, name, macros = t["clang"], t["name"], ctx["macros"]
    if (clang, kind) in EXCLUDED:
        return f"{clang} {kind}"
    if name.startswith("__anon") or name.startswith("<"):    # `__anon12ab`, Kotlin `<lambda>`
        return "anonymous"
    if clang in ("C", "C++"):
        if kind != "macro" and (name in macros or _SAL.match(name)):
            return "ctags took an annotation macro for a name"
        if kind == "macro" and _guard(root, t["path"]) == name:
            return "include guard"
        if t.get("scopeKind") in ("function", "method"):
            return "local"
    if clang == "Kotlin" and kind in ("constant", "variable") and (t.get("scopeKind") == "method" or any(
            b < t.get("line", 0) <= e for b, e in ctx["bodies"].get(t["path"], ()))):
        return "local"
    if clang == "Kotlin" and kind == "method" and not re.search(r"\bfun\b", t.get("pattern", "")):
        return "Kotlin lambda or loop parameter"
    if clang == "Lua" and not re.search(r"\bfunction\b(?!_)", t.get("pattern", "")):
        return "not declared on its line"
    if clang == "Ruby" and kind == "constant" and not re.search(
            r"\b" + re.escape(name) + r"\s*(?:\|\||&&)?=(?![=>~])", t.get("pattern", "")):
        return "not declared on its line"
    if clang == "C#" and kind == "field" and _only_in_parentheses(name, t.get("pattern", "")):
        return "C# parameter ctags took for a field"
    if clang in ("JavaScript", "TypeScript"):
        if name.startswith("AnonymousFunction"):
            return "anonymous"
        line = t.get("line", 0)
        if kind in ("variable", "constant", "field") and (t.get("scopeKind") in LOCAL_SCOPES or any(
                b < line <= e for b, e in ctx["bodies"].get(t["path"], ()))):
            return "local"
        if clang == "JavaScript" and (kind == "property" or kind == "class" and _is_object_literal(t)
                                      or kind == "field" and (t["path"], t.get("scope")) not in ctx["classes"]):
            return "object literal value"
        if kind == "method" and _REBIND.search(t.get("pattern", "")):
            return "member rebound to an existing value"
        if clang == "TypeScript" and kind == "alias" and not re.search(
                r"\btype\s+" + re.escape(name) + r"\b\s*[<=]", t.get("pattern", "")):
            return "import"
        if kind in ("variable", "constant") and re.search(
                r"\bfor\s*(?:await\s*)?\(\s*(?:const|let|var)\s+" + re.escape(name) + r"\b", t.get("pattern", "")):
            return "local"
        if kind in ("variable", "constant") and _REQUIRE.search(t.get("pattern", "")):
            return "require() import"
        if kind in ("variable", "constant") and not re.search(
                r"(?:\b(?:const|let|var)\s+|^/\^\s*|,\s*)" + re.escape(name) + r"\b", t.get("pattern", "")):
            return "not declared on its line"
    return None


def _norm(name: str) -> str:
    name = "".join(name.split())
    for sep in ("::", "."):
        # a C++ operator keeps its `::` (`operator std::string`); Lua's `operator.mul` does not
        if sep in name and not (name.startswith("operator") and not name.startswith("operator.")):
            name = name.rsplit(sep, 1)[-1]
    return name


def score(name: str, root: str, exe: str, misses: int, by_kind: bool) -> dict:
    import duckdb
    with tempfile.TemporaryDirectory(prefix="wb-ctags-") as tmp:
        db = os.path.join(tmp, "i.duckdb")
        t0 = time.perf_counter()
        index(root, db, progress=False, resolve=False)
        wall = time.perf_counter() - t0
        con = duckdb.connect(db, read_only=True)
        paths = dict(con.execute("SELECT path, language FROM files WHERE status IN ('ok', 'partial')").fetchall())
        syms = con.execute("""SELECT path, name, start_line, coalesce(body_start_line, end_line),
                                     end_line FROM symbols WHERE parent_id IS NOT NULL""").fetchall()
        no_ctags = collections.defaultdict(collections.Counter)
        for lang, kind, n in con.execute("""SELECT language, kind, count(*) FROM symbols
                                             WHERE parent_id IS NOT NULL GROUP BY 1, 2""").fetchall():
            if lang not in CTAGS_LANG:
                no_ctags[lang][kind] = n
        con.close()
    have = collections.defaultdict(list)
    for path, nm, s, h, e in syms:
        have[(path, _norm(nm))].append((s, h, e))
    t0 = time.perf_counter()
    tags = ctags_tags(exe, root, paths)
    ctags_s = time.perf_counter() - t0
    counts = collections.defaultdict(lambda: [0, 0])
    missed = collections.defaultdict(list)
    excluded = collections.Counter()
    macros = {t["name"] for t in tags if t.get("kind") == "macro"}
    ctx = {"macros": macros, "bodies": _FunctionBodies(root, paths), "classes": {
        (t["path"], f"{t['scope']}.{t['name']}" if t.get("scope") else t["name"])
        for t in tags if t["clang"] == "JavaScript" and t.get("kind") == "class"
        and not _is_object_literal(t)}}
    for t in tags:
        kind = t.get("kind", "?")
        why = _excluded(t, kind, root, ctx)
        if why:
            excluded[why] += 1
            continue
        lang = paths.get(t["path"])
        line = t.get("line", 0)
        ok = any(s <= line <= h or line == e
                 for s, h, e in have.get((t["path"], _norm(t["name"])), ()))
        c = counts[(lang, kind)]
        c[0] += 1
        c[1] += ok
        if not ok:
            missed[(lang, kind)].append(f"{t['path']}:{line} {t['name']}")
    print(f"{name}: {root}  (index {wall:.1f} s, ctags {ctags_s:.1f} s)")
    for lang, kinds in sorted(no_ctags.items()):
        print(f"  {lang:<11} no ctags parser: {sum(kinds.values())} symbols ("
              + ", ".join(f"{k} {n}" for k, n in kinds.most_common()) + ")")
    print("  not counted: " + (", ".join(f"{why} {n}" for why, n in sorted(excluded.items())) or "none"))
    per_lang = collections.defaultdict(lambda: [0, 0])
    for (lang, kind), (n, ok) in counts.items():
        per_lang[lang][0] += n
        per_lang[lang][1] += ok
    for lang, (n, ok) in sorted(per_lang.items()):
        print(f"  {lang:<11} recall {ok / n:.3f}  ({ok}/{n})")
        if by_kind:
            for (lg, kind), (kn, kok) in sorted(counts.items()):
                if lg == lang:
                    print(f"    {kind:<14} {kok / kn:.3f}  ({kok}/{kn})")
                    for m in missed[(lg, kind)][:misses]:
                        print(f"        miss {m}")
    return per_lang


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--only", default=",".join(CORPORA), help="comma-separated corpus names")
    ap.add_argument("--cache", default=os.path.join(os.path.expanduser("~"), ".cache",
                                                    "context-workbench", "corpora"))
    ap.add_argument("--misses", type=int, default=0, help="print up to N missed tags per kind")
    ap.add_argument("--kinds", action="store_true", help="recall per ctags kind too")
    args = ap.parse_args()
    exe = ensure_ctags()
    print(subprocess.run([exe, "--version"], capture_output=True, text=True).stdout.splitlines()[0])
    for name in args.only.split(","):
        fetch, _, what = CORPORA[name]
        try:
            root = corpus(name, args.cache, {name: fetch})
        except (OSError, RuntimeError, IndexError, subprocess.CalledProcessError) as exc:
            err = getattr(exc, "stderr", b"") or b""
            print(f"{name}: skipped, could not fetch the corpus ({exc} {err.decode(errors='replace')[:200]})")
            continue
        print(f"[{what}]")
        score(name, root, exe, args.misses, args.kinds or args.misses > 0)


if __name__ == "__main__":
    main()
