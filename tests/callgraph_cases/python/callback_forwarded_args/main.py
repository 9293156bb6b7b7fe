class Handle:
    def __init__(self, callback, args):
        self._callback = callback
        self._args = args

    def _run(self):
        self._callback(*self._args)


class Loop:
    def __init__(self):
        self._ready = []

    def call_soon(self, callback, *args):
        handle = Handle(callback, args)
        self._ready.append(handle)
        return handle

    def run_once(self):
        ntodo = len(self._ready)
        for _ in range(ntodo):
            handle = self._ready.pop(0)
            handle._run()


def greet(name):
    print("hello", name)


loop = Loop()
loop.call_soon(greet, "world")
loop.run_once()
