def merge(a, b):
    out = dict(a)
    out.update(b)
    return out
