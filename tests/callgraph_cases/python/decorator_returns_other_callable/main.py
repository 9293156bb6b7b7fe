class _GeneratorContextManager:
    def __init__(self, func, args, kwds):
        self.gen = func(*args, **kwds)

    def __enter__(self):
        return next(self.gen)

    def __exit__(self, typ, value, traceback):
        return False


def contextmanager(func):
    def helper(*args, **kwds):
        return _GeneratorContextManager(func, args, kwds)
    return helper


@contextmanager
def opened(path):
    yield path


def show():
    with opened("f") as name:
        print(name)


show()
