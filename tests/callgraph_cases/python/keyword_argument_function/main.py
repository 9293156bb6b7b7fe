def run(task=None, *, callback):
    callback()


def done():
    pass


run(callback=done)
