# After the standard library's `encodings.search_function`, which imports
# `"encodings." + modname` and calls its `getregentry()`: `importlib.import_module` of a
# literal name, of a name relative to a literal package, and of a literal prefix followed
# by a name known only at run time (each module directly under the prefix).
import importlib
from importlib import import_module


def search(modname):
    module = importlib.import_module("codecs_pkg." + modname)
    return module.getregentry()


def search_formatted(modname):
    return importlib.import_module(f"codecs_pkg.{modname}").getregentry()


def default_entry():
    return import_module("codecs_pkg.utf_x").getregentry()


def relative_entry():
    return import_module(".latin_x", "codecs_pkg").getregentry()


search("utf_x")
search_formatted("latin_x")
default_entry()
relative_entry()
