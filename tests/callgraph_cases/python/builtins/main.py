def describe(xs):
    print(len(xs), max(xs))
    return isinstance(xs, list)


describe([3, 1])
