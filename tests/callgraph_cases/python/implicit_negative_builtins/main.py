# Operators on values that are not instances of the repository's classes run no method of
# the repository: ints and strings (though a class here defines __add__ and __eq__), a
# subclass of dict that overrides nothing (dict's own __getitem__ runs), `with` on a file
# object, and a class that defines __getitem__ but whose instance never reaches the
# subscript (the operand is a parameter nobody passes it to).
class Money:
    def __init__(self, cents):
        self.cents = cents

    def __add__(self, other):
        return Money(self.cents + other.cents)

    def __eq__(self, other):
        return self.cents == other.cents


class Registry(dict):
    def describe(self):
        return sorted(self)


class Table:
    def __getitem__(self, key):
        return key


def count(items, n):
    total = n + 1
    label = "items: " + str(total)
    same = label == "items: 2"
    return total, label, same, items[0]


def main():
    r = Registry()
    r["a"] = 1
    value = r["a"]
    with open(__file__) as fh:
        head = fh.read(10)
    return count(["x"], 1), value, head, r.describe(), Table


main()
