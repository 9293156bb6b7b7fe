def process():
    helper()


def helper():
    pass
