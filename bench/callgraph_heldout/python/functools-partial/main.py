# functools.partial as used by click (partial(self.invoke, ...)) and asyncio
# (loop.call_soon(partial(...))): a partial stored, passed around, and called later
from functools import partial


def send(host, port, message):
    return format_line(host, port) + message


def format_line(host, port):
    return f"{host}:{port} "


class Client:
    def __init__(self, host):
        self.send = partial(send, host, 80)

    def post(self, message):
        return self.send(message)


def run_later(callback):
    return callback()


local = partial(send, "localhost")
local(8080, "a")
Client("example").post("b")
run_later(partial(send, "x", 1, "c"))
