# everyday builtins in the style of textwrap / argparse helpers
def describe(items):
    if not isinstance(items, (list, tuple)):
        items = list(items)
    width = max(len(str(i)) for i in items)
    lines = []
    for n, item in enumerate(sorted(items)):
        lines.append(f"{n}: {str(item).rjust(width)}")
    return "\n".join(lines)


def summarize(data):
    total = sum(data.values())
    keys = sorted(data, key=data.get)
    pairs = dict(zip(keys, range(len(keys))))
    return total, pairs, repr(min(data.values())), hasattr(data, "items")


describe({3, 1, 2})
summarize({"a": 2, "b": 1})
print(abs(-1))
