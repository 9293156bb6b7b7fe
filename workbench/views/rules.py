"""The one rules object: caps, filters and format options that drive every view.

Two `Rules` are plain frozen values, so they compare and hash; `a.diff(b)` says how they
differ and `workbench.views.compare(...)` renders the same tool call under both.

    >>> lean = Rules(docs=False, private=False, max_children=15)
    >>> Rules().diff(lean)
    {'docs': (True, False), 'private': (True, False), 'max_children': (40, 15)}
"""
from __future__ import annotations

import dataclasses
from dataclasses import dataclass, field, fields
from typing import Any

FORMATS = ("markdown", "json", "tags", "stub", "prose")


def _rule(default, help: str, group: str, cli: tuple[str, ...] = (), widget_max: int | None = None):
    """A Rules field with what it does (`help`), the tools it drives (`group`), extra CLI
    spellings and the top of its slider; the CLI options and the widget controls are
    generated from these."""
    return field(default=default, metadata={"help": help, "group": group, "cli": cli,
                                            "widget_max": widget_max})


@dataclass(frozen=True)
class Rules:
    # ---- outline format and filters (read_outline, `workbench outline`)
    format: str = _rule("markdown", "outline format: " + " | ".join(FORMATS), "outline")
    docs: bool = _rule(True, "docstring / comment first lines", "outline")
    imports: bool = _rule(True, "the imports line", "outline")
    module_vars: bool = _rule(True, "module variables", "outline", ("--no-vars",))
    fields: bool = _rule(True, "class fields", "outline")
    private: bool = _rule(True, "private members (_name, `private`, lower-case Go names)", "outline")
    decorators: bool = _rule(True, "decorators and annotations", "outline")
    signatures: bool = _rule(True, "full signatures (else kind + name)", "outline")
    line_numbers: bool = _rule(True, "line ranges", "outline", ("--no-lines",))
    max_children: int | None = _rule(40, "members shown per class and definitions per file, the most used and public "
                                     "first, then '... N more' with their kinds (none: all)",
                                     "outline", widget_max=60)
    max_depth: int | None = _rule(3, "nesting levels shown, 1 = top level only (none: all)", "outline",
                                  widget_max=5)
    json_indent: int | None = _rule(None, "json format: indentation (none: compact)", "outline",
                                    widget_max=8)
    outline_budget: int | None = _rule(1000, "tokens a read_outline answer may take: over it, the "
                                       "outline shows top-level definitions only (level 1) and how to "
                                       "expand one (none: always the whole outline)", "read_outline",
                                       widget_max=4000)
    # ---- every answer (the registry applies the caps to every tool)
    max_chars: int = _rule(6000, "characters per answer of every tool, cut at a whole line with a "
                           "note saying how to get the rest", "answer")
    max_tokens: int = _rule(2500, "tokens per answer of every tool (the rules' tokenizer), cut the "
                            "same way", "answer")
    max_rows: int = _rule(40, "rows per page of list answers (find_callers, find_definition, ...); "
                          "the note gives the offset of the next page", "answer", widget_max=200)
    tool_timeout: float | None = _rule(10.0, "seconds a tool call may run: past it the call's query is stopped "
                                       "and the answer is an error naming the limit and how to narrow the "
                                       "request (none: no limit)", "answer")
    tool_memory_mb: int | None = _rule(1024, "megabytes of memory DuckDB may use during a tool call (it spills "
                                       "to its temporary directory or stops the query with an error past "
                                       "it; a lower limit already set on the connection stays; none: "
                                       "DuckDB's own limit)", "answer")
    # ---- read_region / resolve_symbol
    region_line_numbers: bool = _rule(False, "prefix every returned line with its number", "region")
    dedupe: bool = _rule(True, "a session answers repeats with 'already provided'", "region")
    # ---- list_files
    list_depth: int = _rule(2, "default max_depth of list_files", "list_files")
    list_max_entries: int = _rule(300, "entries list_files shows, then '... N more entries'", "list_files")
    # ---- repo_map
    repo_map_budget: int = _rule(1024, "default token budget of repo_map", "repo_map")
    # ---- context_pack
    pack_budget: int = _rule(2000, "default token budget of context_pack", "context_pack")
    # ---- accounting
    tokenizer: Any = _rule("cl100k_base", "encoding name, tiktoken Encoding or callable", "accounting")
    context_window: int = _rule(128_000, "tokens a session may hold", "accounting")
    compress_at: float = _rule(0.6, "share of the window at which a session switches to its compact "
                               "rules (and says so)", "accounting")
    model: str | None = _rule(None, "pricing model (none: the pricing file's default)", "accounting")

    def __post_init__(self):
        if self.format not in FORMATS:
            raise ValueError(f"unknown outline format {self.format!r}; choose one of {', '.join(FORMATS)}")
        for name in ("max_children", "max_depth", "outline_budget"):
            v = getattr(self, name)
            if v is not None and (not isinstance(v, int) or v < 0):
                raise ValueError(f"{name} must be a non-negative integer or None, not {v!r}")
        if not isinstance(self.max_chars, int) or self.max_chars < 200:
            raise ValueError(f"max_chars must be an integer >= 200, not {self.max_chars!r}")
        if not isinstance(self.max_tokens, int) or self.max_tokens < 50:
            raise ValueError(f"max_tokens must be an integer >= 50, not {self.max_tokens!r}")
        if not isinstance(self.max_rows, int) or self.max_rows < 1:
            raise ValueError(f"max_rows must be a positive integer, not {self.max_rows!r}")
        t = self.tool_timeout
        if t is not None and (isinstance(t, bool) or not isinstance(t, (int, float)) or not t > 0):
            raise ValueError(f"tool_timeout must be a positive number of seconds or None, not {t!r}")
        m = self.tool_memory_mb
        if m is not None and (isinstance(m, bool) or not isinstance(m, int) or m < 16):
            raise ValueError(f"tool_memory_mb must be an integer >= 16 or None, not {m!r}")

    # -------------------------------------------------------------- comparing
    def replace(self, **changes) -> "Rules":
        """A copy with some fields changed (unknown names are an error)."""
        unknown = set(changes) - {f.name for f in fields(self)}
        if unknown:
            raise TypeError(f"unknown rule(s): {', '.join(sorted(unknown))}; "
                            f"known: {', '.join(f.name for f in fields(self))}")
        return dataclasses.replace(self, **changes)

    def diff(self, other: "Rules") -> dict[str, tuple]:
        """{field: (self's value, other's value)} for every field that differs."""
        return {f.name: (getattr(self, f.name), getattr(other, f.name))
                for f in fields(self) if getattr(self, f.name) != getattr(other, f.name)}

    def to_dict(self) -> dict:
        d = dataclasses.asdict(self)
        if not isinstance(d["tokenizer"], str):
            d["tokenizer"] = getattr(self.tokenizer, "name", None) or repr(self.tokenizer)
        return d

    @classmethod
    def from_dict(cls, d: dict) -> "Rules":
        return cls().replace(**d)

    @classmethod
    def parse_assignments(cls, items: list[str], base: "Rules | None" = None) -> "Rules":
        """Rules from ``name=value`` strings (the CLI's ``--rule``): values are coerced to
        the field's type (true/false, integers, floats, ``none``)."""
        base = base or cls()
        changes = {}
        for item in items:
            if "=" not in item:
                raise ValueError(f"expected name=value, got {item!r}")
            name, raw = item.split("=", 1)
            name = name.strip().replace("-", "_")
            if name not in {f.name for f in fields(cls)}:
                raise ValueError(f"unknown rule {name!r}")
            changes[name] = coerce(raw, getattr(base, name))
        return base.replace(**changes)

    def _repr_markdown_(self) -> str:
        default = Rules()
        rows = ["| rule | value |", "|---|---|"]
        for f in fields(self):
            v = getattr(self, f.name)
            mark = "" if v == getattr(default, f.name) else " **(changed)**"
            rows.append(f"| {f.name} | `{v!r}`{mark} |")
        return "\n".join(rows)


def coerce(raw: str, like: Any) -> Any:
    """A CLI string as the type of `like` (the current value of the field)."""
    s = raw.strip()
    if s.lower() in ("none", "null"):
        return None
    if isinstance(like, bool):
        if s.lower() in ("1", "true", "yes", "on"):
            return True
        if s.lower() in ("0", "false", "no", "off"):
            return False
        raise ValueError(f"expected true/false, got {raw!r}")
    if isinstance(like, int) or like is None:
        try:
            return int(s)
        except ValueError:
            if like is not None:
                raise ValueError(f"expected an integer, got {raw!r}") from None
    if isinstance(like, float):
        return float(s)
    return s



def rule_fields(group: str | None = None) -> list:
    """The dataclass fields of `Rules` (of one `group`: outline, answer, region, list_files,
    repo_map, accounting), each with `.metadata["help"]`."""
    return [f for f in fields(Rules) if group is None or f.metadata["group"] == group]
