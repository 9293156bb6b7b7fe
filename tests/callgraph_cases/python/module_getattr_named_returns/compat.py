"""Deprecated names served by the module's `__getattr__` (PEP 562)."""
import warnings

from helpers import Helper as _Helper


class _Quoter:
    def __init__(self, safe):
        self.safe = safe

    def quote(self, text):
        return "".join(c if c.isalnum() or c in self.safe else f"%{ord(c):02X}" for c in text)


def quote(text, safe="/"):
    return _Quoter(safe).quote(text)


def __getattr__(name):
    if name == "Quoter":
        warnings.warn("compat.Quoter is deprecated", DeprecationWarning, stacklevel=2)
        return _Quoter
    elif name == "OldHelper":
        return _Helper
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
