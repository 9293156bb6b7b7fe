from . import base, events

__all__ = ("SelectorLoop", "ProactorLoop", "DefaultPolicy")


class _WindowsSelectorLoop(base.BaseLoop):
    def step(self):
        return "select"


class ProactorLoop(base.BaseLoop):
    def step(self):
        return "proactor"


class _WindowsPolicy(events.AbstractPolicy):
    def new_loop(self):
        return ProactorLoop()


SelectorLoop = _WindowsSelectorLoop
DefaultPolicy = _WindowsPolicy
