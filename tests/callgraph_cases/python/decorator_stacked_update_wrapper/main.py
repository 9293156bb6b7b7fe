# After `functools.lru_cache`, which ends with `return update_wrapper(wrapper,
# user_function)`, and `contextlib.contextmanager`, whose `helper` is defined under
# `@wraps(func)`: two decorators stacked on one function. The outer one is handed the
# inner one's wrapper, so its wrapper calls that wrapper, which calls the function.
import functools


def counted(user_function):
    def wrapper(*args):
        tally(user_function.__name__)
        return user_function(*args)
    return functools.update_wrapper(wrapper, user_function)


def guarded(func):
    @functools.wraps(func)
    def helper(*args):
        check(args)
        return func(*args)
    return helper


def tally(name):
    return name


def check(args):
    return len(args)


@counted
@guarded
def area(w, h):
    return w * h


@guarded
def perimeter(w, h):
    return 2 * (w + h)


def main():
    return area(2, 3) + perimeter(2, 3)


main()
