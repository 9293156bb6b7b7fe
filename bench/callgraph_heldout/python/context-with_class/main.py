# click.core.Context.__enter__/__exit__ and tempfile.TemporaryDirectory: with-statements on
# a repository class; `with ... as x` binds what __enter__ returns
class Resource:
    def __init__(self, name):
        self.name = name

    def __enter__(self):
        self.open()
        return self

    def __exit__(self, exc_type, exc, tb):
        self.close()
        return False

    def open(self):
        return "open " + self.name

    def close(self):
        return "close " + self.name

    def read(self):
        return self.name


def use():
    with Resource("a") as r:
        return r.read()


use()
