# threading.Thread(target=..., args=..., kwargs=...): stored in __init__, called in run()
class Thread:
    def __init__(self, target=None, args=(), kwargs=None):
        self._target = target
        self._args = args
        self._kwargs = kwargs or {}

    def run(self):
        if self._target is not None:
            self._target(*self._args, **self._kwargs)

    def start(self):
        self.run()


def work(n, scale=1):
    return compute(n) * scale


def compute(n):
    return n + 1


Thread(target=work, args=(1,), kwargs={"scale": 2}).start()
