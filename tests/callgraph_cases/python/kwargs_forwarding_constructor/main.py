class Popen:
    def __init__(self, args, shell=False, cwd=None):
        self.args = args
        self.shell = shell

    def communicate(self, input=None):
        return input, None


def run(*popenargs, input=None, **kwargs):
    process = Popen(*popenargs, **kwargs)
    return process.communicate(input)


def call_with(fn, *args, **kwargs):
    return fn(*args, **kwargs)


def check_output(*popenargs, **kwargs):
    return call_with(run, *popenargs, **kwargs)


check_output(["ls"], cwd="/")
