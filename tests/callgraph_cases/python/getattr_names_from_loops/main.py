# After `unittest`'s fixtures and `pickle` / `copy` looking hooks up by name: the method
# names come from a `for` over a literal tuple (`for name in ("set_up", "tear_down")`), a
# module-level tuple of names, or a module constant; `getattr` finds each named method,
# with its default when one is given. `hasattr(obj, "flush")` then `obj.flush()` is a
# plain attribute call. A method no name reaches (`inspect`) is not called.
_FIXTURES = ("set_up", "tear_down")
REPORT_HOOK = "report"


class Case:
    def __init__(self, log):
        self.log = log

    def set_up(self):
        self.log.append("set_up")

    def tear_down(self):
        self.log.append("tear_down")

    def report(self):
        return len(self.log)

    def inspect(self):
        return list(self.log)

    def missing(self):
        return None

    def run_fixtures(self):
        for name in ("set_up", "tear_down"):
            getattr(self, name)()

    def run_module_fixtures(self):
        for name in _FIXTURES:
            fixture = getattr(self, name, None)
            if fixture is not None:
                fixture()
        return getattr(self, REPORT_HOOK)()

    def run_optional(self):
        # neither name is a method: only the default runs
        for name in ("before_all", "after_all"):
            getattr(self, name, self.missing)()


class Log:
    def __init__(self):
        self.items = []

    def append(self, item):
        self.items.append(item)

    def flush(self):
        self.items.clear()


def finish(obj):
    if hasattr(obj, "flush"):
        obj.flush()


log = Log()
case = Case(log)
case.run_fixtures()
case.run_module_fixtures()
case.run_optional()
finish(log)
