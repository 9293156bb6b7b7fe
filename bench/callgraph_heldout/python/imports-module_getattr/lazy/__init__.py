def direct():
    return "direct"


def __getattr__(name):
    if name == "Worker":
        from .heavy import Worker
        return Worker
    raise AttributeError(name)
