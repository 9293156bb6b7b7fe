# lambdas passed as keyword arguments: sorted(key=...), collections.defaultdict's factory,
# and a library-style function that calls its key= argument (heapq.nsmallest style)
from collections import defaultdict


def pick_smallest(items, key=None):
    best = None
    for item in items:
        k = key(item) if key else item
        if best is None or k < best[0]:
            best = (k, item)
    return best[1]


def cost(item):
    return item[1]


def main():
    rows = [("a", 3), ("b", 1)]
    by_cost = sorted(rows, key=lambda r: cost(r))
    cheapest = pick_smallest(rows, key=lambda r: cost(r) * 2)
    groups = defaultdict(lambda: make_group())
    groups["x"].append(1)
    return by_cost, cheapest


def make_group():
    return []


main()
