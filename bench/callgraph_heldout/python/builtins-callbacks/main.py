# functions handed to builtins that call them: map / filter / sorted(key=) / max(key=),
# as in argparse's formatter (max(map(len, ...))) and pprint (sorted(key=...))
def normalize(s):
    return s.strip().lower()


def non_empty(s):
    return bool(s)


def by_length(s):
    return len(s)


def clean(words):
    words = map(normalize, words)
    words = filter(non_empty, words)
    ordered = sorted(words, key=by_length)
    return ordered, max(ordered, key=by_length)


clean([" B ", "", "aa "])
