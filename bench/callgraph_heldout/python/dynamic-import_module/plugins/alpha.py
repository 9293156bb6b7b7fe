def activate():
    return helper()


def helper():
    return "alpha"
