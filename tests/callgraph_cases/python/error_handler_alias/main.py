# After `shutil.rmtree`: the walk is a module-level function kept under another name
# (`_rmtree = _rmtree_unsafe`, as shutil picks `_rmtree_safe_fd` or `_rmtree_unsafe`),
# `rmtree(path, onerror)` hands its error handler on to it, and the walk calls the handler
# with the function that failed (`onerror(os.rmdir, path, sys.exc_info())`); the handler
# of shutil's documentation (`remove_readonly(func, path, _)`) calls that function again.
# A handler never passed anywhere (`report`) gets no argument, so its `func` stays unknown.


def _remove_file(path):
    return path


def _remove_dir(path):
    return path


def _rmtree_unsafe(path, onerror):
    onerror(_remove_file, path)
    onerror(_remove_dir, path)


_rmtree = _rmtree_unsafe


def rmtree(path, onerror):
    _rmtree(path, onerror)


def remove_readonly(func, path):
    func(path)


def report(func, path):
    func(path)


rmtree("build", remove_readonly)
