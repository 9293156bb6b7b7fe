# After `heapq.nsmallest(n, iterable, key=None)`, which calls `key(elem)`: callers keep the
# function under a shorter name (`smallest = nsmallest`) and pass the key function through
# a local name (`by = by_priority`), by keyword (`smallest(2, jobs, key=by)`).


def nsmallest(n, iterable, key=None):
    result = [(key(elem), elem) for elem in iterable]
    return result[:n]


def by_priority(job):
    return job


def by_name(job):
    return job


smallest = nsmallest


def first_jobs(jobs):
    by = by_priority
    return smallest(2, jobs, key=by)


def named_jobs(jobs):
    pick = smallest
    return pick(1, jobs, key=by_name)


first_jobs([3, 1, 2])
named_jobs([3, 1, 2])
