# The repository holds `importlib` itself, as the standard library does: its
# `import_module` returns `_bootstrap._gcd_import(...)`, `_bootstrap` being
# `_frozen_importlib` or, when that cannot be imported, its own `importlib._bootstrap`.
# A call of it is read as a call of the outside `importlib.import_module`: a literal
# name gives that module (the repository's, or an outside one such as `zlib`), also
# through a function handing its parameter on (`import_helper.import_module`, as the
# standard library's tests load the module under test); a name known only at run time
# gives nothing, not what `_gcd_import` returns. (When this runs, the interpreter's own
# importlib, already imported, is the one called: the same body.)
import importlib
from importlib import import_module

from support import import_helper


def default_entry():
    return import_module("codecs_pkg.utf_x").getregentry()


def relative_entry():
    return importlib.import_module(".latin_x", package="codecs_pkg").getregentry()


def search(modname):
    return importlib.import_module("codecs_pkg." + modname).getregentry()


def checked_entry():
    return import_helper.import_module("codecs_pkg.latin_x").getregentry()


def checksum():
    zlib = importlib.import_module("zlib")
    return zlib.crc32(b"data")


def load(name):
    return importlib.import_module(name).getregentry()


default_entry()
relative_entry()
search("latin_x")
search("utf_x")
checked_entry()
checksum()
load("codecs_pkg.utf_x")
