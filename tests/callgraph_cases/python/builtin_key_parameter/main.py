def nsmallest(n, iterable, key=None):
    if n == 1:
        it = iter(iterable)
        sentinel = object()
        result = min(it, default=sentinel, key=key)
        return [] if result is sentinel else [result]
    return sorted(iterable, key=key)[:n]


def priority(task):
    return task[0]


nsmallest(1, [(2, "b"), (1, "a")], key=priority)
nsmallest(2, [(2, "b"), (1, "a")], key=priority)
