"""Per-language knowledge as data: which grammar, which query file, how modules are named.

Everything a language needs lives here as a `LanguageSpec` plus a query file
`workbench/languages/<name>.scm` written in the tags.scm capture convention. The
extractor (`workbench.extract`) is generic: adding a language means adding a spec entry,
a query file and a test, never an if-chain in the core.

Capture names understood by the extractor (see docs/queries.md):

* ``@definition.<kind>`` / ``@declaration.<kind>``: the node a symbol spans
  (declarations are prototypes/signatures without a body); ``@name`` its name node.
* ``@body``: the body (the signature is the text before it; references inside it belong
  to the symbol); ``@decorator``: decorators, annotations, attributes kept with it
  (they extend ``start_line``); ``@doc``: a docstring node; ``@qualifier``: a receiver
  type placed before the name in the qualname (Go methods).
* ``@reference.call``: the callee expression of a call, as written.
* ``@reference.inherits`` / ``@reference.implements`` together with ``@name``: a base
  of the definition whose name node is ``@name``.
* ``@import.module`` / ``@import.name`` / ``@import.alias`` (+ ``@import`` for the
  statement): one imported binding; a pattern may fix a part to a literal with
  ``(#set! import.name "default")``.
* ``@package``: the file's package/namespace (Java).
* ``@comment``: comments, used for leading-comment docs.
* ``@bind.<kind>`` / ``@bind.target`` / ``@bind.value`` / ``@bind.key``: call-graph bindings;
  ``@bind.args`` a node whose named children are rows when they have one of the shapes
  that ``@shape.<kind>`` patterns give for its type (``workbench/shapes.py``).
* settings of a definition pattern: ``(#set! name.suffix "=")`` (appended to the name, a
  symbol of its own), ``(#set! parent "class")`` (belongs to the nearest enclosing class),
  ``(#set! extent "file")`` (spans to the end of the file).

A query file may start with ``; inherits: ecma, jsx`` to include shared query files
(each once, before its own patterns).
"""
from __future__ import annotations

import re
from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path, PurePosixPath

QUERY_DIR = Path(__file__).parent


@dataclass(frozen=True)
class LanguageSpec:
    name: str
    grammar: str
    extensions: tuple[str, ...]
    query: str | None = None              # query file stem under languages/
    module_naming: str = "path"           # path | package | directory
    index_stems: tuple[str, ...] = ()     # file stems that name their directory (__init__, index)
    docstrings: bool = False              # doc from @doc string nodes (Python) instead of comments
    class_scope_visible: bool = True      # bare names inside methods see class members
    class_kinds: tuple[str, ...] = ("class", "interface", "struct", "enum", "trait", "impl", "record")
    private_prefix: str | None = None     # names starting with this are private (Python: "_")
    parse: bool = True                    # False: data formats, counted but not parsed
    strip_signature_suffix: tuple[str, ...] = ("{", ":", "=>", "=")
    trailing_comments_in_body: bool = False  # indentation grammars: trailing comments end no block
    visibility: str = "modifiers"         # modifiers | pub (Rust) | case (Go) | static (C)
    indent_repair: bool = False           # broken files: repair ranges by indentation (indent_repair.py)
    macro_repair: bool = False            # broken files: re-parse with annotation macros blanked (macro_repair.py)
    # files that only declare (Python `.pyi` stubs): their symbols are `is_declaration`, so a
    # lookup prefers the implementation of the same qualname and still finds the stub
    declaration_files: tuple[str, ...] = ()
    # (extensions, pattern, language): a file with one of these extensions whose bytes match
    # the pattern is that other language (C++ headers named `.h`)
    content_switch: tuple | None = None
    # definitions written outside their class (`void Circle::area() {}`) are methods when a
    # method of the same name (module prefix aside) is declared anywhere in the repository
    out_of_line_methods: bool = False
    # the generic rule (see docs/queries.md) runs too, and the query file only adds to it
    generic_rule: bool = False
    # extra["name_strip"]: {name node type: characters stripped from the front of the name}
    # extra["qualified_names"]: {name node type: scope node type}: a name of that type is read
    # part by part (its `scope` and `name` fields), a scope of the second type by its own
    # `name` field, dropping what else it holds (C++ template arguments)
    # extra["node_labels"]: {name node type: (prefix, field)}: a symbol whose name node has
    # that type is named prefix + the text of the node's field (`operator bool`), or prefix
    # alone when field is None
    extra: dict = field(default_factory=dict, compare=False, hash=False)


SPECS: dict[str, LanguageSpec] = {}


def _add(spec: LanguageSpec) -> None:
    SPECS[spec.name] = spec


_add(LanguageSpec("python", "python", (".py", ".pyi", ".pyw"), query="python",
                  declaration_files=(".pyi",),
                  index_stems=("__init__",), docstrings=True, class_scope_visible=False,
                  private_prefix="_", trailing_comments_in_body=True, indent_repair=True))
_add(LanguageSpec("javascript", "javascript", (".js", ".mjs", ".cjs", ".jsx"), query="javascript",
                  index_stems=("index",), private_prefix="#"))
_add(LanguageSpec("typescript", "typescript", (".ts", ".mts", ".cts"), query="typescript",
                  index_stems=("index",), private_prefix="#"))
_add(LanguageSpec("tsx", "tsx", (".tsx",), query="tsx", index_stems=("index",),
                  private_prefix="#"))
_add(LanguageSpec("java", "java", (".java",), query="java", module_naming="package"))
_add(LanguageSpec("go", "go", (".go",), query="go", module_naming="directory", visibility="case"))
_add(LanguageSpec("rust", "rust", (".rs",), query="rust", index_stems=("mod",), visibility="pub"))
# A `.h` header holding C++ only syntax (a class, a namespace, a template, an access label)
# is parsed as C++: C++ projects often name their headers `.h`.
_CPP_MARKERS = re.compile(
    rb"^[ \t]*(?:class[ \t]+[A-Za-z_]\w*[ \t]*(?:final[ \t]*)?[:{;\n]|namespace(?:[ \t]+[A-Za-z_][\w:]*)?\s*\{"
    rb"|using[ \t]+namespace[ \t]|template[ \t]*<|(?:public|private|protected)[ \t]*:)", re.M)
_add(LanguageSpec("c", "c", (".c", ".h"), query="c", visibility="static", macro_repair=True,
                  content_switch=((".h",), _CPP_MARKERS, "cpp")))
_add(LanguageSpec("cpp", "cpp", (".cc", ".cpp", ".cxx", ".c++", ".hpp", ".hh", ".hxx", ".h++",
                                 ".ipp", ".tpp"), query="cpp", out_of_line_methods=True,
                  macro_repair=True,
                  # a conversion operator's name node spans its parameters: name it by its type;
                  # an out-of-line definition's scope drops its template arguments
                  # (`buffer<T>::append` is `buffer.append`, a method of `buffer`)
                  extra={"node_labels": {"operator_cast": ("operator ", "type")},
                         "qualified_names": {"qualified_identifier": "template_type"}}))

# C#: `#if` blocks splitting a declaration or statement (a parameter under `#if TRACE`) are
# repaired as in C (macro_repair.py)
_add(LanguageSpec("csharp", "csharp", (".cs",), query="csharp", macro_repair=True,
                  # an operator's name is `operator ` + its operator or target type, a destructor's `~Name`
                  extra={"node_labels": {"operator_declaration": ("operator ", "operator"),
                                         "conversion_operator_declaration": ("operator ", "type"),
                                         "destructor_declaration": ("~", "name")}}))

_add(LanguageSpec("kotlin", "kotlin", (".kt", ".kts"), query="kotlin",
                  class_kinds=("class", "interface", "enum", "object"),
                  # an unnamed `companion object` is named `Companion`, as Kotlin names it
                  extra={"node_labels": {"companion": ("Companion", None)}}))

# The generic rule plus a query file of what it cannot see (constants, accessors,
# properties, functions written as values).
_add(LanguageSpec("ruby", "ruby", (".rb",), query="ruby", generic_rule=True,
                  extra={"name_strip": {"simple_symbol": ":"}}))
_add(LanguageSpec("php", "php", (".php",), query="php", generic_rule=True))
_add(LanguageSpec("lua", "lua", (".lua",), query="lua", generic_rule=True))

# Languages the grammar pack knows, indexed with the generic rule (named definition nodes).
_GENERIC = {
    "swift": (".swift",), "scala": (".scala", ".sc"), "bash": (".sh", ".bash"),
    "haskell": (".hs",), "elixir": (".ex", ".exs"), "erlang": (".erl", ".hrl"),
    "ocaml": (".ml",), "julia": (".jl",), "dart": (".dart",), "zig": (".zig",),
    "perl": (".pl", ".pm"), "r": (".r", ".R"), "objc": (".m",), "groovy": (".groovy", ".gradle"),
    "elm": (".elm",), "clojure": (".clj", ".cljs"), "fsharp": (".fs",), "nim": (".nim",),
    "solidity": (".sol",), "proto": (".proto",), "cuda": (".cu", ".cuh"), "d": (".d",),
    "fortran": (".f90", ".f95"), "pascal": (".pas",), "powershell": (".ps1",),
    "vue": (".vue",), "svelte": (".svelte",), "sql": (".sql",), "tcl": (".tcl",),
    "cmake": (".cmake",), "make": (".mk",), "hcl": (".hcl", ".tf"), "glsl": (".glsl",),
}
for _name, _exts in _GENERIC.items():
    _add(LanguageSpec(_name, _name, _exts))

# Data and prose formats: a files row with line counts, no symbols.
_DATA = {
    "markdown": (".md", ".markdown"), "json": (".json",), "yaml": (".yml", ".yaml"),
    "toml": (".toml",), "xml": (".xml",), "html": (".html", ".htm"), "css": (".css",),
    "csv": (".csv",), "ini": (".ini", ".cfg"), "text": (".txt", ".rst"),
}
for _name, _exts in _DATA.items():
    _add(LanguageSpec(_name, _name, _exts, parse=False))

_FILENAMES = {"Makefile": "make", "makefile": "make", "CMakeLists.txt": "cmake",
              "Dockerfile": "text", "go.mod": "text", "go.sum": "text", "Cargo.lock": "toml",
              ".gitignore": "text", ".gitattributes": "text", ".dockerignore": "text",
              ".editorconfig": "ini", "LICENSE": "text", "README": "text", "requirements.txt": "text"}

_BY_EXT: dict[str, LanguageSpec] = {}
for _spec in SPECS.values():
    for _ext in _spec.extensions:
        _BY_EXT.setdefault(_ext, _spec)
        _BY_EXT.setdefault(_ext.lower(), _spec)


def detect(path: str) -> LanguageSpec | None:
    """The language of a repo-relative path, by file name then extension; None if unknown."""
    p = PurePosixPath(path)
    if p.name in _FILENAMES:
        return SPECS[_FILENAMES[p.name]]
    return _BY_EXT.get(p.suffix) or _BY_EXT.get(p.suffix.lower())


def refine(spec: LanguageSpec | None, path: str, data: bytes) -> LanguageSpec | None:
    """The language of a file once its bytes are known (see `LanguageSpec.content_switch`)."""
    if spec is None or spec.content_switch is None:
        return spec
    exts, pattern, other = spec.content_switch
    if PurePosixPath(path).suffix.lower() in exts and pattern.search(data):
        return SPECS[other]
    return spec


def query_text(spec: LanguageSpec) -> str | None:
    if spec.query is None:
        return None
    return _query_file(spec.query)


_INHERITS = re.compile(r"^;+\s*inherits:\s*(.+)$", re.M)


def _query_file(stem: str, done: set[str] | None = None) -> str:
    """A query file's text after the files named on its `; inherits: a, b` lines
    (nvim-treesitter's convention; each file included once), so related grammars
    (javascript/typescript/tsx, c/cpp) share their common rules."""
    done = set() if done is None else done
    done.add(stem)
    text = (QUERY_DIR / f"{stem}.scm").read_text(encoding="utf-8")
    parts = []
    for m in _INHERITS.finditer(text):
        for base in re.split(r"[,\s]+", m.group(1).strip()):
            if base and base not in done:
                parts.append(_query_file(base, done))
    parts.append(text)
    return "\n".join(parts)


@lru_cache(maxsize=None)
def grammar(name: str):
    """The tree-sitter Language of a grammar name (cached per process)."""
    from tree_sitter_language_pack import get_language
    return get_language(name)


def module_path(path: str, spec: LanguageSpec | None) -> str:
    """Dotted module name of a repo-relative path: ``pkg/mod.py`` -> ``pkg.mod``.

    A file whose stem is one of the language's index stems (``__init__``, ``index``,
    ``mod``) names its directory. Go modules are directories.
    """
    p = PurePosixPath(path)
    parts = list(p.parts[:-1])
    stem = p.name.split(".")[0] if not p.name.startswith(".") else p.name
    if spec is not None and spec.module_naming == "directory":
        pass
    elif spec is not None and stem in spec.index_stems and parts:
        pass
    else:
        parts.append(stem)
    parts = [x.replace(".", "_") for x in parts if x not in ("", ".")]
    return ".".join(parts) if parts else stem
