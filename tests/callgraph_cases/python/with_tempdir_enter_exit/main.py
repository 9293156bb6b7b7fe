# Written from tempfile.TemporaryDirectory (__enter__ returns the name, __exit__ runs
# cleanup) and threading.Condition (a bare `with self._lock:` on a lock object of the
# module): each `with` runs __enter__ and __exit__ of the item's class.
class TemporaryDirectory:
    def __init__(self, prefix="tmp"):
        self.name = make_dir(prefix)

    def __enter__(self):
        return self.name

    def __exit__(self, exc, value, tb):
        self.cleanup()

    def cleanup(self):
        remove_dir(self.name)


class RLock:
    def __enter__(self):
        return self.acquire()

    def __exit__(self, *args):
        self.release()

    def acquire(self):
        return True

    def release(self):
        pass


class Condition:
    def __init__(self):
        self._lock = RLock()
        self._waiters = []

    def notify(self):
        with self._lock:
            return list(self._waiters)


def make_dir(prefix):
    return prefix + "123"


def remove_dir(name):
    return name


def run():
    with TemporaryDirectory(prefix="build") as tmp:
        Condition().notify()
        return tmp.upper()


run()
