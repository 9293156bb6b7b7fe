# Written from starred items in tuple and list literals as real code writes them: a loop
# over two lists of parameters joined in a literal (`for param in (*self.posonly_params,
# *self.params)` in libcst's `Parameters`), a loop over the starred shapes plus one more
# (`for shape in (*input_shapes, result_shape)` in hypothesis), and a list of names built
# from two option lists (`[*param.opts, *param.secondary_opts]` in click). A place after a
# starred item is not known (`first, second = (*extra, last)`): only the last item can be
# taken from the end.


class Param:
    def render(self):
        return "p"


class KeywordParam:
    def render(self):
        return "k=v"


def finish():
    return "done"


def fallback():
    return "fallback"


def early():
    return "early"


class Signature:
    def __init__(self):
        self.positional = [Param()]
        self.keywords = [KeywordParam()]

    def render_all(self):
        return [param.render() for param in (*self.positional, *self.keywords)]


def run_steps(steps):
    for step in (*steps, finish):
        step()


def pick(extra):
    *_, last = (*extra, fallback)
    return last()


def main():
    Signature().render_all()
    run_steps([early])
    pick([early])


main()
