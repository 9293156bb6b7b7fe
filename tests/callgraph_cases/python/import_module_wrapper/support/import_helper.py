import contextlib
import importlib
import unittest
import warnings


@contextlib.contextmanager
def _ignore_deprecated_imports(ignore=True):
    if ignore:
        with warnings.catch_warnings():
            warnings.filterwarnings("ignore", ".+ (module|package)", DeprecationWarning)
            yield
    else:
        yield


def import_module(name, deprecated=False):
    """Import and return the module to be tested, raising SkipTest if it is not
    available."""
    with _ignore_deprecated_imports(deprecated):
        try:
            return importlib.import_module(name)
        except ImportError as msg:
            raise unittest.SkipTest(str(msg))


def import_fresh_module(name, fresh=()):
    """Import and return the module after importing `fresh` (None when one of them
    cannot be imported)."""
    try:
        for modname in fresh:
            __import__(modname)
    except ImportError:
        return None
    return importlib.import_module(name)


def import_deprecated(name):
    """Import *name* while suppressing DeprecationWarning."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", category=DeprecationWarning)
        return importlib.import_module(name)
