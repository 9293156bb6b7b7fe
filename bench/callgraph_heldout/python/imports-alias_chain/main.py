# rich.console's `from .markup import render as render_markup`, `import x.y as z`, and a
# name re-exported under another name through a middle module (click's `from .core import`)
import tools.fmt as fmt
from tools import render as draw
from tools.mid import shout as yell

fmt.pad("a")
draw("b")
yell("c")
