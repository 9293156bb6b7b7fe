def func():
    helper()


def helper():
    pass
