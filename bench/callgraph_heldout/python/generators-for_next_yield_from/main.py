# tokenize.generate_tokens / os.walk: generators consumed with for, next() and yield from
def read_lines(text):
    for line in text.split("\n"):
        yield clean(line)


def clean(line):
    return line.strip()


def tokens(text):
    for line in read_lines(text):
        yield from split_words(line)


def split_words(line):
    for w in line.split():
        yield w


def first_token(text):
    return next(tokens(text))


def count(text):
    n = 0
    for _ in tokens(text):
        n += 1
    return n


first_token("a b\nc")
count("a b\nc")
