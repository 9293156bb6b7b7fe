# Written from the dataclasses module (its generated __init__ calls each field's
# default_factory and then __post_init__, when the class defines one), as dataclasses
# are used in the standard library (`tomllib`, `importlib.metadata`): the call that makes
# the instance is the caller of both.
import dataclasses
from dataclasses import dataclass, field


def new_history():
    return []


@dataclass
class Record:
    name: str
    history: list = field(default_factory=new_history)
    key: str = ""

    def __post_init__(self):
        self.key = normalize(self.name)


@dataclasses.dataclass(frozen=True)
class Point:
    x: int
    y: int


class Plain:
    def __post_init__(self):
        normalize("never called")


def normalize(s):
    return s.strip().lower()


def make():
    r = Record(" Name ")
    p = Point(1, 2)
    q = Plain()
    return r, p, q


make()
