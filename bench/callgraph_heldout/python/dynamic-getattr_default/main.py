# pluggy.PluginManager.parse_hookimpl_opts / unittest.TestCase: getattr with a literal name
# and a default, and hasattr before calling
class Plugin:
    def setup(self):
        return "setup"

    def teardown(self):
        return "teardown"


def noop():
    return None


def call_hook(plugin, name):
    method = getattr(plugin, name, noop)
    return method()


def maybe_teardown(plugin):
    if hasattr(plugin, "teardown"):
        return plugin.teardown()
    return None


p = Plugin()
call_hook(p, "setup")
call_hook(p, "missing")
getattr(p, "teardown")()
maybe_teardown(p)
