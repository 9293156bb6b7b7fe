# After networkx's `floyd_warshall_predecessor_and_distance`, which keeps its distances in
# `defaultdict(lambda: defaultdict(lambda: float("inf")))` and reads them in the same
# function: the dict (C code) calls its factory when a key is missing, so the factory is
# called by the function that hands it over and reads the keys. Here one level, a lambda
# and a function of the program as factories. (The tracer does not see a C type called:
# the edge to `collections.defaultdict` is added to its graph by hand.)
from collections import defaultdict


def unreachable():
    return float("inf")


def no_path():
    return None


def shortest(nodes, edges):
    dist = defaultdict(lambda: unreachable())
    pred = defaultdict(no_path)
    for u in nodes:
        dist[(u, u)] = 0
    for u, v, w in edges:
        if dist[(u, v)] > w:
            dist[(u, v)] = w
            pred[v] = u
    return dist, pred[nodes[0]]


def main():
    return shortest(["a", "b"], [("a", "b", 1)])


main()
