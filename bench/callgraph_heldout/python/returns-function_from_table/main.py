# shutil.unpack_archive (`func = _UNPACK_FORMATS[format][1]`) and codecs.lookup (a CodecInfo
# tuple of functions): a function returns another function, or a tuple holding one
def _zip(data):
    return "zip:" + data


def _tar(data):
    return "tar:" + data


def find_unpacker(fmt):
    if fmt == "zip":
        return _zip
    return _tar


def lookup(name):
    return (name, find_unpacker(name), len(name))


def unpack(fmt, data):
    func = find_unpacker(fmt)
    return func(data)


def via_tuple(name):
    _, func, _ = lookup(name)
    return func("t")


unpack("zip", "a")
via_tuple("tar")
