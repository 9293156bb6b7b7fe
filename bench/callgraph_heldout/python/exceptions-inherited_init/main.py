# email.errors.MessageDefect(ValueError) with an __init__, and its many `pass` subclasses,
# instantiated in raise; the __init__ that runs is the base's
class ClientError(Exception):
    def __init__(self, message, code=0):
        super().__init__(message)
        self.code = code


class NotFound(ClientError):
    pass


class Gone(NotFound):
    def explain(self):
        return "gone: " + str(self.code)


def lookup(key):
    if key == "old":
        raise Gone("old resource", 410)
    raise NotFound(key)


def handle(key):
    try:
        lookup(key)
    except Gone as g:
        return g.explain()
    except NotFound:
        return None


handle("old")
handle("new")
