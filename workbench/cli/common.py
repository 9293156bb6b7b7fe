"""What every command shares: one way to open a database, one way to print, the rule options."""
from __future__ import annotations

import os
import sys

# the views (`..views.rules`) are imported where they are used: commands over the index
# start without loading every agent tool


DB_HELP = ("the index: a database file, or the repository folder itself (its default database "
           "in the user cache, see `workbench index`)")


def add_command(sub, name: str, help: str, description: str | None = None,
                examples: tuple[str, ...] = ()):
    """A sub-command whose --help says what it does, then shows examples (`examples`: the
    command lines after `workbench `)."""
    import argparse
    import textwrap
    epilog = ("examples:\n" + "\n".join(f"  workbench {e}" for e in examples)) if examples else None
    text = description or (help[0].upper() + help[1:] + ".")
    return sub.add_parser(name, help=help, description=textwrap.fill(text, 88), epilog=epilog,
                          formatter_class=argparse.RawDescriptionHelpFormatter)


def open_db(db: str, read_only: bool = True, **kw):
    """The Workbench of an index file, or of a repository folder's default database
    (FileNotFoundError with advice when it is missing, NotAWorkbench when it holds no
    completed index); `kw` as for `workbench.open`."""
    from ..api import open as wb_open
    from ..locations import db_for
    path = db_for(db)
    if path != db and not os.path.exists(path):
        raise FileNotFoundError(f"{db} is not indexed yet (no database at {path}); "
                                f"run `workbench index {db}` first")
    return wb_open(path, read_only=read_only, **kw)


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
    from ..views.rules import FORMATS, rule_fields
    if outline:
        p.add_argument("--format", "-f", choices=FORMATS, default=None,
                       help="outline format (default: markdown)")
        for f in rule_fields("outline"):
            flag = f.name.replace("_", "-")
            if f.type in ("bool", bool):
                p.add_argument(f"--no-{flag}", *f.metadata["cli"], dest=f"no_{f.name}",
                               action="store_true", help=f"leave out {f.metadata['help']} (shown by default)")
            elif f.type == "int | None":
                p.add_argument(f"--{flag}", metavar="N", dest=f.name,
                               help=f"{f.metadata['help']} (default: {'none' if f.default is None else f.default})")
    p.add_argument("--rules", metavar="FILE", help="rule profile file (TOML, as the widgets' "
                   "'export rules' writes it); the options here change it further (default: none)")
    p.add_argument("--rule", action="append", metavar="NAME=VALUE",
                   help="set any Rules field, e.g. max_chars=2000 (repeatable; default: the Rules defaults, "
                        "docs/views.md)")
    p.add_argument("--json", action="store_true",
                   help="print the structured result with its token count instead of the text (default: the text)")


def profile_of(a):
    """The rule profile the options name (`--rules FILE`, then `--rule` and the rule options
    on top); ValueError/TypeError on a bad value, FileNotFoundError on a missing file."""
    from ..views.profile import Profile, default_compact, load
    from ..views.rules import Rules
    base = load(a.rules) if getattr(a, "rules", None) else None
    rules = _options(a, base.rules if base else Rules())
    if base is None:
        return Profile(rules, default_compact(rules))
    if rules == base.rules:
        return base
    compact = base.compact.replace(**dict(_changed(base.rules, rules))) if base.compact else None
    return Profile(rules, compact, base.source)


def _changed(a: Rules, b: Rules):
    return ((k, vb) for k, (_, vb) in a.diff(b).items())


def rules_of(a) -> Rules:
    """The Rules the parsed options describe (ValueError/TypeError on a bad value)."""
    return profile_of(a).rules


def _options(a, base: Rules) -> Rules:
    from ..views.rules import Rules, rule_fields
    rules = Rules.parse_assignments(a.rule or [], base)
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
