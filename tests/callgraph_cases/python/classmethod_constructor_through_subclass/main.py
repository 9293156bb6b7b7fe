# After the standard library's `datetime` (its Python version): `date.fromordinal` is a
# classmethod that builds `cls(y, m, d)`. A subclass inherits it, so
# `MyDate.fromordinal(n)` runs `MyDate.__init__` inside `date.fromordinal`, and what it
# returns is a `MyDate`, whose own `isoformat` runs.


def _ord2ymd(n):
    return 2000 + n // 365, 1, 1


class date:
    def __init__(self, year, month=1, day=1):
        self.year, self.month, self.day = year, month, day

    @classmethod
    def fromordinal(cls, n):
        y, m, d = _ord2ymd(n)
        return cls(y, m, d)

    def isoformat(self):
        return "%04d-%02d-%02d" % (self.year, self.month, self.day)


class MyDate(date):
    def __init__(self, year, month=1, day=1):
        super().__init__(year, month, day)
        self.label = "mine"

    def isoformat(self):
        return self.label + " " + super().isoformat()


ordinal = 730
MyDate.fromordinal(ordinal).isoformat()
date.fromordinal(ordinal).isoformat()
