# After `email.mime.image` (`_rules = []` filled by the `rule` decorator, which appends
# the function and returns it; `_what` tries each rule in turn) and `copyreg.pickle`
# (`dispatch_table[ob_type] = pickle_function`, looked up by `copy.copy` with
# `dispatch_table.get(cls)`): module-level containers that the module's functions fill.
# A decorated rule called directly is only that rule (the decorator returns it).
_rules = []
dispatch_table = {}


def rule(rulefunc):
    _rules.append(rulefunc)
    return rulefunc


@rule
def _gif(h):
    return "gif" if h[:4] == b"GIF8" else None


@rule
def _png(h):
    return "png" if h[:4] == b"\x89PNG" else None


def _what(h):
    for testfn in _rules:
        if res := testfn(h):
            return res
    return None


def pickle(ob_type, pickle_function):
    dispatch_table[ob_type] = pickle_function


def reduce_complex(c):
    return complex, (c.real, c.imag)


pickle(complex, reduce_complex)


def copy(x):
    reductor = dispatch_table.get(type(x))
    return reductor(x)


def main():
    kind = _what(b"\x89PNG....")
    direct = _gif(b"GIF89a")
    return kind, direct, copy(1j)


main()
