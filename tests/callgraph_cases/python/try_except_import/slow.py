def parse(s):
    return s
