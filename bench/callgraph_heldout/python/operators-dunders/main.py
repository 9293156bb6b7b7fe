# pathlib.PurePath.__truediv__ / fractions.Fraction.__add__ / collections.abc.Sequence:
# operators, len(), indexing, iteration and comparisons run the class's dunder methods
class Path:
    def __init__(self, *parts):
        self.parts = list(parts)

    def __truediv__(self, other):
        return Path(*self.parts, other)

    def __eq__(self, other):
        return self.parts == other.parts

    def __len__(self):
        return len(self.parts)

    def __getitem__(self, i):
        return self.parts[i]

    def __iter__(self):
        return iter(self.parts)

    def __str__(self):
        return "/".join(self.parts)


def main():
    p = Path("usr") / "lib"
    same = p == Path("usr", "lib")
    n = len(p)
    first = p[0]
    names = [part for part in p]
    return same, n, first, names, str(p)


main()
