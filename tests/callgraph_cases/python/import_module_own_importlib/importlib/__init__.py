"""A pure Python implementation of import."""
import sys

try:
    import _frozen_importlib as _bootstrap
except ImportError:
    from . import _bootstrap
    _bootstrap._setup(sys)
else:
    # the built-in import is importlib._bootstrap: no second copy of the module
    _bootstrap.__name__ = "importlib._bootstrap"
    _bootstrap.__package__ = "importlib"
    sys.modules["importlib._bootstrap"] = _bootstrap


def import_module(name, package=None):
    """Import a module. The 'package' argument is required when performing a relative
    import: it specifies the package to use as the anchor point."""
    level = 0
    if name.startswith("."):
        if not package:
            raise TypeError("the 'package' argument is required to perform a relative "
                            "import for {!r}".format(name))
        for character in name:
            if character != ".":
                break
            level += 1
    return _bootstrap._gcd_import(name[level:], package, level)
