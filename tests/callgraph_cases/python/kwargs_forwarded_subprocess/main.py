# After `subprocess`: `check_output(*popenargs, timeout=None, **kwargs)` hands its options
# to `run(*popenargs, timeout=timeout, **kwargs)`, which hands them to `Popen(*popenargs,
# **kwargs)`; `call` hands its own to `Popen` directly. `Popen` takes `preexec_fn` and
# calls it before the program starts. `run_quiet` names `preexec_fn` itself and does not
# hand it on, so the function passed to it never reaches `Popen`.
class Popen:
    def __init__(self, args, cwd=None, preexec_fn=None):
        self.args = args
        self._spawn(args, cwd, preexec_fn)

    def _spawn(self, args, cwd, preexec_fn):
        if preexec_fn is not None:
            preexec_fn()
        return args

    def wait(self, timeout=None):
        return timeout


def run(*popenargs, input=None, timeout=None, **kwargs):
    process = Popen(*popenargs, **kwargs)
    process.wait(timeout)
    return process


def check_output(*popenargs, timeout=None, **kwargs):
    return run(*popenargs, timeout=timeout, **kwargs).args


def call(*popenargs, timeout=None, **kwargs):
    process = Popen(*popenargs, **kwargs)
    return process.wait(timeout=timeout)


def run_quiet(*popenargs, preexec_fn=None, **kwargs):
    return run(*popenargs, **kwargs)


def drop_privileges():
    return None


def new_session():
    return None


def never_run():
    return None


check_output(["id"], preexec_fn=drop_privileges)
call(["sh"], cwd="/", preexec_fn=new_session)
run_quiet(["true"], preexec_fn=never_run)
