# contextlib.ExitStack / atexit: callbacks pushed on a list (with their arguments) and
# popped off last-in first-out; a list built with a literal and indexed
class ExitStack:
    def __init__(self):
        self._exit_callbacks = []

    def callback(self, fn, *args):
        self._exit_callbacks.append((fn, args))
        return fn

    def close(self):
        while self._exit_callbacks:
            fn, args = self._exit_callbacks.pop()
            fn(*args)


def release(name):
    return name


def flush():
    return "flushed"


def first_and_last():
    steps = [flush, release]
    steps[0]()
    return steps[-1]("x")


stack = ExitStack()
stack.callback(release, "lock")
stack.callback(flush)
stack.close()
first_and_last()
