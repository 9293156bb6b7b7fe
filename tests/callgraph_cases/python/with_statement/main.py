class Session:
    def __enter__(self):
        return self

    def __exit__(self, *exc):
        return False

    def query(self):
        pass


def use():
    with Session() as s:
        s.query()


use()
