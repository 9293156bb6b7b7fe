# A parser keeping a converter given or a default one written in place
# (`self.convert = convert or (lambda grammar, node: node)`), and a sort key chosen by a
# condition with the lambda on either side.
def strip_node(node):
    return node.strip()


def plain(node):
    return node


class Parser:
    def __init__(self, convert=None):
        self.convert = convert or (lambda node: plain(node))
        self.fallback = (lambda node: plain(node))

    def feed(self, node):
        return self.convert(node), self.fallback(node)


def order(items, reverse):
    key = (lambda item: strip_node(item)) if reverse else len
    other = len if reverse else lambda item: plain(item)
    return sorted(items, key=key), other(items)


Parser().feed(" a ")
Parser(strip_node).feed(" b ")
order(["x"], True)
