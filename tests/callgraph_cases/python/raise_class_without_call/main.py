# Written from asyncio.queues: `Queue.put_nowait` and `get_nowait` raise `QueueFull` /
# `QueueEmpty` bare (`raise QueueFull`, no call), which Python instantiates; here the errors
# are reached as a module's attribute and one as a class nested in the queue (`raise
# Queue.Closed`, a class attribute), one through a variable bound to the class. `QueueFull`
# gets `QueueError.__init__`; `QueueEmpty` has no `__init__` of its own (the builtin's runs),
# nor has `KeyError` (configparser's `raise KeyError`); an instance raised again (`raise
# exc`, `except ... as e: raise e`) is not instantiated.
import errors


class Queue:
    class Closed(Exception):
        def __init__(self):
            super().__init__("closed")

    def __init__(self, maxsize):
        self._maxsize = maxsize
        self._items = []
        self._closed = False

    def put_nowait(self, item):
        if self._closed:
            raise Queue.Closed
        if len(self._items) >= self._maxsize:
            raise errors.QueueFull
        self._items.append(item)

    def get_nowait(self):
        if not self._items:
            raise errors.QueueEmpty
        return self._items.pop(0)

    def check(self, strict):
        error = errors.QueueFull if strict else errors.QueueError
        if len(self._items) >= self._maxsize:
            raise error

    def lookup(self, key):
        raise KeyError

    def retry(self):
        exc = errors.QueueError("again")
        raise exc

    def put_or_raise(self, item):
        try:
            self.put_nowait(item)
        except errors.QueueFull as e:
            raise e


def main():
    q = Queue(1)
    q.put_nowait(1)
    q.check(True)
    try:
        q.get_nowait()
        q.put_or_raise(2)
        q.lookup("k")
        q.retry()
    except Exception:
        pass


main()
