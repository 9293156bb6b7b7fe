from . import base, events

__all__ = ("SelectorLoop", "DefaultPolicy")


class _PosixSelectorLoop(base.BaseLoop):
    def step(self):
        return "select"


class _PosixPolicy(events.AbstractPolicy):
    def new_loop(self):
        return SelectorLoop()


SelectorLoop = _PosixSelectorLoop
DefaultPolicy = _PosixPolicy
