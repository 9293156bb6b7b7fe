# Written from shlex.shlex and fileinput.FileInput: a class is its own iterator, its
# `__iter__` returning `self` and its `__next__` handing out the next item (`token =
# self.get_token()`; `raise StopIteration` at the end), consumed by a `for` loop whose
# variable is then used; and a class whose `__iter__` returns a separate iterator object.


class Token:
    def __init__(self, text):
        self.text = text

    def upper(self):
        return self.text.upper()


class Lexer:
    def __init__(self, source):
        self.words = source.split()
        self.pos = 0

    def get_token(self):
        if self.pos >= len(self.words):
            return None
        word = self.words[self.pos]
        self.pos += 1
        return Token(word)

    def __iter__(self):
        return self

    def __next__(self):
        token = self.get_token()
        if token is None:
            raise StopIteration
        return token


class Cursor:
    def __init__(self, rows):
        self.rows = rows
        self.i = 0

    def __next__(self):
        if self.i >= len(self.rows):
            raise StopIteration
        self.i += 1
        return self.rows[self.i - 1]


class Table:
    def __init__(self, rows):
        self.rows = rows

    def __iter__(self):
        return Cursor(self.rows)


def shout(source):
    return [token.upper() for token in Lexer(source)]


def first_token(source):
    for token in Lexer(source):
        return token.upper()


def count(table):
    n = 0
    for _row in table:
        n += 1
    return n


def main():
    shout("a b c")
    first_token("x y")
    count(Table([1, 2]))


main()
