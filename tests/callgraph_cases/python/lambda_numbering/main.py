def a():
    pass


def b():
    pass


first = lambda: a()
second = lambda: b()


def inside():
    third = lambda: a()
    return third()


first()
second()
inside()
