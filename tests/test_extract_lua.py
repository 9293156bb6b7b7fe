"""Lua extraction: the generic rule plus workbench/languages/lua.scm (functions written as
values), on a snippet in the shapes of a real utility library."""
from __future__ import annotations

from extract_expect import snippet

SOURCE = """\
local path = {}

function  path.normcase(p) return p end
path.currentdir = function()
  return '.'
end
local is_windows = function() return false end
local DataMT = {
  column_names = function(self) return self._names end,
  __index = function(t, k) return rawget(t, k) end,
  size = 3,
}

function path.common_prefix(a, b)
  local compare = function(v) return v:lower() end
  opts.sort = function(x, y) return x < y end
  return compare(a)
end

return path
"""


def test_functions_written_as_values():
    ex = snippet("pl/path.lua", SOURCE, "lua")
    rows = [(s["kind"], s["qualname"].removeprefix("pl.path."), s["start_line"], s["end_line"])
            for s in ex.symbols[1:]]
    assert rows == [
        ("function", "path.normcase", 3, 3),
        ("function", "path.currentdir", 4, 6),
        ("function", "is_windows", 7, 7),
        ("function", "column_names", 9, 9),       # a plain value (`size = 3`) is no symbol
        ("function", "__index", 10, 10),
        ("function", "path.common_prefix", 14, 18),
        ("function", "path.common_prefix.compare", 15, 15),
        ("function", "path.common_prefix.opts.sort", 16, 16),
    ]
