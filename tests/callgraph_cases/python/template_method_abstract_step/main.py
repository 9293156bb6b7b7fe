# After the standard library's `logging`: `Handler.handle` calls `self.emit(record)`,
# and `Handler.emit` only raises `NotImplementedError(...)`; `StreamHandler` and
# `FileHandler` (a subclass of it) override `emit`, `NullHandler.emit` does nothing.
# And `importlib.abc`'s style: a method marked `@abstractmethod` that the base's
# concrete method calls.
from abc import ABC, abstractmethod


class Handler:
    def handle(self, record):
        rv = self.filter(record)
        if rv:
            self.emit(record)
        return rv

    def filter(self, record):
        return bool(record)

    def emit(self, record):
        raise NotImplementedError("emit must be implemented by Handler subclasses")


class StreamHandler(Handler):
    def __init__(self):
        self.lines = []

    def emit(self, record):
        self.lines.append(self.format(record))

    def format(self, record):
        return str(record)


class FileHandler(StreamHandler):
    def emit(self, record):
        StreamHandler.emit(self, record)


class NullHandler(Handler):
    def emit(self, record):
        pass


class Loader(ABC):
    def load_module(self, name):
        return self.get_source(name).strip()

    @abstractmethod
    def get_source(self, name):
        raise ImportError


class StringLoader(Loader):
    def get_source(self, name):
        return " " + name + " "


StreamHandler().handle("a")
FileHandler().handle("b")
NullHandler().handle("c")
StringLoader().load_module("m")
