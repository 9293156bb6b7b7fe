from ..util import tool


def go():
    tool()
