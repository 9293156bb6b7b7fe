# Written from warnings.filterwarnings / _add_filter and test.support's
# clear_ignored_deprecations: a filter is stored as the `*item` tuple of its positional
# arguments (`filters.insert(0, item)`), then read back by unpacking it
# (`for action, message, category, module, lineno in filters`, or `action, msg, cat, mod,
# ln = item`), or indexing it (`item[1]`): each is its own slot's argument, so the
# compiled message pattern and the compiled module pattern stay apart.

filters = []


class MessagePattern:
    def __init__(self, text):
        self.text = text

    def match(self, text):
        return text.lower().startswith(self.text.lower())


class ModulePattern:
    def __init__(self, name):
        self.name = name

    def match(self, name):
        return name == self.name


def filterwarnings(action, message="", category=Warning, module="", lineno=0, append=False):
    if message:
        message = MessagePattern(message)
    else:
        message = None
    if module:
        module = ModulePattern(module)
    else:
        module = None
    _add_filter(action, message, category, module, lineno, append=append)


def _add_filter(*item, append):
    if not append:
        filters.insert(0, item)
    elif item not in filters:
        filters.append(item)


def message_ignored(text):
    for action, message, category, module, lineno in filters:
        if action == "ignore" and message is not None and message.match(text):
            return True
    return False


def module_filter(name):
    for item in filters:
        action, msg, cat, mod, ln = item
        if mod is not None and mod.match(name):
            return action
    return None


def first_message(*item):
    # `item[1]`: the second positional argument only
    return item[1].match("deprecated call") if item[1] is not None else None


def main():
    filterwarnings("ignore", message="deprecated")
    filterwarnings("error", module="tests.old", append=True)
    message_ignored("Deprecated call")
    module_filter("tests.old")
    first_message("ignore", MessagePattern("deprecated"), Warning, ModulePattern("x"), 0)


main()
