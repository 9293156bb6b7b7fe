class Reader:
    def read(self):
        return b""


class Connection:
    def __init__(self):
        self.reader = Reader()


class Session:
    def __init__(self, conn):
        self.conn = conn
        self._read = conn.reader.read


def fetch(session):
    conn = session.conn
    reader = conn.reader
    source = reader
    data = source.read()
    again = session._read
    return data + again()


fetch(Session(Connection()))
