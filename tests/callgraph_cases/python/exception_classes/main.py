class AppError(Exception):
    pass


class DetailedError(AppError):
    def __init__(self, detail):
        super().__init__(detail)
        self.detail = detail


def fail(kind):
    if kind:
        raise AppError("x")
    raise DetailedError("y")


fail(True)
