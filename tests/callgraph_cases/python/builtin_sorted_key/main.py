OPEN_METH = {"tar": "taropen", "gz": "gzopen"}


def lineno_sort_key(entry):
    return entry.get("lineno", 0)


def find_match(entries):
    entries = sorted(entries, key=lineno_sort_key)
    return entries


def open_any():
    def not_compressed(comptype):
        return OPEN_METH[comptype] == "taropen"
    for comptype in sorted(OPEN_METH, key=not_compressed):
        return comptype


def names(items):
    return sorted(items, key=str.lower)


find_match([{"lineno": 2}, {"lineno": 1}])
open_any()
names(["b", "A"])
