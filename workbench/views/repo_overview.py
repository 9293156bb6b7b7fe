"""Repository-level overview in milliseconds: project type, main dependencies, entry points,
config files and top-level layout, from manifests and the `files`/`symbols` tables.

Manifests understood: pyproject.toml, setup.cfg, requirements.txt, package.json, pom.xml,
build.gradle(.kts), go.mod, Cargo.toml, CMakeLists.txt, Makefile. Only indexed files are
read (their bytes, never parsed with tree-sitter again).
"""
from __future__ import annotations

import configparser
import fnmatch
import json
import posixpath
import re
import tomllib
import xml.etree.ElementTree as ET
from collections import Counter, defaultdict

from .. import store
from ..safeio import read_beneath
from ..scan import DEFAULT_MAX_BYTES
from ..vocab import DATA_LANGUAGES
from . import pathsafe
from .registry import Context, tool
from .source import all_files, decode

MANIFESTS = ("pyproject.toml", "setup.cfg", "requirements.txt", "package.json", "pom.xml",
             "build.gradle", "build.gradle.kts", "go.mod", "Cargo.toml", "CMakeLists.txt",
             "Makefile", "setup.py")
CONFIG_PATTERNS = (
    ".gitignore", ".gitattributes", ".editorconfig", ".env.example", ".dockerignore",
    "Dockerfile", "docker-compose.y*ml", "compose.y*ml", "tsconfig*.json", ".eslintrc*",
    "eslint.config.*", ".prettierrc*", "jest.config.*", "vite.config.*", "webpack.config.*",
    "babel.config.*", ".babelrc", "tox.ini", "pytest.ini", "setup.cfg", ".flake8", "mypy.ini",
    "ruff.toml", ".ruff.toml", ".pre-commit-config.yaml", "noxfile.py", "conftest.py",
    "Makefile", "CMakeLists.txt", ".clang-format", "application.properties", "application.y*ml",
    ".gitlab-ci.yml", ".travis.yml", "Jenkinsfile", "renovate.json", ".golangci.y*ml",
    "rustfmt.toml", "clippy.toml", "go.sum", "Cargo.lock", "MANIFEST.in", ".nvmrc",
    ".python-version", "environment.y*ml")
_DEP_NAME = re.compile(r"^\s*([A-Za-z0-9_.\-]+(?:\[[^\]]*\])?)")


def _dep_name(spec: str) -> str:
    m = _DEP_NAME.match(spec)
    return re.sub(r"\[.*\]", "", m.group(1)) if m else spec.strip()


def _read(ctx: Context, path: str, encoding: str | None) -> str | None:
    try:
        rel, _ = pathsafe.check(ctx.root, path)
        return decode(read_beneath(ctx.root, rel, DEFAULT_MAX_BYTES), encoding)
    except (OSError, pathsafe.PathError):
        return None


class _Facts:
    def __init__(self):
        self.types: list[str] = []
        self.name: str | None = None
        self.deps: list[str] = []
        self.dev_deps: list[str] = []
        self.entry: list[str] = []
        self.notes: list[str] = []


def _pyproject(text: str, f: _Facts, path: str) -> None:
    try:
        d = tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        f.notes.append(f"{path}: unreadable TOML ({exc})")
        return
    proj = d.get("project") or {}
    poetry = (d.get("tool") or {}).get("poetry") or {}
    backend = (d.get("build-system") or {}).get("build-backend", "")
    tool_name = backend.split(".")[0] if backend else ("poetry" if poetry else "")
    f.types.append("Python package" + (f" ({tool_name})" if tool_name else ""))
    name = proj.get("name") or poetry.get("name")
    ver = proj.get("version") or poetry.get("version")
    if name:
        f.name = f"{name} {ver}" if ver else name
    f.deps += [_dep_name(x) for x in proj.get("dependencies") or []]
    f.deps += [k for k in (poetry.get("dependencies") or {}) if k.lower() != "python"]
    for group, items in (proj.get("optional-dependencies") or {}).items():
        f.dev_deps += [f"{_dep_name(x)}" for x in items]
    for k, v in (proj.get("scripts") or poetry.get("scripts") or {}).items():
        f.entry.append(f"{k} = {v} ({path})")
    if proj.get("requires-python"):
        f.notes.append(f"requires Python {proj['requires-python']}")


def _setup_cfg(text: str, f: _Facts, path: str) -> None:
    cp = configparser.ConfigParser()
    try:
        cp.read_string(text)
    except configparser.Error:
        return
    if cp.has_section("metadata") and cp.get("metadata", "name", fallback=None):
        f.name = f.name or cp.get("metadata", "name")
        f.types.append("Python package (setuptools, setup.cfg)")
    reqs = cp.get("options", "install_requires", fallback="")
    f.deps += [_dep_name(x) for x in reqs.splitlines() if x.strip()]
    eps = cp.get("options.entry_points", "console_scripts", fallback="")
    f.entry += [f"{x.strip()} ({path})" for x in eps.splitlines() if x.strip()]


def _requirements(text: str, f: _Facts, path: str) -> None:
    names = [_dep_name(x) for x in text.splitlines()
             if x.strip() and not x.lstrip().startswith(("#", "-"))]
    if not f.types:
        f.types.append("Python project (requirements.txt)")
    f.deps += names


def _package_json(text: str, f: _Facts, path: str) -> None:
    try:
        d = json.loads(text)
    except json.JSONDecodeError as exc:
        f.notes.append(f"{path}: unreadable JSON ({exc.msg})")
        return
    deps = list((d.get("dependencies") or {}).keys())
    dev = list((d.get("devDependencies") or {}).keys())
    ts = "typescript" in deps + dev
    f.types.append(f"Node.js {'TypeScript' if ts else 'JavaScript'} package (package.json)")
    if d.get("name"):
        f.name = f.name or (f"{d['name']} {d['version']}" if d.get("version") else d["name"])
    f.deps += deps
    f.dev_deps += dev
    if d.get("main"):
        f.entry.append(f"main: {d['main']} ({path})")
    bins = d.get("bin")
    if isinstance(bins, str):
        f.entry.append(f"bin: {bins} ({path})")
    elif isinstance(bins, dict):
        f.entry += [f"bin {k}: {v} ({path})" for k, v in bins.items()]
    scripts = d.get("scripts") or {}
    for k in ("start", "dev", "serve"):
        if k in scripts:
            f.entry.append(f"npm run {k}: {scripts[k]}")
    if scripts:
        f.notes.append("npm scripts: " + ", ".join(scripts))


def _strip_ns(root):
    for el in root.iter():
        if isinstance(el.tag, str) and "}" in el.tag:
            el.tag = el.tag.split("}", 1)[1]
    return root


def _pom(text: str, f: _Facts, path: str) -> None:
    try:
        root = _strip_ns(ET.fromstring(text.encode("utf-8")))
    except ET.ParseError as exc:
        f.notes.append(f"{path}: unreadable XML ({exc})")
        return
    f.types.append("Java project (Maven)")
    g, a, v = (root.findtext(x) for x in ("groupId", "artifactId", "version"))
    if a:
        f.name = f.name or f"{g + ':' if g else ''}{a}{' ' + v if v else ''}"
    for dep in root.findall("./dependencies/dependency"):
        coord = f"{dep.findtext('groupId')}:{dep.findtext('artifactId')}"
        (f.dev_deps if dep.findtext("scope") == "test" else f.deps).append(coord)
    for mc in root.iter("mainClass"):
        if mc.text:
            f.entry.append(f"mainClass {mc.text.strip()} ({path})")
    rel = root.findtext("./properties/maven.compiler.release") or root.findtext(
        "./properties/maven.compiler.source") or root.findtext("./properties/java.version")
    if rel:
        f.notes.append(f"Java {rel}")


_GRADLE_DEP = re.compile(r"\b(implementation|api|compileOnly|runtimeOnly|testImplementation|"
                         r"testRuntimeOnly|kapt|annotationProcessor)\s*\(?\s*['\"]([^'\"]+)['\"]")


def _gradle(text: str, f: _Facts, path: str) -> None:
    f.types.append("JVM project (Gradle)")
    for conf, coord in _GRADLE_DEP.findall(text):
        parts = coord.split(":")
        name = ":".join(parts[:2]) if len(parts) >= 2 else coord
        (f.dev_deps if conf.startswith("test") else f.deps).append(name)
    for m in re.finditer(r"mainClass(?:Name)?\s*(?:=|\.set\()\s*['\"]([^'\"]+)['\"]", text):
        f.entry.append(f"mainClass {m.group(1)} ({path})")


def _go_mod(text: str, f: _Facts, path: str) -> None:
    f.types.append("Go module")
    m = re.search(r"^module\s+(\S+)", text, re.M)
    if m:
        f.name = f.name or m.group(1)
    gv = re.search(r"^go\s+(\S+)", text, re.M)
    if gv:
        f.notes.append(f"Go {gv.group(1)}")
    for block in re.findall(r"^require\s*\((.*?)^\)", text, re.M | re.S):
        for line in block.splitlines():
            line = line.split("//")[0].strip()
            if line:
                (f.dev_deps if "// indirect" in line else f.deps).append(line.split()[0])
    for m in re.finditer(r"^require\s+([^\s(]+)\s", text, re.M):
        f.deps.append(m.group(1))


def _cargo(text: str, f: _Facts, path: str) -> None:
    try:
        d = tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        f.notes.append(f"{path}: unreadable TOML ({exc})")
        return
    pkg = d.get("package") or {}
    f.types.append("Rust crate" + (" (workspace)" if "workspace" in d else ""))
    if pkg.get("name"):
        f.name = f.name or (f"{pkg['name']} {pkg['version']}" if pkg.get("version") else pkg["name"])
    f.deps += list((d.get("dependencies") or {}).keys())
    f.dev_deps += list((d.get("dev-dependencies") or {}).keys())
    for b in d.get("bin") or []:
        f.entry.append(f"bin {b.get('name')}: {b.get('path', 'src/main.rs')} ({path})")
    if pkg.get("edition"):
        f.notes.append(f"Rust edition {pkg['edition']}")


def _cmake(text: str, f: _Facts, path: str) -> None:
    f.types.append("C/C++ project (CMake)")
    m = re.search(r"project\s*\(\s*([A-Za-z0-9_\-]+)", text, re.I)
    if m:
        f.name = f.name or m.group(1)
    for m in re.finditer(r"add_executable\s*\(\s*([A-Za-z0-9_\-]+)", text, re.I):
        f.entry.append(f"executable {m.group(1)} ({path})")


def _makefile(text: str, f: _Facts, path: str) -> None:
    targets = [m.group(1) for m in re.finditer(r"^([A-Za-z0-9_][A-Za-z0-9_.\-/$()]*)\s*:(?!=)", text, re.M)]
    targets = [t for t in targets if "$" not in t and "%" not in t]
    if targets:
        f.notes.append(f"make targets ({path}): " + ", ".join(dict.fromkeys(targets)))


_PARSERS = {"pyproject.toml": _pyproject, "setup.cfg": _setup_cfg, "requirements.txt": _requirements,
            "package.json": _package_json, "pom.xml": _pom, "build.gradle": _gradle,
            "build.gradle.kts": _gradle, "go.mod": _go_mod, "Cargo.toml": _cargo,
            "CMakeLists.txt": _cmake, "Makefile": _makefile}

_C_TYPES = {"c": "C", "cpp": "C++"}


def overview(ctx: Context) -> tuple[str, dict]:
    files = all_files(ctx.con)
    facts = _Facts()
    by_name = defaultdict(list)
    for fi in files:
        by_name[posixpath.basename(fi.path)].append(fi)
    manifests = sorted((fi for fi in files if posixpath.basename(fi.path) in MANIFESTS),
                       key=lambda fi: (fi.path.count("/"), fi.path))
    root_manifests = [fi for fi in manifests if "/" not in fi.path]
    nested = [fi for fi in manifests if "/" in fi.path]
    for fi in root_manifests:
        parser = _PARSERS.get(posixpath.basename(fi.path))
        if parser is None:
            continue
        text = _read(ctx, fi.path, fi.encoding)
        if text is not None:
            parser(text, facts, fi.path)
    # languages by lines
    lang_lines: Counter = Counter()
    lang_files: Counter = Counter()
    for fi in files:
        if fi.language and fi.status in ("ok", "partial"):
            lang_lines[fi.language] += fi.line_count or 0
            lang_files[fi.language] += 1
    code_langs = [lang for lang, _ in lang_lines.most_common()
                  if lang not in DATA_LANGUAGES]
    if not facts.types and code_langs:
        top = code_langs[0]
        facts.types.append(f"{_C_TYPES.get(top, top.capitalize())} sources (no manifest)")
    # entry points from the code: main functions, __main__ modules, conventional names
    mains = store.run(ctx.con, """SELECT path, qualname, start_line FROM symbols
                                  WHERE name = 'main' AND kind IN ('function', 'method')
                                  AND NOT coalesce(is_declaration, false) ORDER BY path""")
    code_entries = [f"{q} ({p}:{a})" for p, q, a in mains]
    code_entries += [fi.path for fi in files if posixpath.basename(fi.path) in ("__main__.py", "manage.py")]
    paths = {fi.path for fi in files}
    if "Cargo.toml" in paths:
        code_entries += [f"{kind}: {p}" for kind, p in (("library", "src/lib.rs"), ("binary", "src/main.rs"))
                         if p in paths]
    # config files
    configs = sorted({fi.path for fi in files if fi.path.count("/") <= 1 and any(
        fnmatch.fnmatch(posixpath.basename(fi.path), pat) for pat in CONFIG_PATTERNS)}
        | {fi.path for fi in files if fi.path.startswith(".github/workflows/")})
    # layout
    top_dirs: dict[str, Counter] = defaultdict(Counter)
    top_files = []
    for fi in files:
        if "/" in fi.path:
            d = fi.path.split("/", 1)[0]
            top_dirs[d]["files"] += 1
            if fi.language:
                top_dirs[d][fi.language] += fi.line_count or 0
        else:
            top_files.append(fi.path)
    lines = []
    head = "project: " + (facts.name or posixpath.basename(ctx.root.rstrip("/")))
    lines.append(head + " \u2014 " + ("; ".join(dict.fromkeys(facts.types)) or "unknown type"))
    if lang_lines:
        lines.append("languages: " + ", ".join(
            f"{lang} {lang_lines[lang]:,} lines/{lang_files[lang]} file{'s' if lang_files[lang] != 1 else ''}"
            for lang in code_langs[:6]))
    deps = list(dict.fromkeys(facts.deps))
    dev = [d for d in dict.fromkeys(facts.dev_deps) if d not in deps]
    lines.append("dependencies: " + (", ".join(deps[:25]) + (f" (+{len(deps) - 25} more)" if len(deps) > 25 else "")
                                      if deps else "none declared"))
    if dev:
        lines.append("dev/test dependencies: " + ", ".join(dev[:15])
                     + (f" (+{len(dev) - 15} more)" if len(dev) > 15 else ""))
    entries = facts.entry + code_entries
    lines.append("entry points: " + ("; ".join(entries[:12]) + (f" (+{len(entries) - 12} more)" if len(entries) > 12 else "")
                                      if entries else "none found"))
    if facts.notes:
        lines.append("notes: " + "; ".join(facts.notes))
    lines.append("manifests: " + (", ".join(fi.path for fi in root_manifests) or "none")
                 + (f" (+{len(nested)} nested: " + ", ".join(fi.path for fi in nested[:8])
                    + (" ..." if len(nested) > 8 else "") + ")" if nested else ""))
    lines.append("config files: " + (", ".join(configs) if configs else "none"))
    lines.append("layout:")
    for d in sorted(top_dirs):
        c = top_dirs[d]
        n = c.pop("files")
        langs = ", ".join(lang for lang, _ in c.most_common(3))
        lines.append(f"  {d}/ ({n} file{'s' if n != 1 else ''}{'; ' + langs if langs else ''})")
    if top_files:
        lines.append("  " + ", ".join(sorted(top_files)))
    data = {"name": facts.name, "types": list(dict.fromkeys(facts.types)), "dependencies": deps,
            "dev_dependencies": dev, "entry_points": entries, "notes": facts.notes,
            "manifests": [fi.path for fi in manifests], "config_files": configs,
            "languages": {lang: lang_lines[lang] for lang in code_langs},
            "layout": {d: sum(1 for fi in files if fi.path.startswith(d + "/")) for d in sorted(top_dirs)},
            "top_files": sorted(top_files)}
    return "\n".join(lines), data


@tool("Repository overview: project type and main dependencies from the manifests, entry "
      "points, configuration files and the top-level layout. Call it first in a new repository.",
      {})
def repo_overview(ctx: Context):
    text, data = overview(ctx)
    return text, data, {}
