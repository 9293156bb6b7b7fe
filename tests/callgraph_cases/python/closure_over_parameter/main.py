def outer(fn):
    def inner():
        fn()
    return inner


def target():
    pass


outer(target)()
