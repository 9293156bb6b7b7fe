"""Outline browser: pick a file (or search for a symbol), choose the outline format and
options, and see the outline exactly as an agent would receive it, with its token count next
to the whole file's. Selecting a symbol shows its source region.

    >>> from workbench.widgets import OutlineBrowser
    >>> ob = OutlineBrowser(wb, "shop/orders.py")
    >>> ob                                     # renders in a notebook
    >>> ob.format.value = "tags"; ob.text      # drive it from code

A thin shell: the outline is `workbench.views.outline(...)`, the region is the agent tool
`read_region`, the counts are `workbench.views.tokens`.
"""
from __future__ import annotations

import ipywidgets as W

from .. import store
from ..views import FORMATS, Rules, outline
from ..views.tokens import get_tokenizer
from . import _common as C

BOOL_RULES = ("docs", "imports", "module_vars", "fields", "private", "decorators", "signatures",
              "line_numbers")


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
        self.flags = {}
        for name in BOOL_RULES:
            cb = W.Checkbox(value=getattr(self.base_rules, name), description=name, indent=False,
                            layout=C.layout(width="120px"))
            cb.add_class(f"wb-rule-{name}")
            self.flags[name] = cb
        self.max_children = W.IntSlider(value=self.base_rules.max_children or 0, min=0, max=60,
                                        description="max children",
                                        style={"description_width": "initial"})
        self.max_depth = W.IntSlider(value=self.base_rules.max_depth or 0, min=0, max=5,
                                     description="max depth", style={"description_width": "initial"})
        self.symbol = W.Dropdown(options=[], description="symbol", layout=C.layout(width="520px"))
        self.symbol.add_class("wb-symbol")
        self.badge = W.HTML()
        self.badge.add_class("wb-badge")
        self.outline_view = W.HTML()
        self.region_view = W.HTML()
        self.response = None
        self.region = None

        for w in [self.format, self.max_children, self.max_depth, *self.flags.values()]:
            w.observe(self._on_option, "value")
        self.file.observe(self._on_file, "value")
        self.search.observe(self._on_search, "value")
        self.symbol.observe(self._on_symbol, "value")

        opts = W.VBox([self.format, W.HBox(list(self.flags.values())[:4]),
                       W.HBox(list(self.flags.values())[4:]),
                       W.HBox([self.max_children, self.max_depth])])
        left = W.VBox([self.search, self.file], layout=C.layout(flex="0 0 340px", width="340px"))
        right = W.VBox([opts, self.badge, self.outline_view, self.symbol, self.region_view],
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
            max_children=self.max_children.value or None,
            max_depth=self.max_depth.value or None,
            **{k: cb.value for k, cb in self.flags.items()})

    @property
    def path(self) -> str | None:
        return self.file.value

    @property
    def text(self) -> str:
        """The outline text as the agent receives it."""
        return self.response.text if self.response is not None else ""

    def whole_file_tokens(self, path: str) -> int:
        from ..views.source import file_info, read_text
        info = file_info(C.con_of(self.wb), path)
        lines = read_text(C.root_of(self.wb), info).lines
        text = "\n".join(lines) + ("\n" if lines else "")      # as strategies.whole_file counts it
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
            hits = {r[0] for r in store.run(C.con_of(self.wb),
                    "SELECT DISTINCT path FROM symbols WHERE kind <> 'module' AND "
                    "(name ILIKE ? OR qualname ILIKE ?)", [f"%{q}%", f"%{q}%"])}
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
        syms = store.run(C.con_of(self.wb),
                         "SELECT symbol_id, kind, qualname, start_line, end_line FROM symbols "
                         "WHERE path = ? AND kind <> 'module' ORDER BY start_line, symbol_id", [path])
        current = self.symbol.value
        self.symbol.options = [("(choose a symbol to read its region)", 0)] + [
            (f"{k} {q} [{a}-{b}]", sid) for sid, k, q, a, b in syms]
        self.symbol.value = current if current in {s[0] for s in syms} else 0

    def show_region(self, symbol_id):
        if not symbol_id:
            self.region = None
            self.region_view.value = ""
            return
        from .. import views as tools
        path, start, end = store.one(C.con_of(self.wb),
                                     "SELECT path, start_line, end_line FROM symbols WHERE symbol_id = ?",
                                     [symbol_id])
        self.region = tools.call(self.wb, "read_region",
                                 {"path": path, "start_line": start, "end_line": end}, rules=self.rules)
        self.region_view.value = (
            f"<span class='wb-badge'>read_region({path!r}, {start}, {end}): "
            f"<b>{self.region.tokens:,}</b> tokens</span>" + C.pre(self.region.text, "wb-region"))
