class Action:
    def __init__(self, option, type=None, default=None):
        self.option = option
        self.type = type
        self.default = default

    def convert(self, text):
        if self.type is None:
            return text
        return self.type(text)


def parse_port(text):
    return int(text)


def make_parser():
    actions = {}
    actions["--port"] = Action("--port", type=parse_port, default=80)
    actions["--name"] = Action("--name", default="x")
    return actions


def parse(argv):
    actions = make_parser()
    return [actions[k].convert(v) for k, v in argv]


parse([("--port", "8080")])
