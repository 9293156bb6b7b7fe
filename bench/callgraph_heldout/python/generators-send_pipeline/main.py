# a coroutine-style generator primed with next() and driven with send(), as in
# contextlib's generator context managers and asyncio's older coroutines
def averager():
    total = 0
    n = 0
    avg = None
    while True:
        value = yield avg
        total += value
        n += 1
        avg = ratio(total, n)


def ratio(a, b):
    return a / b


def drive(values):
    gen = averager()
    next(gen)
    result = None
    for v in values:
        result = gen.send(v)
    gen.close()
    return result


drive([1, 2, 3])
