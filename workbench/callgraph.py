"""Call-graph export in the exchange format used to score call graphs (PyCG-style names).

    workbench callgraph main.py --package ROOT

prints ``{caller: [callees...]}`` as JSON. ROOT is indexed into an in-memory DuckDB with
the normal pipeline (scan -> extract -> store -> resolve); the graph is then read from
the same resolver the database uses, with the export's own rules on top:

* modules are named by their dotted path relative to ROOT (no extension; a package's
  ``__init__.py`` / a directory's ``index.ts`` is named after the directory); a module's
  top-level code is the caller named by the module itself;
* functions, methods and classes are named by lexical nesting (``main.A.B.method``);
  code in a class body runs in the enclosing scope and is credited to it; calls inside
  comprehensions belong to the enclosing function; lambdas are ``<lambdaN>``, numbered
  from 1 in source order within their enclosing namespace;
* a name resolves to its definition through imports and re-export chains; instantiating
  an in-package class is an edge to the ``__init__`` it gets along the MRO (none when no
  class in the package defines one), never to the class;
* a decorated function's name stands for what its decorators return (a wrapper), each
  applied with its parameters bound to its arguments (`@d(...)`) and to what the
  decorators below it made of the function (`Language.decorator_values`,
  `decorator_argument`); values passed as arguments, stored in
  containers, returned or yielded flow to where they are called, as far as the code makes
  it evident;
* a repository function handed to a builtin or C library function that calls it
  (``sorted(xs, key=f)``, ``map(f, xs)``, ``functools.reduce(f, xs)``: the table
  ``Language.callback_params``) is called by the function handing it over (C code has
  no frame of its own): the index's ``callback`` rows, read as they are;
* builtins are ``<builtin>.name``; code outside ROOT is named by its import path;
  guesses by name alone (`name-unique`, `ambiguous`) are left out;
* every function, method and lambda of the reachable modules (the entry files' modules
  and what they import inside ROOT, transitively) is a key, with ``[]`` when it calls
  nothing; declarations without a body (prototypes, abstract and interface methods) are
  not keys.

Other languages name things their own way through the hooks of their
`workbench.resolve.lang` module (`Language.export_name`, `export_builtin`,
`export_package_files` and the `export_*` flags); members nest below their owner as
above, and a called definition is always named as it is where it is defined:

* Java: ``package.Class.method`` (``Main.main`` in the default package), nested classes
  ``app.Request.Builder.build``; a constructor is named after its class
  (``app.Account.Account``), overloads share one name; calls in field initialisers are
  credited to the class (``app.Registry``); files are no callers; the JDK is not in the
  graph. The files covered grow along calls too (same-package types need no import).
* Go: a package is named by its directory relative to ROOT, dotted
  (``internal.strutil``), the package at ROOT by its package clause (``main``); methods
  by their receiver's type (``store.DB.Get``, pointer or not); package-level variable
  initialisers are credited to the package (``main``); imports outside ROOT by import
  path (``fmt.Println``); the predeclared functions ``<builtin>.len``, conversions
  (``string(b)``) are no calls. Importing a package covers all its (non-test) files.
* Rust: module paths from the crate root (the entry file), dotted: ``crate.main``,
  ``crate.util.helper`` (``util.rs`` or ``util/mod.rs``), ``crate.net.addr.parse``;
  items of an ``impl`` block are named through their type (``crate.Counter.new``), trait
  default methods through the trait; paths into other crates as written
  (``std.mem.swap``); macros (``println!``) and enum variants (``Some(x)``) are no calls.
* C / C++: the file without extension relative to ROOT, dotted, then namespaces and
  classes: ``util.util_add``, ``shape.geo.Square.area``; a function is named where it
  is defined (``Square::area`` in ``shape.cpp`` is ``shape.geo.Square.area``), the C
  library as ``<builtin>.printf``. The files covered are the entry, the headers it
  includes and the files defining what those declare (the linker's view).

Anonymous functions (Java and C++ lambdas, Go function literals, Rust closures) are
``<lambdaN>`` inside their function, like Python's lambdas. A C++ member declared in its
class body stands for its out-of-line definition. A call through an interface, trait
object or base-class reference is named by the method the resolver finds, the declared
one (``app.Shape.area``), not by the implementations that may run.
"""
from __future__ import annotations

import os
from collections import defaultdict

from . import store
from .resolve import Model, Resolver, resolve_import
from .resolve.kinds import CLASS_KINDS, FUNCTION_KINDS
from .resolve.lang import rules_of
from .resolve.setting import IMPLICIT_META
from .resolve.values import BOUND, BUILTIN, EXT, MODULE, SYM

EXPORT_KEY_KINDS = frozenset({"function", "method", "lambda", "constructor"})
#: resolutions that guess (a unique name elsewhere, several candidates)
_GUESSES = frozenset({"name-unique", "ambiguous"})
_NOT_CALLS = {(BUILTIN, "property"), (BUILTIN, "staticmethod"), (BUILTIN, "classmethod"),
              (BUILTIN, "require")}


def callgraph(entries, package: str, con=None, implicit: bool = False) -> dict[str, list[str]]:
    """The call graph of `entries` (files) relative to the package root `package`; with
    `implicit`, the calls Python makes without a call expression too (`resolve.setting`)."""
    from .indexer import index
    root = os.path.abspath(package)
    own = con is None
    if own:
        con = store.connect(":memory:")
    try:
        index(root, ":memory:", con=con, progress=False, jobs=1, implicit=implicit)
        rels = []
        for e in entries:
            p = os.path.abspath(e)
            rels.append(os.path.relpath(p, root).replace(os.sep, "/"))
        _check_entries(con, entries, rels, package)
        return export(con, rels)
    finally:
        if own:
            con.close()


def _check_entries(con, entries, rels: list[str], package: str) -> None:
    """A clear error for an entry file that is not under the package root or was not
    indexed (a syntax error still gives a `partial` file and its graph)."""
    status = dict((p, (st, why)) for p, st, why in store.run(
        con, "SELECT path, status, coalesce(skip_reason, message) FROM files WHERE list_contains(?, path)",
        [rels]))
    for e, rel in zip(entries, rels):
        if rel not in status:
            raise FileNotFoundError(f"entry file {e}: no such file under the package root {package}")
        st, why = status[rel]
        if st not in ("ok", "partial"):
            raise FileNotFoundError(f"entry file {e} was not indexed ({st}: {why or 'no reason given'})")


class _Names:
    """Export names: lexical nesting without variable/field parents, lambdas renumbered."""

    def __init__(self, m: Model):
        self.m = m
        self._names: dict[int, str] = {}
        lambdas: dict[int, list[int]] = defaultdict(list)
        for sid, k in m.kind.items():
            if k == "lambda":
                lambdas[m.ns(m.parent.get(sid))].append(sid)
        self.lambda_label = {}
        for owner, ids in lambdas.items():
            ids.sort(key=lambda i: (m.line.get(i, 0), i))
            for n, sid in enumerate(ids, 1):
                self.lambda_label[sid] = f"<lambda{n}>"

    def __call__(self, sid: int) -> str:
        got = self._names.get(sid)
        if got is not None:
            return got
        m = self.m
        name = rules_of(m.family(sid)).export_name(m, sid, self)
        if name is None:
            if m.kind.get(sid) == "module" or m.parent.get(sid) is None:
                name = m.qual[sid]
            else:
                owner = m.ns(m.parent.get(sid))
                own = self.lambda_label.get(sid) or m.name[sid]
                prefix = self(owner) if owner is not None else ""
                name = f"{prefix}.{own}" if prefix else own
        self._names[sid] = name
        return name


def export(con, entry_paths: list[str]) -> dict[str, list[str]]:
    """The exchange-format graph of an indexed (and resolved) database."""
    implicit = store.get_meta(con, IMPLICIT_META) == "on"      # as the database was resolved
    m = Model(con, implicit=implicit)
    res = Resolver(m, export=True, implicit=implicit)
    names = _Names(m)
    reachable = _reachable(m, res, entry_paths)
    graph: dict[str, list[str]] = {}
    done: set[str] = set()
    pending = set(reachable)
    while pending:
        done |= pending
        edges = store.run(con, """SELECT src_id, dst_name, path, line, dst_id, candidates,
                                         resolution IN ('callback', 'implicit') FROM edges
                                  WHERE kind = 'calls' AND list_contains(?, path)
                                  ORDER BY path, line, edge_id""", [sorted(pending)])
        pending = set()
        for src, text, path, line, dst, cands, callback in edges:
            caller = _caller(m, src)
            if caller is None:
                continue
            if callback:
                # a repository function handed to a builtin (or a C function of a library)
                # that calls it, `sorted(xs, key=f)`, is called by the function handing it
                # over: the index's callback row says which (or which ones it may be)
                targets = [(SYM, dst)] if dst is not None else [
                    (SYM, sid) for q in cands or () for sid in m.by_qual.get(q, ())]
                how = None
            else:
                try:
                    targets, how = res.resolve_call(src, text, line)
                except RecursionError:
                    continue
                # applying @property/@staticmethod/@classmethod and loading a module with
                # require() are not calls of the program's code
                targets = [t for t in targets if t not in _NOT_CALLS]
            rules = rules_of(m.family(caller))
            _add(graph, names(caller), [_target_name(m, names, t, rules) for t in targets])
            follows = rules.export_follows_calls
            if follows is True or (follows == "evident" and how not in _GUESSES):
                # the file of a called definition is part of the program even when no
                # import names it (a header's definition, a same-package type)
                for t in targets:
                    p = m.path.get(t[1]) if t[0] == SYM else None
                    if p is not None and p not in reachable:    # imported: its packages too
                        _reachable(m, res, [p, *sorted(_packages_of(m, p))], reachable)
        pending = reachable - done
    for sid, k in m.kind.items():
        if m.path.get(sid) not in reachable or sid in m.declarations:
            continue
        if k in EXPORT_KEY_KINDS or (k == "module" and m.parent.get(sid) is None
                                     and rules_of(m.family(sid)).export_module_runs):
            graph.setdefault(names(sid), [])
    # decorator applications: `@f(...)` calls what `f(...)` returns with the function
    for sid, decos in m.decos.items():
        if m.path.get(sid) not in reachable or m.family(sid) != "python":
            continue
        if m.kind.get(sid) not in FUNCTION_KINDS | CLASS_KINDS:
            continue
        caller = _caller(m, m.parent.get(sid))
        if caller is None:
            continue
        scope = m.ns(m.parent.get(sid))
        for dec in decos:
            text = dec.lstrip("@").strip()
            if not text.endswith(")"):
                continue                 # `@d` is already the call edge to `d`
            fam = m.family(sid)
            vals = rules_of(fam).decorator_values(res, scope, text, 0)
            _add(graph, names(caller), [_target_name(m, names, res.call_target(v, fam), rules_of(fam))
                                        for v in vals])
    return {k: sorted(set(v)) for k, v in sorted(graph.items())}


def _add(graph: dict, caller: str, targets: list) -> None:
    lst = graph.setdefault(caller, [])
    for t in targets:
        if t is not None and t not in lst:
            lst.append(t)


def _caller(m: Model, src: int | None) -> int | None:
    """The namespace whose code contains a call: class bodies run in the enclosing scope
    (or are credited to the class, in a language that says so)."""
    s = m.ns(src)
    if s is not None and m.kind.get(s) in CLASS_KINDS and rules_of(m.family(s)).export_class_body_caller:
        return s
    while s is not None and m.kind.get(s) in CLASS_KINDS:
        s = m.ns(m.parent.get(s))
    return s


def _target_name(m: Model, names: _Names, t, rules) -> str | None:
    if t is None:
        return None
    if t[0] == SYM:
        k = m.kind.get(t[1])
        if k not in FUNCTION_KINDS:
            return None
        return names(rules_of(m.family(t[1])).export_definition(m, t[1]))
    if t[0] == BUILTIN:
        return rules.export_builtin(t[1])
    if t[0] == EXT:
        if "()" in t[1] or t[1].startswith("."):
            return None
        return t[1]
    return None


def _imports_by_path(m: Model) -> dict[str, list[dict]]:
    by_path = m.ext.get("export.imports")
    if by_path is None:
        by_path = m.ext["export.imports"] = defaultdict(list)
        for row in m.imports:
            by_path[row["path"]].append(row)
    return by_path


def _reachable(m: Model, res: Resolver, entry_paths: list[str], seen: set[str] | None = None) -> set[str]:
    """Entry files plus every repository file they import, transitively (with the files
    their language brings along: a Go package, a C header's definitions). Adds to `seen`."""
    by_path = _imports_by_path(m)
    seen = set() if seen is None else seen
    todo = sorted((p for p in entry_paths if p in m.file_module), reverse=True)
    while todo:
        p = todo.pop()
        if p in seen:
            continue
        seen.add(p)
        paths = _with_package(m, p)
        for row in by_path.get(p, ()):
            vals, _how, rpath = resolve_import(res, row)
            if rpath:
                paths.add(rpath)
            for v in vals:
                if v[0] in (SYM, BOUND, MODULE) and v[1] in m.path:
                    paths.add(m.path[v[1]])
        for q in list(paths):         # importing a submodule imports its packages first
            paths |= _packages_of(m, q)
        todo.extend(sorted((x for x in paths if x and x not in seen and x in m.file_module), reverse=True))
    return seen


def _packages_of(m: Model, path: str) -> set[str]:
    """The package files (`__init__.py`) of the folders above `path`, in the index."""
    out = set()
    d = os.path.dirname(path)
    while d:
        init = f"{d}/__init__.py"
        if init in m.file_module:
            out.add(init)
        d = os.path.dirname(d)
    return out


def _with_package(m: Model, path: str) -> set[str]:
    """The files `path`'s language brings along with it (a Go package's other files)."""
    mid = m.file_module.get(path)
    rules = rules_of(m.family(mid)) if mid is not None else None
    return set(rules.export_package_files(m, path)) if rules else set()


__all__ = ["callgraph", "export"]
