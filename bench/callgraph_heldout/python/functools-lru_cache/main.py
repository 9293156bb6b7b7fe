# functools.lru_cache / functools.cache on module functions and a recursive function, as
# rich.cells (get_character_cell_size, cached_cell_len) and re (_compile_repl) use them
import functools


@functools.lru_cache(maxsize=128)
def cell_width(ch):
    return 2 if is_wide(ch) else 1


def is_wide(ch):
    return ord(ch) > 0x1100


@functools.cache
def fib(n):
    return n if n < 2 else fib(n - 1) + fib(n - 2)


def text_width(text):
    return sum(cell_width(c) for c in text)


text_width("ab")
fib(5)
