def func():
    pass


def other():
    pass


def _private():
    pass
