# abc.ABC with @abstractmethod, as collections.abc and importlib.abc define interfaces; the
# base's concrete method calls the abstract one, which a subclass implements
from abc import ABC, abstractmethod


class Loader(ABC):
    def load(self, name):
        return self.decode(self.read(name))

    @abstractmethod
    def read(self, name):
        ...

    def decode(self, data):
        return data.strip()


class FileLoader(Loader):
    def read(self, name):
        return " " + name + " "


FileLoader().load("x")
