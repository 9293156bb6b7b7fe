"""Core implementation of import (frozen into the interpreter as _frozen_importlib)."""
_sys = None


def _setup(sys_module):
    """Set up the module from the sys module handed in."""
    global _sys
    _sys = sys_module


def _resolve_name(name, package, level):
    """Resolve a relative module name to an absolute one."""
    bits = package.rsplit(".", level - 1)
    base = bits[0]
    return "{}.{}".format(base, name) if name else base


def _find_and_load(name):
    __import__(name)
    return _sys.modules[name]


def _gcd_import(name, package=None, level=0):
    """Import and return the module based on its name, the package the call is being
    made from, and the level adjustment."""
    if level > 0:
        name = _resolve_name(name, package, level)
    return _find_and_load(name)
