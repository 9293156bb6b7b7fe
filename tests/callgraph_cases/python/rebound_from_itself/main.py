# Written from werkzeug.wsgi.ClosingIterator (callbacks given as one callable or a list of
# them: `callbacks = [callbacks]` / `callbacks = list(callbacks)`, then each called on
# close) and from a parameter copied into a set of itself (`fs = set(fs)`, as
# `typing`'s and `collections`' helpers do): a name rebound from its own value is built
# from what the name held before, the arguments of the parameter among them, not from
# itself.


class ClosingIterator:
    def __init__(self, iterable, callbacks=None):
        self._iter = iter(iterable)
        if callbacks is None:
            callbacks = []
        elif callable(callbacks):
            callbacks = [callbacks]
        else:
            callbacks = list(callbacks)
        self._callbacks = callbacks

    def close(self):
        for callback in self._callbacks:
            callback()


def release_lock():
    return "released"


def log_done():
    return "logged"


def flush():
    return "flushed"


def run_once(hooks):
    hooks = set(hooks)
    for hook in sorted(hooks, key=lambda h: h.__name__):
        hook()


def main():
    ClosingIterator([b"a"], release_lock).close()
    ClosingIterator([b"b"], [log_done, flush]).close()
    run_once([flush, flush])


main()
