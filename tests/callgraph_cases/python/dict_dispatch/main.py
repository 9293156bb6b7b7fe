def add(a, b):
    return a + b


def sub(a, b):
    return a - b


OPS = {"+": add, "-": sub}


def calc(op, a, b):
    return OPS[op](a, b)


calc("+", 1, 2)
