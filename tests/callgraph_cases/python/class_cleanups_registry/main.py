class TestCase:
    _class_cleanups = []

    def __init_subclass__(cls, *args, **kwargs):
        cls._class_cleanups = []
        super().__init_subclass__(*args, **kwargs)

    @classmethod
    def addClassCleanup(cls, function, /, *args, **kwargs):
        cls._class_cleanups.append((function, args, kwargs))

    @classmethod
    def doClassCleanups(cls):
        while cls._class_cleanups:
            function, args, kwargs = cls._class_cleanups.pop()
            function(*args, **kwargs)


class Registry:
    hooks = []

    def register(self, hook):
        self.hooks.append(hook)
        return hook

    def fire(self):
        for hook in self.hooks:
            hook()


def drop_tables(name):
    pass


def flush():
    pass


class DBTest(TestCase):
    pass


DBTest.addClassCleanup(drop_tables, "users")
DBTest.doClassCleanups()
registry = Registry()
registry.register(flush)
registry.fire()
