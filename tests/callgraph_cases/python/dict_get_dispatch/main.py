def on_a():
    pass


def on_b():
    pass


HANDLERS = {"a": on_a, "b": on_b}


def handle(event):
    fn = HANDLERS.get(event)
    if fn:
        fn()


handle("a")
