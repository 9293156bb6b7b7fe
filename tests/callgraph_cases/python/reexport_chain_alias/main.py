from pkg import total as t


def report():
    return t([1, 2])


report()
