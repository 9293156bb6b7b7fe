# json/__init__.py keeps module-level defaults (_default_encoder); os.path modules bind
# names to other names; tuple unpacking swaps two callables
def encode(value):
    return str(value)


def decode(text):
    return int(text)


_default_encode = encode
dump = _default_encode
load = decode

first, second = decode, encode
first, second = second, first


def roundtrip(v):
    return load(dump(v))


def swapped(v):
    return first(v), second("7")


roundtrip(3)
swapped(4)
