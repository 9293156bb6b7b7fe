class Tree:
    def __init__(self, children):
        self.children = children

    def size(self):
        return 1 + sum(c.size() for c in self.children)


Tree([]).size()
