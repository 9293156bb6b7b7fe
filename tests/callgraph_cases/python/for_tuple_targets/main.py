# Written from asyncio.base_subprocess.BaseSubprocessTransport: calls made before the
# transport is connected are kept as (callback, args) pairs in a deque (`_call`), and run
# once it is (`_connect_pipes`: `for callback, data in self._pending_calls: ...`).
import collections


class Protocol:
    def connection_made(self, transport):
        self.transport = transport

    def pipe_data_received(self, fd, data):
        return fd, data


class Transport:
    def __init__(self, protocol):
        self._protocol = protocol
        self._pending_calls = collections.deque()

    def _call(self, cb, *data):
        if self._pending_calls is not None:
            self._pending_calls.append((cb, data))
        else:
            cb(*data)

    def _pipe_data_received(self, fd, data):
        self._call(self._protocol.pipe_data_received, fd, data)

    def _connect(self):
        self._protocol.connection_made(self)
        for callback, data in self._pending_calls:
            callback(*data)
        self._pending_calls = None


def main():
    t = Transport(Protocol())
    t._pipe_data_received(1, b"x")
    t._connect()
    t._pipe_data_received(2, b"y")


main()
