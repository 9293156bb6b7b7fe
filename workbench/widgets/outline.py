"""Outline browser: pick a file (or search for a symbol), choose the outline format and
options, and see the outline exactly as an agent would receive it, with its token count next
to the whole file's. Selecting a symbol shows its source region.

    >>> from workbench.widgets import OutlineBrowser
    >>> ob = OutlineBrowser(wb, "shop/orders.py")
    >>> ob                                     # renders in a notebook
    >>> ob.format.value = "tags"; ob.text      # drive it from code

A thin shell: the outline is `workbench.views.outline(...)`, the region is the agent tool
`read_region`, the search and the symbol list are `workbench.graph.search_symbols` (the
tool `search_symbols`), the counts are `workbench.views.tokens`. The rule controls are
generated from the outline fields of `Rules`: a checkbox per on/off rule, a slider per count.
"""
from __future__ import annotations

import ipywidgets as W

from .. import graph
from ..views import FORMATS, Rules, call, outline
from ..views.rules import rule_fields
from ..views.source import file_info, read_text
from ..views.tokens import get_tokenizer
from . import _common as C

MAX_SYMBOLS = 2000      # entries of the symbol list of one file


class OutlineBrowser(W.VBox):
    def __init__(self, wb, path: str | None = None, rules: Rules | None = None, **kw):
        self.wb = wb
        self.base_rules = rules or Rules()
        self._files = C.source_files(wb)
        start = path if path in self._files else (self._files[0] if self._files else None)

        self.search = W.Text(placeholder="filter files, or a symbol name", description="search",
                             continuous_update=False, layout=C.layout(width="320px"))
        self.file = W.Select(options=self._files, value=start, rows=14,
                             layout=C.layout(width="320px"))
        self.format = W.Dropdown(options=list(FORMATS), value=self.base_rules.format,
                                 description="format", layout=C.layout(width="220px"))
        self.format.add_class("wb-format")
        self.flags = {}             # on/off rules -> checkbox
        self.counts = {}            # count rules (None = no limit) -> slider, 0 meaning None
        for f in rule_fields("outline"):
            value = getattr(self.base_rules, f.name)
            if f.type == "bool":
                w = W.Checkbox(value=value, description=f.name, indent=False,
                               layout=C.layout(width="120px"), tooltip=f.metadata["help"])
                w.add_class(f"wb-rule-{f.name}")
                self.flags[f.name] = w
            elif f.type == "int | None":
                w = W.IntSlider(value=value or 0, min=0, max=f.metadata["widget_max"],
                                description=f.name.replace("_", " "),
                                style={"description_width": "initial"})
                self.counts[f.name] = w
        self.max_children = self.counts["max_children"]
        self.max_depth = self.counts["max_depth"]
        self.symbol = W.Dropdown(options=[], description="symbol", layout=C.layout(width="520px"))
        self.symbol.add_class("wb-symbol")
        self.badge = W.HTML()
        self.badge.add_class("wb-badge")
        self.outline_view = W.HTML()
        self.region_view = W.HTML()
        self.exporter = C.RulesExport({"": lambda: self.rules})
        self.response = None
        self.region = None

        for w in [self.format, *self.counts.values(), *self.flags.values()]:
            w.observe(self._on_option, "value")
        self.file.observe(self._on_file, "value")
        self.search.observe(self._on_search, "value")
        self.symbol.observe(self._on_symbol, "value")

        opts = W.VBox([self.format, W.HBox(list(self.flags.values())[:4]),
                       W.HBox(list(self.flags.values())[4:]),
                       W.HBox(list(self.counts.values()))])
        left = W.VBox([self.search, self.file], layout=C.layout(flex="0 0 340px", width="340px"))
        right = W.VBox([opts, self.exporter.box, self.badge, self.outline_view, self.symbol, self.region_view],
                       layout=C.layout(flex="1 1 0%", min_width="0", width="auto"))
        super().__init__([W.HBox([left, right])], **kw)
        self.add_class("wb-outline-browser")
        self.refresh()

    # ------------------------------------------------------------------ state
    @property
    def rules(self) -> Rules:
        """The rules the controls describe (zero on a slider means "no limit")."""
        return self.base_rules.replace(
            format=self.format.value,
            **{k: sl.value or None for k, sl in self.counts.items()},
            **{k: cb.value for k, cb in self.flags.items()})

    @property
    def path(self) -> str | None:
        return self.file.value

    def export_rules(self, path: str | None = None) -> str:
        """Write the rules the controls describe to a rule profile file (the "export rules"
        button); `workbench outline DB PATH --rules FILE` then prints this outline."""
        return self.exporter.export(path=path)

    @property
    def text(self) -> str:
        """The outline text as the agent receives it."""
        return self.response.text if self.response is not None else ""

    def whole_file_tokens(self, path: str) -> int:
        info = file_info(C.con_of(self.wb), path)
        lines = read_text(C.root_of(self.wb), info).lines
        text = "\n".join(lines) + ("\n" if lines else "")      # as the eval counts a whole file
        return get_tokenizer(self.rules.tokenizer).count(text)

    # ------------------------------------------------------------------ events
    def _on_option(self, _change=None):
        self.refresh()

    def _on_file(self, _change=None):
        self.refresh()

    def _on_search(self, change):
        q = (change["new"] or "").strip()
        if not q:
            opts = self._files
        else:
            hits = {s.path for s in graph.search_symbols(C.con_of(self.wb), q, limit=MAX_SYMBOLS)}
            opts = [p for p in self._files if q.lower() in p.lower() or p in hits]
        keep = self.file.value if self.file.value in opts else (opts[0] if opts else None)
        self.file.options = opts
        self.file.value = keep
        if opts and len(opts) < len(self._files):
            # a symbol search selects the first matching symbol in the chosen file
            for label, sid in self.symbol.options:
                if q.lower() in label.lower():
                    self.symbol.value = sid
                    break

    def _on_symbol(self, change):
        self.show_region(change["new"])

    # ------------------------------------------------------------------ rendering
    def refresh(self):
        path = self.path
        if path is None:
            self.outline_view.value = C.pre("(no source files in this index)", "wb-outline")
            return
        self.response = outline(self.wb, path, self.rules)
        whole = self.whole_file_tokens(path)
        ratio = f"{self.response.tokens / whole:.0%}" if whole else "n/a"
        self.badge.value = (f"<span class='wb-badge'><b>{path}</b>: outline "
                            f"<b>{self.response.tokens:,}</b> tokens · whole file <b>{whole:,}</b> "
                            f"tokens · outline/file <b>{ratio}</b> · format {self.rules.format}</span>")
        self.outline_view.value = C.pre(self.response.text, "wb-outline")
        syms = graph.search_symbols(C.con_of(self.wb), path=path, limit=MAX_SYMBOLS)
        current = self.symbol.value
        self.symbol.options = [("(choose a symbol to read its region)", 0)] + [
            (f"{s.kind} {s.qualname} [{s.start_line}-{s.end_line}]", s.symbol_id) for s in syms]
        self.symbol.value = current if current in {s.symbol_id for s in syms} else 0

    def show_region(self, symbol_id):
        if not symbol_id:
            self.region = None
            self.region_view.value = ""
            return
        sym = graph.symbols_by_id(C.con_of(self.wb), [symbol_id])[symbol_id]
        path, start, end = sym.path, sym.start_line, sym.end_line
        self.region = call(self.wb, "read_region",
                           {"path": path, "start_line": start, "end_line": end}, rules=self.rules)
        self.region_view.value = (
            f"<span class='wb-badge'>read_region({path!r}, {start}, {end}): "
            f"<b>{self.region.tokens:,}</b> tokens</span>" + C.pre(self.region.text, "wb-region"))
