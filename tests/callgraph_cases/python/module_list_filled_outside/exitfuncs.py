# A module keeping its callbacks in module-level containers, as `atexit` keeps the exit
# handlers and `codecs` its search functions; other modules add to them through the module
# object.
exithandlers = []
error_handlers = {}


def run_exitfuncs():
    while exithandlers:
        func = exithandlers.pop()
        func()


def lookup_error(name):
    return error_handlers[name]


def handle_error(name, exc):
    return lookup_error(name)(exc)
