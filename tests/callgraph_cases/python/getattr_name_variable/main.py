# After the standard library's `ast.NodeVisitor.visit`: the method name is built into a
# local variable first (`method = "visit_" + node.__class__.__name__`) and looked up with
# a default (`getattr(self, method, self.generic_visit)`); the `visit_*` methods are the
# subclass's. And `platform._Processor.get`: an f-string prefix on the class, with a
# classmethod as the default.
import sys


class NodeVisitor:
    def visit(self, node):
        method = "visit_" + node.__class__.__name__
        visitor = getattr(self, method, self.generic_visit)
        return visitor(node)

    def generic_visit(self, node):
        for item in getattr(node, "items", ()):
            self.visit(item)


class Node:
    def __init__(self, *items):
        self.items = items


class Name:
    pass


class NameCounter(NodeVisitor):
    def __init__(self):
        self.count = 0

    def visit_Name(self, node):
        self.count += 1


class Processor:
    @classmethod
    def get(cls, platform=sys.platform):
        func = getattr(cls, f"get_{platform}", cls.from_uname)
        return func()

    @staticmethod
    def get_win32():
        return "x86"

    @classmethod
    def from_uname(cls):
        return "unknown"


counter = NameCounter()
counter.visit(Node(Name(), Node(Name())))
Processor.get("win32")
Processor.get("linux")
