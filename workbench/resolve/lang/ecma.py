"""JavaScript and TypeScript: ES modules and CommonJS (specifiers to files, barrels,
`export default`, `module.exports`), globals, `this` / `super`, object literals."""
from __future__ import annotations

import posixpath
import re

from ..exprs import literal_pairs
from ..kinds import NAMESPACE_KINDS, VALUE_KINDS
from ..values import (BUILTIN, BUILTIN_INST, EXT, MODULE, SYM, Param, annotated_type, declared_type,
                      param_parts)
from .base import Language, this_and_super

ECMA_GLOBALS = frozenset("""console Math JSON Object Array Promise Date Number String Boolean Symbol
    Map Set WeakMap WeakSet Error TypeError RangeError SyntaxError ReferenceError RegExp parseInt
    parseFloat isNaN isFinite setTimeout clearTimeout setInterval clearInterval setImmediate fetch
    require process Buffer document window globalThis encodeURIComponent decodeURIComponent
    encodeURI decodeURI structuredClone queueMicrotask Reflect Proxy BigInt Intl URL
    URLSearchParams AbortController TextEncoder TextDecoder alert atob btoa crypto performance
    navigator localStorage sessionStorage module exports __dirname __filename Function
    ArrayBuffer Uint8Array Int32Array Float64Array DataView Atomics WebAssembly eval
    Headers Request Response FormData Blob File Event EventTarget CustomEvent""".split())
ECMA_CLASSES = frozenset("""Object Array Promise Date Number String Boolean Symbol Map Set WeakMap
    WeakSet Error TypeError RangeError SyntaxError ReferenceError RegExp URL URLSearchParams
    AbortController TextEncoder TextDecoder ArrayBuffer Uint8Array Int32Array Float64Array DataView
    Headers Request Response FormData Blob File Event EventTarget CustomEvent Proxy""".split())
ECMA_EXTS = (".ts", ".tsx", ".d.ts", ".js", ".jsx", ".mjs", ".cjs", ".mts", ".cts")


class Ecma(Language):
    family = "ecma"
    languages = ("javascript", "typescript", "tsx")
    literal_types = {"string": "str", "true": "bool", "false": "bool", "array": "Array",
                     "object": "Object", "template_string": "String", "number": "Number"}
    declared_types_win = True
    function_methods = frozenset({"call", "apply", "bind"})
    require_imports = True
    object_literal_members = True

    def prepare(self, m) -> None:
        m.ext["ecma"] = {p for p, lang in m.file_lang.items() if lang in self.languages}

    def bound_names(self, row):
        name, alias = row["name"], row["alias"]
        if name == "*" and not alias:
            return ["*"]
        if alias:
            return [alias]
        if name and name not in ("default", "*"):
            return [name]
        return []

    # ---------------------------------------------------------------- names
    def head(self, ev, scope, steps, callee, depth):
        return this_and_super(ev, scope, steps, callee)

    def global_value(self, ev, scope, mod, name, depth):
        if name in ECMA_GLOBALS:
            return frozenset({(BUILTIN, name)}), "builtin"
        return None

    def skip_binding(self, ev, scope, name, row):
        return row[3].startswith("require(") and name in ev.m.imports_by_scope.get(scope, {})

    # ---------------------------------------------------------------- modules
    def resolve_spec(self, m, from_path: str, spec: str | None) -> str | None:
        """The repository file an ES/CommonJS module specifier names, or None (a package)."""
        if not spec:
            return None
        files = m.ext["ecma"]
        if spec.startswith((".", "/")):
            base = posixpath.normpath(posixpath.join(posixpath.dirname(from_path), spec))
            cands = [base]
        else:
            cands = [spec, "src/" + spec]
            if spec.startswith(("@/", "~/")):
                cands = ["src/" + spec[2:], spec[2:]]
        for b in cands:
            if b.endswith((".js", ".jsx", ".mjs", ".cjs")):
                stem = b.rsplit(".", 1)[0]
                tries = [b] + [stem + e for e in ECMA_EXTS]
            else:
                tries = [b] + [b + e for e in ECMA_EXTS]
            tries += [b + "/index" + e for e in ECMA_EXTS]
            for t in tries:
                if t in files:
                    return t
        return None

    def import_values(self, ev, row, depth):
        m = ev.m
        target = self.resolve_spec(m, row["path"], row["module"])
        name = row["name"]
        mid = m.file_module.get(target) if target else None
        if mid is None:
            spec = row["module"] or ""
            if spec.startswith("."):
                return set(), False
            if name and name not in ("*", "default"):
                return {(EXT, f"{spec}.{name}")}, False
            return {(EXT, spec)}, False
        if name is None or name == "*":            # require('m') / import * as ns
            return {(MODULE, mid)}, False
        return ev.module_attr(mid, name, depth + 1)

    def import_member(self, ev, row, name, depth):
        m = ev.m
        target = self.resolve_spec(m, row["path"], row["module"])
        mid = m.file_module.get(target) if target else None
        if mid is None:
            return set(), False
        got, _ = ev.module_attr(mid, name, depth + 1)
        return got, True

    def module_attr(self, ev, mid, name, depth):
        """What a module exports as `name`: `export` rows, `export default`, CommonJS
        `module.exports` / `exports.name`, then its definitions, bindings and imports."""
        m = ev.m
        m.ensure_bindings(m.path.get(mid))
        vals: set = set()
        for row in m.exports.get(mid, {}).get(name, ()):
            vals |= ev.binding_values(row, depth + 1)
        if name == "default":
            for kids in m.children.get(mid, {}).values():
                for d in kids:
                    if (m.sig.get(d) or "").startswith("export default"):
                        vals.add((SYM, d))
            if not vals:
                for row in m.exports.get(mid, {}).get("module.exports", ()):
                    vals |= ev.binding_values(row, depth + 1)
            return vals, False
        if vals:
            return vals, False
        for d in m.children.get(mid, {}).get(name, ()):
            if m.kind.get(d) in NAMESPACE_KINDS:
                vals.add((SYM, d))
            else:
                if m.kind.get(d) in VALUE_KINDS and ev.holds_functions(d):
                    vals.add((SYM, d))       # `api` of `const api = { run() {} }`
                for row in m.binds.get(mid, {}).get(name, ()):
                    vals |= ev.binding_values(row, depth + 1)
        if vals:
            return vals, False
        for row in m.binds.get(mid, {}).get(name, ()):
            vals |= ev.binding_values(row, depth + 1)
        if vals:
            return vals, False
        # CommonJS `module.exports = { name }` / `module.exports = X` with X.name
        for row in m.exports.get(mid, {}).get("default", ()):
            pairs = literal_pairs(row[3] or "")
            if pairs:
                for k, v in pairs:
                    if k == name:
                        vals |= set(ev.eval_text(mid, v, depth=depth + 1)[0])
        if vals:
            return vals, False
        for row in m.imports_by_scope.get(mid, {}).get(name, ()):
            got, _ = ev.import_values(row, depth + 1)
            vals |= got
        if vals:
            return vals, True
        for row in m.star_imports.get(mid, ()):
            got, _ = ev.import_member(row, name, depth + 1)
            if got:
                return got, True
        return set(), False

    def resolve_import(self, ev, row):
        m = ev.m
        target = self.resolve_spec(m, row["path"], row["module"])
        how = "import"
        if row["name"] in (None, "*") or target is None:
            mid = m.file_module.get(target) if target else None
            vals = {(SYM, mid)} if mid is not None else (
                {(EXT, row["module"])} if row["module"] and not row["module"].startswith(".") else set())
        else:
            vals, via = self.import_values(ev, row, 0)
            how = "reexport" if via else ("alias" if row["alias"] and row["alias"] != row["name"]
                                          else "import")
        return vals, how, target

    # ---------------------------------------------------------------- calls and classes
    def call_builtin(self, ev, name, args, scope, depth):
        return {(BUILTIN_INST, name)} if name in ECMA_CLASSES else set()

    def constructor(self, ev, cls):
        r = ev.mro_lookup(cls, "constructor")
        return r[1] if r is not None and r[0] == SYM else None

    def self_name(self, ev, fn):
        return "this"

    def declared_return(self, ev, fn):
        sig = ev.m.sig.get(fn) or ""
        i = sig.rfind(")")
        rest = sig[i + 1:].strip() if i >= 0 else ""
        return declared_type(rest[1:].strip()) if rest.startswith(":") else None

    def declared_field_type(self, ev, fid):
        return annotated_type(ev.m.sig.get(fid))

    def params(self, sig):
        parts = param_parts(sig)
        if parts is None:
            return None
        out = []
        for part in parts:
            part = re.sub(r"^(?:public|private|protected|readonly|override)\s+", "", part)
            nm, _, ann = part.partition(":")
            nm = nm.split("=")[0].strip().lstrip(".").rstrip("?")
            ann = ann.split("=")[0].strip() or None
            default = part.split("=", 1)[1].strip() if "=" in part else None
            if re.fullmatch(r"[A-Za-z_$][\w$]*", nm):
                out.append(Param(nm, ann, default))
        return out
