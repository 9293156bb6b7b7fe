# Written from json.loads / json.decoder.JSONDecoder: the decoder keeps its keyword-only
# `object_hook` / `parse_float` (`self.object_hook = object_hook`) and calls them while
# decoding; the options reach it through `**`, as `json.loads` ends with `cls(**kw)`:
# here a dict literal (`**{'strict': 1}` in distutils' check tests) and a dict built with
# `dict(k=v)` (`optdict = dict(...)` then `**optdict` in `calendar.main`).


class Decoder:
    def __init__(self, *, object_hook=None, parse_float=None):
        self.object_hook = object_hook
        self.parse_float = parse_float

    def decode(self, pairs):
        obj = {}
        for k, v in pairs:
            obj[k] = self.parse_float(v) if self.parse_float else v
        if self.object_hook is not None:
            obj = self.object_hook(obj)
        return obj


def as_point(obj):
    return (obj["x"], obj["y"])


def as_decimal(text):
    return round(float(text), 2)


def main():
    a = Decoder(**{"object_hook": as_point}).decode([("x", "1"), ("y", "2")])
    opts = dict(parse_float=as_decimal)
    b = Decoder(**opts).decode([("z", "3.14159")])
    return a, b


main()
