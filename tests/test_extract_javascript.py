"""JavaScript extraction (workbench/languages/javascript.scm + ecma.scm + jsx.scm) on
sample_repos/tsapp/src/legacy: expected rows checked by hand against the source."""
from __future__ import annotations

import pytest

from extract_expect import sample, snippet

CONFIG = "src/legacy/config.js"
SERVER = "src/legacy/server.js"


def js(path):
    return sample("tsapp", path, "javascript")


# (file, kind, qualname, start_line, end_line, signature, doc)
EXPECTED = [
    (CONFIG, "constant", "src.legacy.config.DEFAULTS", 6, 11, "const DEFAULTS = {", None),
    (CONFIG, "constant", "src.legacy.config.ENV_PREFIX", 13, 13, "const ENV_PREFIX = 'TSAPP_'", None),
    (CONFIG, "function", "src.legacy.config.deepMerge", 19, 30, "function deepMerge(base, override)",
     "Recursively merge `override` into `base` and return a new object."),
    (CONFIG, "function", "src.legacy.config.isPlainObject", 32, 34, "function isPlainObject(value)", None),
    (CONFIG, "function", "src.legacy.config.readJson", 37, 42, "function readJson(file)",
     "Read a JSON file, returning an empty object when it does not exist."),
    (CONFIG, "function", "src.legacy.config.loadConfig", 66, 69, "function loadConfig(dir)",
     "Load configuration from `<dir>/config.json`, layered over defaults and env."),
    (CONFIG, "class", "src.legacy.config.ConfigStore", 72, 86, "class ConfigStore",
     "Read-only access to a loaded configuration using dotted keys."),
    (CONFIG, "method", "src.legacy.config.ConfigStore.constructor", 73, 75, "constructor(values)", None),
    (CONFIG, "method", "src.legacy.config.ConfigStore.get", 77, 80, "get(key, fallback)", None),
    (CONFIG, "method", "src.legacy.config.ConfigStore.fromDir", 83, 85, "static fromDir(dir)",
     "Convenience constructor used by the legacy server."),
    (SERVER, "constant", "src.legacy.server.HERE", 6, 6,
     "const HERE = dirname(fileURLToPath(import.meta.url))", None),
    # an arrow function bound to a name: the whole declaration
    (SERVER, "function", "src.legacy.server.requestLogger", 9, 13, "const requestLogger = (log)",
     "Build a middleware that logs each request line through `log`."),
    (SERVER, "class", "src.legacy.server.LegacyServer", 19, 60, "export class LegacyServer",
     "The pre-TypeScript HTTP server, kept alive for old API clients."),
    (SERVER, "method", "src.legacy.server.LegacyServer.start", 47, 53, "start()",
     "Start listening on the configured host and port."),
    (SERVER, "method", "src.legacy.server.LegacyServer.stop", 55, 59, "async stop()", None),
    # `export` extends the range of an exported arrow function
    (SERVER, "function", "src.legacy.server.createServer", 63, 63,
     "export const createServer = (dir = HERE)",
     "Create a server configured from `dir` (defaults to this folder)."),
    (SERVER, "function", "src.legacy.server.run", 65, 69, "export default async function run()", None),
]


@pytest.mark.parametrize("path,kind,qualname,start,end,sig,doc", EXPECTED,
                         ids=[e[2] for e in EXPECTED])
def test_symbol_rows(path, kind, qualname, start, end, sig, doc):
    assert js(path).row(qualname) == (kind, qualname, start, end, sig, doc)


def test_config_has_exactly_the_expected_symbols():
    assert js(CONFIG).qualnames() == {
        "src.legacy.config", "src.legacy.config.DEFAULTS", "src.legacy.config.ENV_PREFIX",
        "src.legacy.config.deepMerge", "src.legacy.config.isPlainObject",
        "src.legacy.config.readJson", "src.legacy.config.applyEnv", "src.legacy.config.loadConfig",
        "src.legacy.config.ConfigStore", "src.legacy.config.ConfigStore.constructor",
        "src.legacy.config.ConfigStore.get", "src.legacy.config.ConfigStore.fromDir",
    }  # `const fs = require('fs')` is an import, not a constant


def test_commonjs_require_is_an_import():
    assert js(CONFIG).import_rows() == [("fs", None, "fs", 3), ("path", None, "path", 4)]


def test_es_imports_default_and_named():
    assert js(SERVER).import_rows() == [
        ("express", "default", "express", 1),
        ("url", "fileURLToPath", None, 2),
        ("path", "dirname", None, 3),
        ("./config.js", "ConfigStore", None, 4),
    ]


def test_calls_local_self_new_and_chains():
    cfg = js(CONFIG)
    assert cfg.call_edges("src.legacy.config.deepMerge") == [
        ("Object.entries", None, "unresolved", 21),
        ("isPlainObject", "src.legacy.config.isPlainObject", "local", 23),
        ("isPlainObject", "src.legacy.config.isPlainObject", "local", 23),
        ("deepMerge", "src.legacy.config.deepMerge", "local", 24),
    ]
    # `new ConfigStore(...)` is a call to ConfigStore
    assert cfg.calls("src.legacy.config.ConfigStore.fromDir") == ["ConfigStore", "loadConfig"]
    # a call on a computed receiver keeps just the method name
    assert cfg.calls("src.legacy.config.applyEnv") == [
        "Object.entries", "name.startsWith", "name.slice", "toLowerCase", "split", "JSON.parse",
        "keys.reduceRight", "deepMerge"]
    srv = js(SERVER)
    assert srv.call_edges("src.legacy.server.LegacyServer.constructor") == [
        ("express", None, "unresolved", 22),
        ("this.registerRoutes", "src.legacy.server.LegacyServer.registerRoutes", "self", 24),
    ]
    assert srv.calls("src.legacy.server.createServer") == ["LegacyServer", "ConfigStore.fromDir"]
    # module-level statements belong to the module symbol
    assert srv.calls() == ["fileURLToPath", "run", "catch", "console.error", "process.exit"]


def test_reexports_cjs_destructuring_and_heritage_inline():
    ex = snippet("lib/mod.js", """\
import * as ns from './ns';
export { a as b } from './a';
export * from './all';
const { readFile, join: pathJoin } = require('fs');
class Child extends Base {}
exports.helper = function () { return 1; };
const Gen = function* () {};
""", "javascript")
    assert ex.import_rows() == [
        ("./ns", "*", "ns", 1),
        ("./a", "a", "b", 2),
        ("./all", "*", None, 3),
        ("fs", "readFile", None, 4),
        ("fs", "join", "pathJoin", 4),
    ]
    assert ex.bases("lib.mod.Child") == ["Base"]
    assert ex.row("lib.mod.helper")[:4] == ("function", "lib.mod.helper", 6, 6)
    assert ex.row("lib.mod.Gen")[:2] == ("function", "lib.mod.Gen")


def test_commonjs_exported_functions_are_named_by_what_they_export():
    ex = snippet("lib/m.js", """\
module.exports = function build() { return 1; };
exports.log = function logImpl() { return 2; };
module.exports.run = () => 3;
""", "javascript")
    assert [(s["kind"], s["qualname"], s["start_line"]) for s in ex.symbols[1:]] == [
        ("function", "lib.m.build", 1),     # the module is this function: its own name
        ("function", "lib.m.log", 2),       # an exported member: the member's name
        ("function", "lib.m.run", 3),
    ]
    anon = snippet("lib/n.js", "module.exports = () => 1;\n", "javascript")
    assert [s["qualname"] for s in anon.symbols[1:]] == ["lib.n.exports"]


def test_functions_in_object_literals():
    ex = snippet("lib/api.js", """\
const api = {
  /** Start the engine. */
  start(opts) {
    return boot(opts);
  },
  stop: () => halt(),
  *ids() { yield 1; },
  name: 'api',
  'quoted-key': function () {},
};
module.exports = {
  build(spec) { return make(spec); },
  api,
};
function outer() {
  return { inner() { return 2; } };
}
""", "javascript")
    assert ex.row("lib.api.api")[:4] == ("constant", "lib.api.api", 1, 10)
    assert ex.row("lib.api.api.start") == ("function", "lib.api.api.start", 3, 5, "start(opts)",
                                           "Start the engine.")
    assert ex.row("lib.api.api.stop")[:5] == ("function", "lib.api.api.stop", 6, 6, "stop: ()")
    assert ex.row("lib.api.api.ids")[:4] == ("function", "lib.api.api.ids", 7, 7)
    assert ex.parent_of("lib.api.api.start") == "lib.api.api"
    # module.exports members are module-level functions; an object built inside a function
    # holds nested functions; a quoted key names its function by its content, a plain value
    # is not a function
    assert ex.row("lib.api.build")[:4] == ("function", "lib.api.build", 12, 12)
    assert ex.row("lib.api.outer.inner")[:4] == ("function", "lib.api.outer.inner", 16, 16)
    assert "lib.api.api.name" not in ex.qualnames()
    assert ex.row("lib.api.api.quoted-key")[:4] == ("function", "lib.api.api.quoted-key", 9, 9)
    assert ex.calls("lib.api.api.start") == ["boot"]
    assert ex.calls("lib.api.api.stop") == ["halt"]
    assert ex.calls("lib.api.build") == ["make"]


def test_jsx_component_use_is_a_call():
    ex = snippet("ui/App.jsx", """\
function Badge() { return <span/>; }
export function App() {
  return <div><Badge /><Layout.Header>x</Layout.Header></div>;
}
""", "javascript")
    assert ex.call_edges("ui.App.App") == [
        ("Badge", "ui.App.Badge", "local", 3),
        ("Layout.Header", None, "unresolved", 3),
    ]


def test_rule_objects_visitors_and_class_expressions():
    ex = snippet("lib/rules/comma.js", """\
const Cursor = require("./cursor");

module.exports = class ForwardCursor extends Cursor {
    moveNext() { return this.advance(); }
};

exports.rule = {
    meta: { type: "layout" },
    create(context) {
        const nodes = {
            ArrayExpression(node) { check(node, "elements"); },
            "Program:exit"() { finish(); },
        };
        if (context.options.loose) {
            nodes.ObjectPattern = function(node) { check(node, "properties"); };
        }
        let fix;
        fix = function(fixer) { return fixer.remove(); };
        return nodes;
    }
};

register(class Visitor { visit(n) { return n; } });
""", "javascript")
    kinds = {s["qualname"]: s["kind"] for s in ex.symbols}
    assert kinds["lib.rules.comma.ForwardCursor"] == "class"
    assert kinds["lib.rules.comma.ForwardCursor.moveNext"] == "method"
    assert kinds["lib.rules.comma.Visitor.visit"] == "method"
    create = "lib.rules.comma.create"        # an object assigned to a member is no symbol
    assert kinds[create] == "function"
    for fn in ("ArrayExpression", "Program:exit", "ObjectPattern", "fix"):
        assert kinds[f"{create}.{fn}"] == "function", fn
    assert ex.calls(f"{create}.ObjectPattern") == ["check"]
    assert ex.row(f"{create}.ObjectPattern")[2:4] == (15, 15)
