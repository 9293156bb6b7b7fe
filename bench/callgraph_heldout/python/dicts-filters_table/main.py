# jinja2.defaults.DEFAULT_FILTERS copied into Environment.filters, extended by the user and
# called by name
def do_upper(s):
    return s.upper()


def do_trim(s):
    return s.strip()


DEFAULT_FILTERS = {"upper": do_upper, "trim": do_trim}


class Environment:
    def __init__(self):
        self.filters = DEFAULT_FILTERS.copy()

    def call_filter(self, name, value):
        func = self.filters.get(name)
        return func(value)


def reverse(s):
    return s[::-1]


env = Environment()
env.filters["reverse"] = reverse
env.call_filter("trim", " a ")
env.call_filter("reverse", "ab")
