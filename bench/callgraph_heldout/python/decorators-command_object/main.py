# click.decorators.command: the decorator returns a Command object holding the function as
# its callback; calling the object (BaseCommand.__call__ -> main -> invoke) runs the callback
class Command:
    def __init__(self, name, callback):
        self.name = name
        self.callback = callback

    def __call__(self, *args):
        return self.main(list(args))

    def main(self, args):
        return self.invoke(parse(args))

    def invoke(self, params):
        return self.callback(**params)


def parse(args):
    return {"name": args[0]} if args else {}


def command(name=None):
    def decorator(f):
        return Command(name or f.__name__, f)
    return decorator


@command()
def hello(name="world"):
    return greet(name)


def greet(name):
    return "hello " + name


hello("you")
