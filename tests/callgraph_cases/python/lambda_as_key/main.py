def weight(item):
    return len(item)


def order(items):
    return sorted(items, key=lambda i: weight(i))


order(["a", "bb"])
