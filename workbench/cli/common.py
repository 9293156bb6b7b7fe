"""What every command shares: one way to open a database, one way to print, the rule options."""
from __future__ import annotations

import os
import sys

from ..views.rules import FORMATS, Rules, rule_fields


def open_db(db: str, read_only: bool = True):
    """The Workbench of an index file (FileNotFoundError with advice when it is missing)."""
    from ..api import open as wb_open
    return wb_open(db, read_only=read_only)


def out(text: str) -> None:
    """Print `text` (one trailing newline) to stdout; a reader that went away (`| head`) is
    not an error."""
    try:
        sys.stdout.write(text + ("" if text.endswith("\n") else "\n"))
        sys.stdout.flush()
    except BrokenPipeError:
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())


def fail(cmd: str, message: str, code: int = 2) -> int:
    """An error the user must fix: one line on stderr, exit status `code`."""
    print(f"workbench {cmd}: {message}", file=sys.stderr)
    return code


def emit(resp, as_json: bool) -> int:
    """A view's Response: exactly its text (or its JSON with the token count); exit status 1
    when the text is an error answer."""
    out(resp.to_json() if as_json else resp.text)
    return 1 if resp.error else 0


# ---------------------------------------------------------------- rules as options

def _int_or_none(s: str):
    return None if s.lower() in ("none", "all") else int(s)


def add_rule_options(p, outline: bool = False) -> None:
    """`--rule NAME=VALUE` (any Rules field) and `--json`; with `outline`, the outline
    rules as their own options, generated from the Rules fields: `--format`, `--no-NAME`
    for each on/off rule, `--NAME N` for each count (`none` = no limit)."""
    if outline:
        p.add_argument("--format", "-f", choices=FORMATS, default=None, help="default: markdown")
        for f in rule_fields("outline"):
            flag = f.name.replace("_", "-")
            if f.type in ("bool", bool):
                p.add_argument(f"--no-{flag}", *f.metadata["cli"], dest=f"no_{f.name}",
                               action="store_true", help=f"leave out {f.metadata['help']}")
            elif f.type == "int | None":
                p.add_argument(f"--{flag}", metavar="N", dest=f.name,
                               help=f"{f.metadata['help']} (default {f.default})")
    p.add_argument("--rule", action="append", metavar="NAME=VALUE", help="any Rules field (repeatable)")
    p.add_argument("--json", action="store_true", help="structured result with its token count")


def rules_of(a) -> Rules:
    """The Rules the parsed options describe (ValueError/TypeError on a bad value)."""
    rules = Rules.parse_assignments(a.rule or [])
    changes = {}
    for f in rule_fields("outline"):
        if getattr(a, f"no_{f.name}", False):
            changes[f.name] = False
        elif f.type == "int | None" and getattr(a, f.name, None) is not None:
            changes[f.name] = _int_or_none(getattr(a, f.name))
    if getattr(a, "format", None):
        changes["format"] = a.format
    if getattr(a, "max_chars", None) is not None:
        changes["max_chars"] = a.max_chars
    return rules.replace(**changes) if changes else rules
