# Written from test.test_os.OSErrorTests.test_oserror_filename: a list of (file names,
# function, arguments...) entries, grown with `funcs.extend((...))` where the platform
# offers more, then each function called on each name (`for filenames, func, *func_args
# in funcs`).
import sys


def chdir(path):
    return path


def stat(path):
    return path


def listdir(path):
    return [path]


def rename(path, dst):
    return path, dst


def check_all(filenames):
    funcs = [
        (filenames, chdir,),
        (filenames, stat,),
    ]
    if sys.platform == "win32":
        funcs.extend((
            (filenames, rename, "dst"),
        ))
    else:
        funcs.extend((
            (filenames, listdir,),
            (filenames, rename, "dst"),
        ))
    for filenames, func, *func_args in funcs:
        for name in filenames:
            func(name, *func_args)


check_all(["x", "y"])
