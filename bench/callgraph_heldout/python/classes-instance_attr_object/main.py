# logging.Logger holds handler objects; LoggerAdapter keeps the logger in self.logger and
# forwards: an object stored in an attribute, its method called through the attribute chain
class Formatter:
    def format(self, record):
        return "[" + record + "]"


class Handler:
    def __init__(self):
        self.formatter = Formatter()

    def handle(self, record):
        return self.formatter.format(record)


class Logger:
    def __init__(self, name):
        self.name = name
        self.handler = Handler()

    def log(self, msg):
        return self.handler.handle(self.name + ": " + msg)


class Adapter:
    def __init__(self, logger):
        self.logger = logger

    def info(self, msg):
        return self.logger.log(msg)


Adapter(Logger("app")).info("hi")
