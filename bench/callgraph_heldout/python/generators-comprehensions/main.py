# calls inside list / dict / set comprehensions and generator expressions passed to sum(),
# any() (inspect, email._encoded_words)
def weight(x):
    return x * 2


def is_big(x):
    return x > 2


def label(x):
    return "n" + str(x)


def numbers(n):
    yield from range(n)


def stats(n):
    total = sum(weight(x) for x in numbers(n))
    names = [label(x) for x in numbers(n) if is_big(x)]
    table = {label(x): weight(x) for x in range(2)}
    kinds = {is_big(x) for x in range(4)}
    return total, names, table, kinds, any(is_big(x) for x in (1, 5))


stats(4)
