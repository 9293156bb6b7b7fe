# requests.compat / many stdlib modules pick an implementation once at import time
import sys


def _scandir_new(path):
    return [path, "new"]


def _scandir_old(path):
    return [path, "old"]


if sys.version_info >= (3, 5):
    scandir = _scandir_new
else:
    scandir = _scandir_old


def walk(top):
    return scandir(top)


walk(".")
