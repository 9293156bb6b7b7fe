# json.decoder.JSONDecodeError(msg, doc, pos) computing fields in __init__, and
# requests.exceptions.RequestException popping its own keyword before super().__init__
class DecodeError(ValueError):
    def __init__(self, msg, doc, pos):
        lineno = doc.count("\n", 0, pos) + 1
        super().__init__(f"{msg}: line {lineno}")
        self.pos = pos


class RequestError(IOError):
    def __init__(self, *args, **kwargs):
        self.response = kwargs.pop("response", None)
        super().__init__(*args, **kwargs)

    def status(self):
        return describe(self.response)


def describe(r):
    return str(r)


def decode(doc):
    if not doc.startswith("{"):
        raise DecodeError("Expecting object", doc, 0)
    return {}


def fetch():
    try:
        decode("x")
    except DecodeError as exc:
        raise RequestError("bad body", response=exc.pos) from exc


try:
    fetch()
except RequestError as e:
    e.status()
