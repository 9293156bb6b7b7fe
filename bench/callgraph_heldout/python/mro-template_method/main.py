# logging.Handler.handle() calls self.emit(), which StreamHandler / FileHandler override;
# collections.abc.Mapping.get calls the subclass's __getitem__
class Handler:
    def handle(self, record):
        if self.filter(record):
            self.emit(record)
        return record

    def filter(self, record):
        return True

    def emit(self, record):
        raise NotImplementedError


class StreamHandler(Handler):
    def emit(self, record):
        return self.format(record)

    def format(self, record):
        return str(record)


class QuietHandler(StreamHandler):
    def filter(self, record):
        return False


StreamHandler().handle("a")
QuietHandler().handle("b")
