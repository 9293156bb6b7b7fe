HANDLERS = []


def register(fn):
    HANDLERS.append(fn)
    return fn


@register
def on_start():
    pass


on_start()
