def make():
    return lambda: work()


def work():
    pass


make()()
