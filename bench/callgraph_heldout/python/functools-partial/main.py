# functools.partial as asyncio uses it (runners: partial(self._on_sigint, main_task=task);
# selector_events: a partial handed on as a callback): stored, passed around, called later
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
