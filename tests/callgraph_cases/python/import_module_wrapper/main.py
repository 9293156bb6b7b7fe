# After the standard library's tests, which load the module under test through
# `test.support.import_helper.import_module("ssl")` (a SkipTest when it is missing) or
# `warnings_helper.import_deprecated("asyncore")`: functions handing their parameter on to
# `importlib.import_module` and returning what it returns. Called with a literal, such a
# function gives that module: a module of the repository, or an outside one (`zlib`).
from support import import_helper
from support.import_helper import import_deprecated

codec = import_helper.import_module("codecs_pkg.utf_x")
zlib = import_helper.import_module("zlib")


def check_codec():
    return codec.getregentry()


def check_checksum():
    return zlib.crc32(b"data")


def check_legacy():
    legacy = import_deprecated(name="codecs_pkg.legacy_x")
    return legacy.getregentry()


def check_fresh():
    fresh = import_helper.import_fresh_module("codecs_pkg.utf_x", fresh=["codecs_pkg.legacy_x"])
    return fresh.getregentry()


check_codec()
check_checksum()
check_legacy()
check_fresh()
