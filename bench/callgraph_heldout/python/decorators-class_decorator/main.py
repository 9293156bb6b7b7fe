# functools.total_ordering / attrs' @attr.s: a decorator that takes a class, adds to it and
# returns it; the decorated class is then used as usual
def with_repr(cls):
    def __repr__(self):
        return cls.__name__ + "(" + self.describe() + ")"
    cls.__repr__ = __repr__
    return cls


def register(cls):
    REGISTRY[cls.__name__] = cls
    return cls


REGISTRY = {}


@register
@with_repr
class Point:
    def __init__(self, x):
        self.x = x

    def describe(self):
        return str(self.x)


def build(name):
    return REGISTRY[name](1)


p = build("Point")
text = repr(p)
