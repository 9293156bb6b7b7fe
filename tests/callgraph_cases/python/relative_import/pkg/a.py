from .b import helper


def run():
    helper()
