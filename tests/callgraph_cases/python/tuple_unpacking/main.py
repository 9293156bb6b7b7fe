def f():
    pass


def g():
    pass


a, b = f, g
a()
b()
