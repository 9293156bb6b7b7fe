# After the standard library's `copy` module: two dispatch tables built through one
# short name, `_copy_dispatch = d = {}` then `_deepcopy_dispatch = d = {}`, each filled
# by subscript assignments (`d[list] = _deepcopy_list`) and looked up by type.


def _copy_atomic(x):
    return x


def _copy_list(x):
    return list(x)


_copy_dispatch = d = {}
d[int] = d[str] = _copy_atomic
d[list] = _copy_list


def _deepcopy_atomic(x, memo):
    return x


def _deepcopy_list(x, memo):
    return [deepcopy(a, memo) for a in x]


_deepcopy_dispatch = d = {}
d[int] = _deepcopy_atomic
d[list] = _deepcopy_list
del d


def copy(x):
    copier = _copy_dispatch.get(type(x))
    return copier(x)


def deepcopy(x, memo=None):
    if memo is None:
        memo = {}
    return _deepcopy_dispatch[type(x)](x, memo)


copy([1, 2])
copy(3)
deepcopy([1, [2]])
