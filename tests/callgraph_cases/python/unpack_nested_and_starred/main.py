# Written from unpacking as real code writes it: a table of (handler, help) pairs walked
# with `for name, (handler, help) in table.items()` (traitlets' `Application.flags`), a
# nested target taking a pair out of a returned tuple (`node, (finalizers, _) =
# self.stack.popitem()` in pytest's setup state), a parenthesised target, and starred
# targets (`hub, *spokes = nodes` in networkx, `*path, key = lhs.split(".")` in traitlets),
# one of them rebinding the name it unpacks (`callable_obj, *args = args` in unittest's
# `_AssertRaisesBaseContext.handle`).


def show_help():
    return "help"


def show_version():
    return "1.0"


def setup():
    return "setup"


def check():
    return "check"


def report():
    return "report"


def teardown():
    return "teardown"


class Finalizer:
    def run(self):
        return "finalized"


COMMANDS = {
    "help": (show_help, "print this help"),
    "version": (show_version, "print the version"),
}


def run_flags():
    for name, (handler, _help) in COMMANDS.items():
        handler()


def stack_top():
    return "node", (Finalizer(), None)


def pop_stage():
    node, (finalizer, _) = stack_top()
    finalizer.run()


def stages():
    first, *middle, last = setup, check, report, teardown
    first()
    for step in middle:
        step()
    last()


def parenthesised():
    (on_start, on_stop) = setup, teardown
    on_stop()


class Context:
    def handle(self, name, args):
        callable_obj, *args = args
        return callable_obj(*args)


def expect(*args):
    return Context().handle("expect", args)


def main():
    run_flags()
    expect(show_version)
    pop_stage()
    stages()
    parenthesised()


main()
