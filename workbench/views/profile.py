"""Rule profiles as files: a set of `Rules` (and the compact rules a session switches to)
written as TOML, so a rule set tuned in a notebook is what the CLI and the MCP server use.

    # workbench rule profile
    [rules]
    format = "markdown"
    docs = false
    max_children = 15
    json_indent = "none"          # TOML has no null: "none" means no limit / unset

    [compact]                     # what a session switches to past compress_at (overrides)
    max_chars = 3000

`load(path)` -> `Profile(rules, compact)`; `save(path, rules, compact)` writes every rule
(so the file alone reproduces the answers). Rules missing from a file keep their
defaults; a missing `[compact]` table means `default_compact(rules)`; `compact = false` at
the top means never switch. Unknown rules and wrong types are errors naming the file.

CLI: `--rules FILE` on `workbench tool`, `workbench outline`, every tool command and
`workbench serve`; widgets: the "export rules" buttons of the outline lab and the rule
comparison.
"""
from __future__ import annotations

import json
import tomllib
from dataclasses import dataclass, fields

from .rules import Rules, coerce

# What a session past compress_at changes (each only ever lowers a cap or drops a detail).
COMPACT = {"docs": False, "decorators": False, "private": False, "max_children": 15,
           "max_depth": 2, "max_chars": 3000, "max_tokens": 1200, "max_rows": 20}
_ACCOUNTING = ("tokenizer", "context_window", "compress_at", "model")   # never changed by compact


@dataclass(frozen=True)
class Profile:
    rules: Rules
    compact: Rules | None          # None: the session never switches
    source: str | None = None      # the file it was read from

    def session_kwargs(self) -> dict:
        return {"compact": self.compact if self.compact is not None else False}


def _lower(base, want):
    if want is None or isinstance(want, bool) or base is None:
        return want if not isinstance(want, bool) else (base and want)
    return min(base, want)


def default_compact(rules: Rules) -> Rules:
    """`rules` with the compact changes applied (caps only lowered, details only dropped)."""
    return rules.replace(**{k: _lower(getattr(rules, k), v) for k, v in COMPACT.items()})


_NONE_OK = {f.name for f in fields(Rules) if "None" in str(f.type)}


def _value(name: str, v, where: str):
    like = getattr(Rules(), name)
    if isinstance(v, str) and v.strip().lower() == "none" and name in _NONE_OK:
        return None
    if isinstance(v, str) and not isinstance(like, str) and not (name == "model" or name == "tokenizer"):
        try:
            return coerce(v, like)
        except ValueError as exc:
            raise ValueError(f"{where}: rule {name}: {exc}") from None
    if isinstance(like, float) and isinstance(v, int) and not isinstance(v, bool):
        return float(v)
    if isinstance(like, bool) and not isinstance(v, bool):
        raise ValueError(f"{where}: rule {name} must be true or false, not {v!r}")
    if isinstance(like, int) and not isinstance(like, bool) and (isinstance(v, bool) or not isinstance(v, int)):
        also = ' or "none"' if name in _NONE_OK else ""
        raise ValueError(f"{where}: rule {name} must be an integer{also}, not {v!r}")
    return v


def _changes(table: dict, where: str) -> dict:
    known = {f.name for f in fields(Rules)}
    unknown = sorted(set(table) - known)
    if unknown:
        raise ValueError(f"{where}: unknown rule{'s' if len(unknown) > 1 else ''} "
                         f"{', '.join(unknown)}; known: {', '.join(sorted(known))}")
    return {k: _value(k, v, where) for k, v in table.items()}


def loads(text: str, source: str = "<rules>") -> Profile:
    """A Profile from TOML text (`source` names it in errors)."""
    try:
        doc = tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        raise ValueError(f"{source}: not valid TOML ({exc})") from None
    extra = sorted(k for k, v in doc.items() if isinstance(v, dict) and k not in ("rules", "compact"))
    if extra:
        raise ValueError(f"{source}: unknown table [{extra[0]}]; a profile has [rules] and [compact]")
    top = {k: v for k, v in doc.items() if not isinstance(v, dict)}
    compact_flag = top.pop("compact", None)
    table = {**top, **doc.get("rules", {})}
    try:
        rules = Rules().replace(**_changes(table, f"{source} [rules]"))
    except (TypeError, ValueError) as exc:
        raise ValueError(str(exc) if str(exc).startswith(source) else f"{source}: {exc}") from None
    if compact_flag is False:
        return Profile(rules, None, source)
    if compact_flag not in (None, True):
        raise ValueError(f"{source}: compact must be true or false (or a [compact] table)")
    if "compact" in doc and isinstance(doc["compact"], dict):
        changes = _changes(doc["compact"], f"{source} [compact]")
        fixed = sorted(set(changes) & set(_ACCOUNTING))
        if fixed:
            raise ValueError(f"{source} [compact]: {', '.join(fixed)} belong to the session, not to "
                             "its compact rules; set them in [rules]")
        try:
            compact = rules.replace(**changes)
        except (TypeError, ValueError) as exc:
            raise ValueError(f"{source} [compact]: {exc}") from None
    else:
        compact = default_compact(rules)
    return Profile(rules, compact, source)


def load(path) -> Profile:
    """The Profile of a TOML file."""
    try:
        with open(path, "rb") as fh:
            text = fh.read().decode("utf-8")
    except FileNotFoundError:
        raise FileNotFoundError(f"no rules file {str(path)!r}") from None
    except UnicodeDecodeError:
        raise ValueError(f"{path}: not UTF-8 text") from None
    return loads(text, str(path))


def _toml(v) -> str:
    if v is None:
        return '"none"'
    if isinstance(v, bool):
        return "true" if v else "false"
    if isinstance(v, (int, float)):
        return repr(v)
    if not isinstance(v, str):
        v = getattr(v, "name", None) or repr(v)
    return json.dumps(v, ensure_ascii=False)


def dumps(rules: Rules, compact: Rules | bool | None = None) -> str:
    """TOML text of `rules` (every field) and of the compact rules (the fields that differ
    from `rules`; `compact=None` writes `default_compact(rules)`, False writes
    `compact = false`)."""
    out = ["# Context Workbench rule profile: workbench tool|outline|serve --rules FILE",
           "# (docs/views.md lists the rules; \"none\" means no limit)"]
    if compact is False:
        out.append("compact = false")
    out.append("")
    out.append("[rules]")
    d = rules.to_dict()
    out += [f"{f.name} = {_toml(d[f.name])}" for f in fields(Rules)]
    if compact is not False:
        comp = default_compact(rules) if compact is None or compact is True else compact
        out += ["", "# what a session switches to past compress_at of its window", "[compact]"]
        out += [f"{k} = {_toml(b)}" for k, (_, b) in rules.diff(comp).items() if k not in _ACCOUNTING]
    return "\n".join(out) + "\n"


def save(path, rules: Rules, compact: Rules | bool | None = None) -> str:
    """Write the profile to `path`; returns the path."""
    text = dumps(rules, compact)
    loads(text, str(path))          # what we write must read back
    with open(path, "w", encoding="utf-8") as fh:
        fh.write(text)
    return str(path)
