"""A module-level instance made on first use by a function declaring it `global`."""

_db = None


class Registry:
    def __init__(self):
        self.types = {}

    def add(self, suffix, kind):
        self.types[suffix] = kind

    def guess(self, name):
        return self.types.get(name.rpartition(".")[2])


def init():
    global _db
    db = Registry()
    db.add("txt", "text/plain")
    _db = db


def guess(name):
    if _db is None:
        init()
    return _db.guess(name)


def add(suffix, kind):
    if _db is None:
        init()
    _db.add(suffix, kind)
