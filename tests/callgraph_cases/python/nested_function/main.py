def outer():
    def inner():
        return leaf()
    return inner()


def leaf():
    pass


outer()
