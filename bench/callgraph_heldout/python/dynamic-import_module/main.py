# importlib.import_module of a name built at run time (pluggy setuptools entry points,
# logging.config._resolve); the call target is known only when it runs
import importlib


def load(name):
    module = importlib.import_module("plugins." + name)
    return module.activate()


load("alpha")
