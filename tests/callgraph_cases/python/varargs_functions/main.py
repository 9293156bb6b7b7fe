def call_all(*fns):
    for fn in fns:
        fn()


def a():
    pass


def b():
    pass


call_all(a, b)
