import os


def _find_all_simple(path):
    results = [os.path.join(path, name) for name in ("a.py", "", "b.txt")]
    return list(filter(None, results))


def findall(top):
    files = _find_all_simple(top)

    def make_rel(name):
        return name[len(top) + 1:]

    files = map(make_rel, files)
    return list(files)


def is_source(name):
    return name.endswith(".py")


def sources(names):
    return list(filter(is_source, names))


sources(findall("top"))
