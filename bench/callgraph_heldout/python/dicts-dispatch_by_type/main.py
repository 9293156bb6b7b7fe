# copy._deepcopy_dispatch: a module-level dict filled as `d[list] = _deepcopy_list`, looked
# up with .get(cls) and called
def _copy_atomic(x, memo):
    return x


def _copy_list(x, memo):
    return [deepcopy(a, memo) for a in x]


def _copy_dict(x, memo):
    return {k: deepcopy(v, memo) for k, v in x.items()}


_dispatch = d = {}
d[int] = d[str] = _copy_atomic
d[list] = _copy_list
d[dict] = _copy_dict
del d


def deepcopy(x, memo=None):
    copier = _dispatch.get(type(x))
    if copier is None:
        raise TypeError(type(x))
    return copier(x, memo)


deepcopy({"a": [1, "b"]})
