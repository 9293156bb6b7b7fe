# Written from functools: `cache(user_function)` is `lru_cache(maxsize=None)(user_function)`,
# a call of what `lru_cache` returns (its nested `decorating_function`), which hands the
# function on to `_lru_cache_wrapper`, whose `wrapper` calls it; and from pydoc's
# `getpager()`, which returns a pager function or a lambda (here in parentheses) that the
# caller calls later (`pager = getpager(); pager(text)`) or right away (`getpager()(text)`).


def _lru_cache_wrapper(user_function, maxsize):
    cache = {}

    def wrapper(*args):
        if args not in cache:
            cache[args] = user_function(*args)
        return cache[args]

    return wrapper


def lru_cache(maxsize=128):
    def decorating_function(user_function):
        wrapper = _lru_cache_wrapper(user_function, maxsize)
        return wrapper

    return decorating_function


def cache(user_function):
    return lru_cache(maxsize=None)(user_function)


def parse_header(line):
    return line.split(":", 1)


def plainpager(text):
    print(text)


def pipepager(text, cmd):
    print(cmd, text)


def getpager(use_pager):
    if not use_pager:
        return plainpager
    return (lambda text: pipepager(text, "less"))


def main():
    cached_parse = cache(parse_header)
    cached_parse("Host: example.org")
    pager = getpager(True)
    pager("text")
    getpager(False)("more text")


main()
