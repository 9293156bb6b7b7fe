# stdlib modules import inside functions to avoid import cost or cycles
# (e.g. `def _f(): import re` in many modules, `from . import x` inside methods)
def render(value):
    from helpers import fmt_value
    return fmt_value(value)


def stamp():
    import helpers as h
    return h.now_text()


class Report:
    def build(self):
        from helpers import fmt_value as f
        return f(stamp())


render(1)
Report().build()
