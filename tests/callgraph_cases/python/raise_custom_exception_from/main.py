class DecodeError(ValueError):
    def __init__(self, msg, doc, pos):
        errmsg = "%s: char %d" % (msg, pos)
        super().__init__(errmsg)
        self.doc = doc
        self.pos = pos


class StopParse(Exception):
    pass


def scan_once(text, idx):
    try:
        return text[idx]
    except IndexError:
        raise StopParse(idx) from None


def decode(text):
    try:
        return scan_once(text, 0)
    except StopParse as err:
        raise DecodeError("Expecting value", text, err.args[0]) from None


decode("")
