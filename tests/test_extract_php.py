"""PHP extraction: the generic rule plus workbench/languages/php.scm (constants, class
constants, properties), on a snippet in the shapes of a real Markdown library."""
from __future__ import annotations

from extract_expect import snippet

SOURCE = """\
<?php
namespace Md\\Table;

const MAX_DEPTH = 16;
define('MD_VERSION', '2.3');

final class TableCell
{
    public const ALIGN_LEFT = 'left', ALIGN_RIGHT = 'right';
    private ?string $align = null;
    protected static $count, $seen;

    public function __construct(private int $span = 1)
    {
        $local = self::ALIGN_LEFT;
    }
}
"""


def test_constants_and_properties():
    ex = snippet("src/TableCell.php", SOURCE, "php")
    rows = [(s["kind"], s["qualname"].removeprefix("src.TableCell."), s["start_line"])
            for s in ex.symbols[1:]]
    assert rows == [
        ("namespace", "Md\\Table", 2),
        ("constant", "MAX_DEPTH", 4),
        ("constant", "MD_VERSION", 5),
        ("class", "TableCell", 7),
        ("constant", "TableCell.ALIGN_LEFT", 9), ("constant", "TableCell.ALIGN_RIGHT", 9),
        ("field", "TableCell.align", 10),
        ("field", "TableCell.count", 11), ("field", "TableCell.seen", 11),
        ("method", "TableCell.__construct", 13),      # its local `$local` is no symbol
    ]
