"""A package gathering its submodules' names, one platform's implementation chosen at import."""
import sys

from .events import *
from .base import *

if sys.platform == "win32":
    from .windows import *
else:
    from .posix import *
