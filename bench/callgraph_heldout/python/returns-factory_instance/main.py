# logging.getLogger(name) returns a Logger from a manager; methods are called on the
# returned object, also chained (make().run())
class Logger:
    def __init__(self, name):
        self.name = name

    def info(self, msg):
        return self.name + msg

    def child(self, suffix):
        return get_logger(self.name + "." + suffix)


class Manager:
    def __init__(self):
        self.loggers = {}

    def get(self, name):
        if name not in self.loggers:
            self.loggers[name] = Logger(name)
        return self.loggers[name]


_manager = Manager()


def get_logger(name):
    return _manager.get(name)


log = get_logger("app")
log.info("x")
get_logger("db").child("pool").info("y")
