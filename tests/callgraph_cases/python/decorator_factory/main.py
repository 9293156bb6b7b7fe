def repeat(times):
    def decorate(fn):
        def wrapper():
            for _ in range(times):
                fn()
        return wrapper
    return decorate


@repeat(3)
def hello():
    pass


hello()
