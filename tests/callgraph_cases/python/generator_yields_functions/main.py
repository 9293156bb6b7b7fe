def first():
    pass


def second():
    pass


def steps():
    yield first
    yield second


for step in steps():
    step()
