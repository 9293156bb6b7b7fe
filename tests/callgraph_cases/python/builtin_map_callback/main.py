def inc(x):
    return x + 1


list(map(inc, [1, 2]))
