# Written from threading.Thread: the constructor keeps `target`, `args` and `kwargs`
# (`self._target = target`), start() calls run(), and run() calls
# `self._target(*self._args, **self._kwargs)`; the targets here are lambdas passed as
# keyword arguments, as in `Thread(target=lambda: ...)`.


class Thread:
    def __init__(self, group=None, target=None, name=None, args=(), kwargs=None):
        self._target = target
        self._name = name
        self._args = args
        self._kwargs = kwargs or {}

    def start(self):
        self.run()

    def run(self):
        try:
            if self._target is not None:
                self._target(*self._args, **self._kwargs)
        finally:
            del self._target, self._args, self._kwargs


def work(n, label=""):
    return label * n


def main():
    Thread(target=lambda: work(2), name="w1").start()
    Thread(name="w2", target=lambda *a, **k: work(*a, **k), args=(3,), kwargs={"label": "x"}).start()


main()
