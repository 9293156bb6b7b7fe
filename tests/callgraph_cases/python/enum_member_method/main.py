# Members of an enum are instances of it: written from the standard library's
# inspect._ParameterKind (an IntEnum whose members carry a description) and http.HTTPStatus.
import enum
from enum import IntEnum


class Kind(IntEnum):
    POSITIONAL_ONLY = 0
    POSITIONAL_OR_KEYWORD = 1
    KEYWORD_ONLY = 3

    def describe(self):
        return _DESCRIPTIONS[self]


_DESCRIPTIONS = {
    Kind.POSITIONAL_ONLY: "positional-only",
    Kind.POSITIONAL_OR_KEYWORD: "positional or keyword",
    Kind.KEYWORD_ONLY: "keyword-only",
}


class Color(enum.Enum):
    RED = "r"
    GREEN = "g"

    def label(self):
        return "color " + self.value


class Parameter:
    def __init__(self, name, kind=Kind.POSITIONAL_OR_KEYWORD):
        self.name = name
        self.kind = kind

    def render(self):
        return self.name + ": " + self.kind.describe()


print(Kind.KEYWORD_ONLY.describe())
print(Parameter("x", Kind.KEYWORD_ONLY).render())
print(Color.RED.label())
