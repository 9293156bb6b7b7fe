# Written from jinja2's Environment: the filters live in a dict the class makes in
# `__init__`, the application adds its own through the instance
# (`env.filters["reverse"] = reverse`), and the class looks one up by name and calls it
# (`func = self.filters.get(name)`, `self.tests[name](value)`). Another class with an
# attribute of the same name, filled the same way, keeps its own entries.


def upper_filter(value):
    return value.upper()


def strip_filter(value):
    return value.strip()


def default_filter(value):
    return value or ""


def is_odd(value):
    return value % 2 == 1


def unrelated(value):
    return value


DEFAULT_FILTERS = {"default": default_filter}


class Environment:
    def __init__(self):
        self.filters = DEFAULT_FILTERS.copy()
        self.tests = {}

    def call_filter(self, name, value):
        func = self.filters.get(name)
        if func is None:
            raise KeyError(name)
        return func(value)

    def call_test(self, name, value):
        return self.tests[name](value)

    def filter_names(self):
        return sorted(self.filters)


class Formatter:
    def __init__(self):
        self.filters = {}

    def format(self, name, value):
        return self.filters[name](value)


env = Environment()
env.filters["upper"] = upper_filter
env.filters["strip"] = strip_filter
env.tests["odd"] = is_odd

fmt = Formatter()
fmt.filters["same"] = unrelated

env.call_filter("upper", " x ")
env.call_test("odd", 3)
fmt.format("same", "y")
env.filter_names()
