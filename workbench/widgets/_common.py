"""Small pieces shared by the widgets: escaped text blocks, token badges, file lists."""
from __future__ import annotations

import html

import ipywidgets as W

from ..views import lookup, source

CSS = """<style>
.wb-pre { min-width: 0; max-width: 100%; }
.wb-pre pre { white-space: pre-wrap; overflow-wrap: anywhere; font-family: var(--jp-code-font-family, monospace);
  font-size: 12px; line-height: 1.35; margin: 0; padding: 6px 8px; overflow: auto;
  max-height: 520px; background: var(--jp-layout-color1, #fafafa);
  border: 1px solid var(--jp-border-color2, #ddd); border-radius: 3px; }
.wb-badge { font-size: 12px; color: var(--jp-ui-font-color1, #333); }
.wb-badge b { font-weight: 600; }
.wb-diff .add { background: #e6ffed; } .wb-diff .del { background: #ffeef0; }
.wb-diff .hunk { color: #6a737d; }
.wb-table { max-height: 320px; overflow: auto; max-width: 100%; }
.wb-table table { border-collapse: collapse; font-size: 12px; }
.wb-table table.wb-fit { table-layout: fixed; width: 100%; }
.wb-table td, .wb-table th { padding: 2px 8px; border-bottom: 1px solid #eee; text-align: left;
  vertical-align: top; }
.wb-table table.wb-fit td { overflow-wrap: anywhere; word-break: break-word; white-space: normal; }
.wb-over { color: #b31d28; font-weight: 600; }
</style>"""


def pre(text: str, cls: str) -> str:
    """An HTML <pre> with the exact text (escaped), tagged with a CSS class for tests/browsers."""
    return f"{CSS}<div class='wb-pre'><pre class='{cls}'>{html.escape(text)}</pre></div>"


def cell_text(value) -> str:
    """A table cell: missing values (None, NaN) are shown empty."""
    if value is None:
        return ""
    try:
        if value != value:          # NaN
            return ""
    except (TypeError, ValueError):
        pass
    return str(value)


def html_table(rows: list[dict], cls: str = "wb-calls", max_rows: int = 200, fit: bool = False) -> str:
    """Rows as an HTML table (at most `max_rows`, then a row saying how many more). With
    `fit`, the table takes the widget's width and long cells wrap instead of widening it."""
    fitcls = " wb-fit" if fit else ""
    if not rows:
        return f"<div class='wb-table'><table class='{cls}{fitcls}'><tr><td><em>(none)</em></td></tr></table></div>"
    cols = list(rows[0])
    head = "".join(f"<th>{html.escape(str(c))}</th>" for c in cols)
    body = "".join("<tr>" + "".join(f"<td>{html.escape(cell_text(r[c]))}</td>"
                                    for c in cols) + "</tr>" for r in rows[:max_rows])
    more = (f"<tr><td colspan={len(cols)}><em>... {len(rows) - max_rows} more rows</em></td></tr>"
            if len(rows) > max_rows else "")
    return (f"{CSS}<div class='wb-table'><table class='{cls}{fitcls}'><tr>{head}</tr>{body}{more}"
            "</table></div>")


def con_of(wb):
    return getattr(wb, "con", wb)


def root_of(wb) -> str:
    return getattr(wb, "root", None) or source.root_of(con_of(wb))


def source_files(wb) -> list[str]:
    """Paths of the files that have definitions (what an outline can show), in path order."""
    return lookup.source_files(con_of(wb))


def layout(**kw) -> W.Layout:
    return W.Layout(**kw)


def show_in(output, obj) -> None:
    """Replace an Output widget's content with `obj` (only inside a kernel: without a front
    end there is nothing to draw into, and the object stays available as an attribute)."""
    try:
        from IPython import get_ipython
    except ImportError:  # pragma: no cover
        return
    ip = get_ipython()
    if ip is None or not getattr(ip, "kernel", None):
        return
    output.clear_output(wait=True)
    with output:
        from IPython.display import display
        display(obj)


class RulesExport:
    """The "export rules" row of a widget: a file name and a button per rule set; a click
    writes that rule set as a rule profile file (TOML) that `workbench tool|outline|serve
    --rules FILE` reads, so the CLI and an agent get exactly the text the widget shows."""

    def __init__(self, sources: dict, filename: str = "rules.toml"):
        self.sources = sources          # label -> callable returning the Rules to write
        self.path = W.Text(value=filename, description="rules file", continuous_update=False,
                           layout=layout(width="300px"))
        self.buttons = {}
        for label in sources:
            b = W.Button(description=f"export rules{' ' + label if len(sources) > 1 else ''}",
                         tooltip="write these rules to the file (TOML)", layout=layout(width="auto"))
            b.add_class("wb-export-rules")
            b.on_click(lambda _b, label=label: self.export(label))
            self.buttons[label] = b
        self.status = W.HTML()
        self.box = W.HBox([self.path, *self.buttons.values(), self.status])

    def export(self, label: str | None = None, path: str | None = None) -> str:
        """Write the rule set `label` (the first by default) to `path` (default: the file
        field); returns the path written."""
        from ..views.profile import save
        label = label or next(iter(self.sources))
        target = path or self.path.value.strip() or "rules.toml"
        try:
            written = save(target, self.sources[label]())
        except (OSError, ValueError) as exc:
            self.status.value = f"<span class='wb-over'>{html.escape(str(exc))}</span>"
            raise
        self.status.value = (f"<span class='wb-badge'>wrote <code>{html.escape(written)}</code>: "
                             f"<code>workbench tool DB NAME ... --rules {html.escape(written)}</code></span>")
        return written
