# click.core.Context.scope() / contextlib.contextmanager: a generator turned into a
# context manager; its body runs around the with-block
from contextlib import contextmanager


@contextmanager
def scope(name):
    enter(name)
    try:
        yield name.upper()
    finally:
        leave(name)


def enter(name):
    return name


def leave(name):
    return name


def work():
    with scope("job") as tag:
        return tag


work()
