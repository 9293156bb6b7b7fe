# Written from ipaddress and uuid (a class with __str__ and __repr__) and from enum's
# members shown with repr(): str() runs __str__, falling back to __repr__ when the class
# has no __str__ of its own (object.__str__ calls it); repr() runs __repr__; len(), bool()
# and hash() run __len__, __bool__ and __hash__.
class UUID:
    def __init__(self, hex):
        self.hex = hex

    def __str__(self):
        return self.hex

    def __repr__(self):
        return "UUID(%r)" % str(self)

    def __hash__(self):
        return hash(self.hex)


class Flag:
    def __init__(self, name):
        self.name = name

    def __repr__(self):
        return "<Flag %s>" % self.name


class Bits:
    def __init__(self, n):
        self.n = n

    def __len__(self):
        return self.n

    def __bool__(self):
        return self.n > 0


def show():
    u = UUID("12ab")
    f = Flag("READ")
    b = Bits(3)
    return str(u), repr(u), str(f), hash(u), len(b), bool(b)


show()
