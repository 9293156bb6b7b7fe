import importlib
import unittest


def import_module(name):
    """Import and return the module to be tested, raising SkipTest if it is not
    available."""
    try:
        return importlib.import_module(name)
    except ImportError as msg:
        raise unittest.SkipTest(str(msg))
