# After the standard library's `dataclasses.dataclass(cls=None, /, *, init=True, ...)`: one
# decorator used bare (`@dataclass`, the class is its argument) and with arguments
# (`@dataclass(frozen=True)`, which returns the inner `wrap` to apply). `wrap` is returned
# as it is when the first argument is None, and called on it otherwise; either way the
# decorated definition comes back as it was written.


def checked(func=None, *, strict=False):
    def wrap(func):
        note(func.__name__, strict)
        return func

    if func is None:
        return wrap
    return wrap(func)


def note(name, strict):
    return (name, strict)


@checked
def parse(text):
    return text.split()


@checked(strict=True)
def render(words):
    return " ".join(words)


def main():
    return render(parse("a b"))


main()
