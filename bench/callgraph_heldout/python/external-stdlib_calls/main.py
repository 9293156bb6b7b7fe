# calls into the standard library as code writes them: module attribute, dotted module,
# from-import with alias, a C function, a stdlib class
import json
import os.path
import math
from collections import OrderedDict
from textwrap import dedent as _dedent


def save(data, folder):
    path = os.path.join(folder, "out.json")
    ordered = OrderedDict(sorted(data.items()))
    return path, json.dumps(ordered)


def geometry(r):
    return math.sqrt(r) + math.floor(r)


def text():
    return _dedent("  a")


save({"b": 1}, "tmp")
geometry(4.0)
text()
