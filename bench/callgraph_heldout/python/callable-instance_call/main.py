# pluggy._hooks.HookCaller.__call__ and HookimplMarker.__call__: instances called like
# functions, one of them used as a decorator
class HookCaller:
    def __init__(self, name):
        self.name = name
        self.impls = []

    def __call__(self, **kwargs):
        return [impl(**kwargs) for impl in self.impls]


class Marker:
    def __init__(self, project):
        self.project = project

    def __call__(self, function):
        function.project = self.project
        return function


hookimpl = Marker("demo")


@hookimpl
def on_event(value):
    return value * 2


hook = HookCaller("on_event")
hook.impls.append(on_event)
hook(value=1)
