# Written from collections.UserDict: subscripts, `in`, len(), iteration, assignment and
# `del` of an item run the mapping's dunder methods, found along the MRO of a subclass.
class UserDict:
    def __init__(self, dict=None):
        self.data = {}
        if dict is not None:
            self.update(dict)

    def __len__(self):
        return len(self.data)

    def __getitem__(self, key):
        if key in self.data:
            return self.data[key]
        raise KeyError(key)

    def __setitem__(self, key, item):
        self.data[key] = item

    def __delitem__(self, key):
        del self.data[key]

    def __iter__(self):
        return iter(self.data)

    def __contains__(self, key):
        return key in self.data

    def update(self, other):
        for k in other:
            self.data[k] = other[k]


class Defaults(UserDict):
    def copy(self):
        return Defaults(self.data)


def use():
    d = Defaults({"a": 1})
    d["b"] = 2
    first = d["a"]
    if "b" in d:
        del d["b"]
    keys = [k for k in d]
    return first, keys, len(d)


use()
