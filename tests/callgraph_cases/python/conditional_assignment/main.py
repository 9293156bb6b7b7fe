def a():
    pass


def b():
    pass


def pick(flag):
    handler = a if flag else b
    handler()


pick(True)
