"""CLI twins of the views: `workbench outline`, `workbench tool`, and one command per agent
tool, generated from the tool registry (same name, same arguments as the schema).

    workbench outline DB shop/orders.py --format tags --no-docs --max-children 10
    workbench find_callers DB shop.pricing.compute_total
    workbench read_region DB shop/orders.py 17 40
    workbench repo_map DB --budget-tokens 512 --focus shop/orders.py --json
    workbench tool DB read_region path=shop/orders.py start_line=17 end_line=40
    workbench tool DB --list            # tool names and descriptions
    workbench tool DB read_region --schema

Without --json they print exactly the text an agent would receive (`workbench NAME DB ...`
prints what `workbench tool DB NAME ...` prints); --json prints the structured result with
its token count. An error answer exits with status 1.
"""
from __future__ import annotations

import json

from ..views import TOOLS, call, outline
from ..views.registry import parse_tool_args
from .common import DB_HELP, add_command, add_rule_options, emit, fail, open_db, out, rules_of


def cmd_outline(a) -> int:
    try:
        rules = rules_of(a)
    except (ValueError, TypeError) as exc:
        return fail("outline", str(exc))
    with open_db(a.db) as wb:
        return emit(outline(wb, a.path, rules), a.json)


def _run_tool(a, name: str, args: dict) -> int:
    try:
        rules = rules_of(a)
    except (ValueError, TypeError) as exc:
        return fail(a.cmd, str(exc))
    with open_db(a.db) as wb:
        return emit(call(wb, name, args, rules=rules), a.json)


def cmd_tool(a) -> int:
    if a.list or not a.tool_name:
        out("\n".join(f"{t.name}({', '.join(p + ('' if p in t.parameters['required'] else '?') for p in t.parameters['properties'])})\n"
                      f"    {t.description}" for t in TOOLS.values()))
        return 0 if a.list else 2
    if a.schema:
        if a.tool_name not in TOOLS:
            return fail("tool", f"no tool {a.tool_name!r}")
        out(json.dumps(TOOLS[a.tool_name].schema, indent=2))
        return 0
    try:
        args = parse_tool_args(a.args)
    except ValueError as exc:
        return fail("tool", str(exc))
    return _run_tool(a, a.tool_name, args)


def _cmd_named_tool(a) -> int:
    """`workbench NAME DB ...`: the arguments as parsed by the options the schema made."""
    t = TOOLS[a.cmd]
    args = {}
    for p in t.parameters["properties"]:
        v = getattr(a, f"arg_{p}", None)
        if v is not None:
            args[p] = v
    return _run_tool(a, a.cmd, args)


# One realistic example per tool (bundled sample `pyshop`); a tool without one gets an
# example built from its schema.
EXAMPLES = {
    "list_files": "pyshop.duckdb --path shop --max-depth 1",
    "file_index": "pyshop.duckdb shop/orders.py",
    "read_outline": "pyshop.duckdb shop/orders.py",
    "read_region": "pyshop.duckdb shop/orders.py 17 40",
    "resolve_symbol": "pyshop.duckdb place_order",
    "repo_overview": "pyshop.duckdb",
    "repo_map": "pyshop.duckdb --budget-tokens 256 --focus shop/orders.py",
    "find_definition": "pyshop.duckdb pricing.compute_total",
    "search_symbols": "pyshop.duckdb total --path shop/pricing.py",
    "find_callers": "pyshop.duckdb shop.pricing.compute_total",
    "find_callees": "pyshop.duckdb shop.orders.place_order",
    "trace_call_chain": "pyshop.duckdb shop.cli.main --depth 2 --direction both",
    "get_architecture_overview": "pyshop.duckdb --directory shop",
    "impact": "pyshop.duckdb shop/pricing.py --depth 2",
}


def tool_example(t) -> str:
    """`workbench NAME ...` arguments showing the tool's use."""
    if t.name in EXAMPLES:
        return EXAMPLES[t.name]
    props, required = t.parameters["properties"], t.parameters["required"]
    return " ".join(["pyshop.duckdb"] + [p.upper() for p in props if p in required])


def add_tool_parser(sub, t) -> None:
    """One command for agent tool `t`: required arguments positional (an array takes one or
    more values), optional ones as `--name` options (an array as comma-separated values)."""
    s = add_command(sub, t.name, t.description.split(". ")[0].rstrip(".").lower() + " (agent tool)",
                    t.description + " Prints exactly the text the agent receives.",
                    (f"{t.name} {tool_example(t)}", f"{t.name} {tool_example(t)} --json"))
    s.add_argument("db", help=DB_HELP)
    props, required = t.parameters["properties"], t.parameters["required"]
    for p, spec in props.items():
        kind = spec.get("type")
        what = spec.get("description", "")
        if p in required:
            s.add_argument(f"arg_{p}", metavar=p.upper(), nargs="+" if kind == "array" else None,
                           help=what)
        else:
            default = (f" (default: {spec['default']})" if "default" in spec else
                       " (default: the rules' value)" if p in ("budget_tokens", "max_depth") else " (optional)")
            s.add_argument(f"--{p.replace('_', '-')}", dest=f"arg_{p}", choices=spec.get("enum"),
                           type=int if kind == "integer" else None,
                           metavar=None if "enum" in spec else "VALUE" if kind != "array" else "A,B",
                           help=(what or p.replace("_", " ")) + default)
    s.add_argument("--max-chars", type=int, default=None, metavar="N",
                   help="response cap in characters (Rules.max_chars; default: 6000)")
    add_rule_options(s)
    s.set_defaults(func=_cmd_named_tool)


def add_parsers(sub) -> None:
    """Add `outline`, `tool` and one command per agent tool to the `workbench` command."""
    s = add_command(sub, "outline", "outline of a file, directory or the repository, exactly as "
                                    "an agent would get it",
                    "Print the outline of a file, a directory or the repository exactly as the "
                    "read_outline tool answers under the same rules; the options set the outline "
                    "rules (docs/views.md).",
                    ("outline pyshop.duckdb shop/orders.py",
                     "outline pyshop.duckdb shop/orders.py --format tags --no-docs --max-children 10",
                     "outline ~/src/rich rich/console.py --max-children none"))
    s.add_argument("db", help=DB_HELP)
    s.add_argument("path", nargs="?", default=".", help="repo-relative file or directory (default: .)")
    add_rule_options(s, outline=True)
    s.set_defaults(func=cmd_outline)

    s = add_command(sub, "tool", "run an agent tool by name and print exactly the text the agent "
                                 "would get",
                    examples=("tool pyshop.duckdb read_region path=shop/orders.py start_line=17 end_line=40",
                              "tool pyshop.duckdb --list", "tool pyshop.duckdb read_region --schema"))
    s.add_argument("db", help=DB_HELP)
    s.add_argument("tool_name", nargs="?", help="e.g. read_region (see --list)")
    s.add_argument("args", nargs="*", metavar="NAME=VALUE",
                   help="tool arguments (a value starting with [ or { is JSON)")
    s.add_argument("--max-chars", type=int, default=None, metavar="N",
                   help="response cap in characters (Rules.max_chars; default: 6000)")
    s.add_argument("--list", action="store_true", help="list the tools and their arguments")
    s.add_argument("--schema", action="store_true", help="print the tool's JSON schema")
    add_rule_options(s)
    s.set_defaults(func=cmd_tool)

    for t in TOOLS.values():
        add_tool_parser(sub, t)
