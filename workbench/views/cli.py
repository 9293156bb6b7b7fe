"""CLI twins of the views: `workbench outline ...` and `workbench tool ...`.

    workbench outline DB shop/orders.py --format tags --no-docs --max-children 10
    workbench tool DB read_region path=shop/orders.py start_line=17 end_line=40
    workbench tool DB repo_map budget_tokens=512 focus=shop/orders.py --json
    workbench tool DB --list            # tool names and descriptions
    workbench tool DB read_region --schema

Without --json they print exactly the text an agent would receive; --json prints the
structured result with its token count.
"""
from __future__ import annotations

import json
import sys

from .rules import FORMATS, Rules

_FLAGS = (("docs", "docstring / comment first lines"), ("imports", "the imports line"),
          ("module_vars", "module variables"), ("fields", "class fields"),
          ("private", "private members"), ("decorators", "decorators and annotations"),
          ("signatures", "full signatures"), ("line_numbers", "line ranges"))


def _int_or_none(s: str):
    return None if s.lower() in ("none", "all") else int(s)


def _rules(a) -> Rules:
    rules = Rules.parse_assignments(a.rule or [])
    changes = {}
    for name, _ in _FLAGS:
        if getattr(a, f"no_{name}", False):
            changes[name] = False
    if getattr(a, "format", None):
        changes["format"] = a.format
    if getattr(a, "max_children", None) is not None:
        changes["max_children"] = _int_or_none(a.max_children)
    if getattr(a, "max_depth", None) is not None:
        changes["max_depth"] = _int_or_none(a.max_depth)
    if getattr(a, "max_chars", None) is not None:
        changes["max_chars"] = a.max_chars
    return rules.replace(**changes) if changes else rules


def _emit(resp, as_json: bool) -> int:
    try:
        if as_json:
            print(resp.to_json())
        else:
            sys.stdout.write(resp.text + ("" if resp.text.endswith("\n") else "\n"))
        sys.stdout.flush()
    except BrokenPipeError:                 # `... | head`: the reader went away
        import os
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
    return 1 if resp.error else 0


def _open(db: str):
    from ..api import open as wb_open
    return wb_open(db, read_only=True)


def cmd_outline(a) -> int:
    from .outline import outline
    try:
        rules = _rules(a)
    except (ValueError, TypeError) as exc:
        print(f"workbench outline: {exc}", file=sys.stderr)
        return 2
    with _open(a.db) as wb:
        return _emit(outline(wb, a.path, rules), a.json)


def _parse_tool_args(items: list[str]) -> dict:
    args = {}
    for item in items:
        if "=" not in item:
            raise ValueError(f"expected name=value, got {item!r}")
        k, v = item.split("=", 1)
        v = v.strip()
        if v[:1] in "[{":
            try:
                v = json.loads(v)
            except json.JSONDecodeError:
                pass
        args[k.strip()] = v
    return args


def cmd_tool(a) -> int:
    from .tools import TOOLS, call
    if a.list or not a.tool_name:
        for t in TOOLS.values():
            req = t.parameters["required"]
            params = ", ".join(p + ("" if p in req else "?") for p in t.parameters["properties"])
            print(f"{t.name}({params})\n    {t.description}")
        return 0 if a.list else 2
    if a.schema:
        if a.tool_name not in TOOLS:
            print(f"workbench tool: no tool {a.tool_name!r}", file=sys.stderr)
            return 2
        print(json.dumps(TOOLS[a.tool_name].schema, indent=2))
        return 0
    try:
        rules = _rules(a)
        args = _parse_tool_args(a.args)
    except (ValueError, TypeError) as exc:
        print(f"workbench tool: {exc}", file=sys.stderr)
        return 2
    with _open(a.db) as wb:
        return _emit(call(wb, a.tool_name, args, rules=rules), a.json)


def add_parsers(sub) -> None:
    """Add `outline` and `tool` to the `workbench` command's subparsers."""
    s = sub.add_parser("outline", help="outline of a file, directory or the repository, exactly as "
                                       "an agent would get it")
    s.add_argument("db")
    s.add_argument("path", nargs="?", default=".", help="repo-relative file or directory (default: .)")
    s.add_argument("--format", "-f", choices=FORMATS, default=None, help="default: markdown")
    aliases = {"line_numbers": ["--no-lines"], "module_vars": ["--no-vars"]}
    for name, what in _FLAGS:
        s.add_argument(f"--no-{name.replace('_', '-')}", *aliases.get(name, []), dest=f"no_{name}",
                       action="store_true", help=f"leave out {what}")
    s.add_argument("--max-children", metavar="N", help="members shown per definition (default 40; 'none')")
    s.add_argument("--max-depth", metavar="N", help="nesting levels shown (default 3; 'none')")
    s.add_argument("--rule", action="append", metavar="NAME=VALUE", help="any Rules field (repeatable)")
    s.add_argument("--json", action="store_true", help="structured result with its token count")
    s.set_defaults(func=cmd_outline)

    s = sub.add_parser("tool", help="run an agent tool and print exactly the text the agent would get")
    s.add_argument("db")
    s.add_argument("tool_name", nargs="?", help="e.g. read_region (see --list)")
    s.add_argument("args", nargs="*", metavar="NAME=VALUE", help="tool arguments")
    s.add_argument("--rule", action="append", metavar="NAME=VALUE", help="any Rules field (repeatable)")
    s.add_argument("--max-chars", type=int, default=None, help="response cap of read_region/resolve_symbol")
    s.add_argument("--json", action="store_true", help="structured result with its token count")
    s.add_argument("--list", action="store_true", help="list the tools")
    s.add_argument("--schema", action="store_true", help="print the tool's JSON schema")
    s.set_defaults(func=cmd_tool)
