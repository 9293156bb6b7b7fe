# click.decorators.pass_context: an inner new_func that calls the wrapped function, made to
# look like it with functools.update_wrapper / wraps
import functools


def pass_state(f):
    @functools.wraps(f)
    def new_func(*args, **kwargs):
        return f(current_state(), *args, **kwargs)
    return new_func


def logged(f):
    def new_func(*args):
        record(f.__name__)
        return f(*args)
    return functools.update_wrapper(new_func, f)


def current_state():
    return {"verbose": True}


def record(name):
    return name


@pass_state
def show(state, item):
    return state, item


@logged
@pass_state
def build(state):
    return show("x")


build()
