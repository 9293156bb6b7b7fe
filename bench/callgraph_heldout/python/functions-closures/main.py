# functools.lru_cache's decorating_function / string.Template.substitute's convert(): nested
# functions called in their parent, and closures returned and called by the caller
def make_counter(start):
    count = start

    def step():
        nonlocal count
        count = bump(count)
        return count

    def reset():
        nonlocal count
        count = start

    step()
    return step, reset


def bump(n):
    return n + 1


def outer():
    def inner(x):
        def innermost(y):
            return bump(y)
        return innermost(x)
    return inner(1)


step, reset = make_counter(0)
step()
reset()
outer()
