# json.encoder's _iterencode_list / _iterencode_dict calling each other; ast-style visitors
def encode(o):
    if isinstance(o, list):
        return encode_list(o)
    if isinstance(o, dict):
        return encode_dict(o)
    return repr(o)


def encode_list(items):
    return "[" + ",".join(encode(i) for i in items) + "]"


def encode_dict(d):
    return "{" + ",".join(k + ":" + encode(v) for k, v in d.items()) + "}"


def depth(n):
    return 0 if n == 0 else 1 + depth(n - 1)


encode({"a": [1, {"b": 2}]})
depth(3)
