# pluggy.HookimplMarker.__call__ / dataclasses.dataclass(cls=None, ...): one decorator used
# bare (@hookimpl) and with arguments (@hookimpl(tryfirst=True))
def hookimpl(function=None, tryfirst=False):
    def setattr_opts(func):
        func.opts = {"tryfirst": tryfirst}
        return func
    if function is None:
        return setattr_opts
    return setattr_opts(function)


@hookimpl
def on_start():
    return "start"


@hookimpl(tryfirst=True)
def on_stop():
    return "stop"


def run():
    return [on_start(), on_stop()]


run()
