# rich.console.Console.width (a property with a setter), and flask.sansio.app.App.name, a
# cached_property (werkzeug's there, functools.cached_property here)
import functools


class Console:
    def __init__(self):
        self._width = None

    @property
    def width(self):
        if self._width is None:
            return detect_width()
        return self._width

    @width.setter
    def width(self, value):
        self._width = clamp(value)

    @functools.cached_property
    def encoding(self):
        return detect_encoding()


def detect_width():
    return 80


def detect_encoding():
    return "utf-8"


def clamp(v):
    return max(1, v)


c = Console()
w = c.width
c.width = 100
e = c.encoding
