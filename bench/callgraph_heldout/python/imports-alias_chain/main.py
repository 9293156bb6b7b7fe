# rich's `from .console import Console as _Console`-style aliases, `import x.y as z`, and a
# name re-exported under another name through a middle module (click's `from .core import`)
import tools.fmt as fmt
from tools import render as draw
from tools.mid import shout as yell

fmt.pad("a")
draw("b")
yell("c")
