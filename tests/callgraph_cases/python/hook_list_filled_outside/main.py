# Written from pluggy's HookCaller: the implementations are a list the caller makes in
# `__init__` and runs in `__call__` (`for impl in self._impls: impl(**kwargs)`); the
# plugin manager appends to it from outside the class (`hook._impls.append(impl)`), here
# on an instance of a subclass (whose MRO holds the caller) and through a parameter
# (`register(hook, ...)`), and extends it with a list. A plain caller's implementations
# are not the subclass's: `HistoricCaller.call_historic` reads only what reached
# historic callers.


def on_startup(**kwargs):
    return "startup"


def on_config(**kwargs):
    return "config"


def on_flush(**kwargs):
    return "flush"


def on_close(**kwargs):
    return "close"


class HookCaller:
    def __init__(self, name):
        self.name = name
        self._impls = []

    def __call__(self, **kwargs):
        results = []
        for impl in self._impls:
            results.append(impl(**kwargs))
        return results


class HistoricCaller(HookCaller):
    def call_historic(self, **kwargs):
        for impl in reversed(self._impls):
            impl(**kwargs)


def register(hook, impl):
    hook._impls.append(impl)


startup = HistoricCaller("startup")
startup._impls.append(on_startup)

config = HookCaller("config")
register(config, on_config)
config._impls.extend([on_flush, on_close])

startup(when="now")
startup.call_historic(when="later")
config(when="now")
