class Token:
    def __init__(self, kind, text):
        self.kind = kind
        self.text = text

    def is_name(self):
        return self.kind == "name"


def generate_tokens(words):
    for word in words:
        yield Token("name", word)


def first_token(words):
    gen = generate_tokens(words)
    tok = next(gen)
    return tok.is_name()


def names(words):
    return [tok.text for tok in generate_tokens(words) if tok.is_name()]


def count(words):
    it = iter(generate_tokens(words))
    total = 0
    for tok in it:
        if tok.is_name():
            total += 1
    return total


first_token(["a"])
names(["b"])
count(["c"])
