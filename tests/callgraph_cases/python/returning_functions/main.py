def fast():
    pass


def slow():
    pass


def choose(quick):
    if quick:
        return fast
    return slow


choose(True)()
