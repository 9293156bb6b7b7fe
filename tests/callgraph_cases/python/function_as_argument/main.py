def apply(fn, value):
    return fn(value)


def square(x):
    return x * x


apply(square, 3)
