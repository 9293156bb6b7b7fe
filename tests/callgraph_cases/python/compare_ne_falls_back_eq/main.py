# Written from fractions.Fraction and functools.total_ordering's users: `==` runs __eq__,
# `!=` runs __ne__ where the class defines it and otherwise __eq__ (object.__ne__ inverts
# it), `<` runs __lt__.
class Fraction:
    def __init__(self, n, d=1):
        self.n, self.d = n, d

    def __eq__(self, other):
        return self.n * other.d == other.n * self.d

    def __lt__(self, other):
        return self._richcmp(other) < 0

    def _richcmp(self, other):
        return self.n * other.d - other.n * self.d


class Version:
    def __init__(self, s):
        self.s = s

    def __eq__(self, other):
        return self.s == other.s

    def __ne__(self, other):
        return not self.s == other.s


def not_equal(x, y):
    return x != y


def compare():
    a, b = Fraction(1, 2), Fraction(2, 4)
    equal = a == b
    differ = not_equal(a, b)
    smaller = a < b
    v = Version("1.0")
    changed = v != Version("1.1")
    return equal, differ, smaller, changed


compare()
