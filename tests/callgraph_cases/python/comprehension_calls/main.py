def clean(x):
    return x


def keep(x):
    return True


def process(items):
    return [clean(i) for i in items if keep(i)]


process([1])
