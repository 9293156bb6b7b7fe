"""The patterns written under a grammar's root node (`(module (assignment ...))`) run as a
query of their own from the root at start depth 0 (`compiled_queries._Compiled._split_top`); the
rows must be those of the one query holding every pattern, row for row and in order."""
from __future__ import annotations

import re
from pathlib import Path

import pytest
from workbench import compiled_queries
from workbench.compiled_queries import compiled
from workbench.extract import extract_file
from workbench.languages import SPECS, detect, refine

ROOT = Path(__file__).resolve().parent.parent

# Snippets where root patterns and the rest meet: module variables set in `if`/`try`
# next to functions, classes and calls; a module docstring after comments; top-level
# constants beside functions defined as values; broken files (the root still matches).
SNIPPETS = {
    "python": [
        b'# licence\n"""Doc."""\nimport os\nX = 1\na = b = f(2)\nc, d = 3, 4\n'
        b'if os.name == "nt":\n    SEP = "\\\\"\nelif x:\n    SEP = ":"\nelse:\n    SEP = "/"\n'
        b'try:\n    import fast\n    HAVE = True\nexcept ImportError:\n    HAVE = False\nelse:\n    Y = 2\n'
        b'finally:\n    Z = 3\n\nclass K:\n    A = 1\n    def m(self, x=lambda: 0):\n        self.v = [x]\n'
        b'        return g(x, key=self.m)\n\n@dec\ndef top(a):\n    """Top."""\n    xs.append(a)\n    return a\n',
        b'X = 1\ndef broken(:\n    pass\nif y:\n    Z = 2\nclass C(\n',
    ],
    "javascript": [
        b'const A = 1;\nconst f = () => g(A);\nmodule.exports = { f };\nexports.h = function () { return f(); };\n'
        b'let x = require("y");\nfunction k() { const inner = 2; return inner; }\n',
        b'const A = 1;\nfunction ( {\nconst B = 2;\n',
    ],
    "typescript": [
        b'export const A: number = 1;\nexport function f(x: string): void { g(x); }\n'
        b'const h = (y: number) => y + A;\nclass C { m(): void { this.n(); } n() {} }\n',
    ],
    "go": [
        b'package p\n\nconst A = 1\nconst (\n\tB = 2\n\t_ = 3\n)\nvar x, y int\nvar (\n\tz = f()\n)\n'
        b'func f() int { return A }\ntype T struct{}\nfunc (t *T) M() { f() }\n',
    ],
    "c": [
        b'#define N 10\n#define MAX(a, b) ((a) > (b) ? (a) : (b))\nstatic const int K = 2;\nint g;\n'
        b'int f(int x) { return MAX(x, N); }\n',
    ],
    "cpp": [
        b'using Int = int;\nnamespace n { using Str = const char*; }\n'
        b'class A { public: void m(); };\nvoid A::m() { f(); }\n',
    ],
    "php": [
        b'<?php\nconst A = 1;\nfunction f($x) { return g($x); }\nclass C { function m() { $this->n(); } }\n',
    ],
    "kotlin": [
        b'val top = 1\nvar other: String = "x"\nfun f(x: Int): Int = g(x)\nclass C { val p = 2\n fun m() { f(p) } }\n',
    ],
}


_UNSPLIT: dict = {}


def _unsplit(spec) -> compiled_queries._Compiled:
    """The compiled queries of `spec` with the root's patterns in the main query. Compiled
    once and kept for the session, as compiled_queries.py keeps its own (freeing some
    compiled queries and parsers, then compiling another, has crashed the process)."""
    one = _UNSPLIT.get(spec.name)
    if one is None:
        one = _UNSPLIT[spec.name] = compiled_queries._Compiled(spec, split_top=False)
        assert one.top is None and len(one.patterns) == len(compiled(spec).patterns)
    return one


def _both(monkeypatch, path: str, data: bytes, spec):
    split = extract_file(path, data, spec)
    with monkeypatch.context() as m:
        m.setitem(compiled_queries._COMPILED, spec.name, _unsplit(spec))
        one = extract_file(path, data, spec)
    return split, one


def test_root_patterns_have_their_own_query():
    for name in ("python", "javascript", "typescript", "go", "c", "cpp", "php", "kotlin"):
        c = compiled(SPECS[name])
        assert c.top is not None and c.top_index, name
        assert c.top.pattern_count == len(c.top_index)
        assert c.query.pattern_count + c.top.pattern_count == len(c.patterns)
        head = re.compile(r"\(\s*" + c.parser.parse(b"").root_node.type + r"[\s)]")
        for i, p in enumerate(c.patterns):
            assert (i in c.top_index) == bool(head.match(p)), (name, p)
    # a language without such patterns keeps one query
    assert compiled(SPECS["rust"]).top is None


@pytest.mark.parametrize("lang", sorted(SNIPPETS))
def test_rows_equal_those_of_one_query(monkeypatch, lang):
    spec = SPECS[lang]
    ext = spec.extensions[0]
    for k, data in enumerate(SNIPPETS[lang]):
        split, one = _both(monkeypatch, f"pkg/m{k}{ext}", data, spec)
        assert split == one, (lang, k)
        assert split.symbols[1:], (lang, k)       # the snippet defines something


def test_rows_equal_those_of_one_query_on_the_sample_repositories(monkeypatch):
    seen = set()
    files = sorted(p for p in (ROOT / "sample_repos").rglob("*") if p.is_file())
    files += sorted((ROOT / "workbench").glob("*.py"))
    for p in files:
        spec = detect(p.name)
        if spec is None or not spec.parse:
            continue
        data = p.read_bytes()
        spec = refine(spec, p.name, data)
        split, one = _both(monkeypatch, str(p.relative_to(ROOT)), data, spec)
        assert split == one, p
        seen.add(spec.name)
    assert {"python", "typescript", "go", "c", "cpp"} <= seen
