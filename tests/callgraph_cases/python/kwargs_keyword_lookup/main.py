# After `logging.basicConfig(**kwargs)`: options taken out of the function's own `**kwargs`
# by key (`handlers = kwargs.pop("handlers", None)`, `kwargs.get(...)`, `kwargs[...]`),
# each the value its call sites pass under that keyword; a key no call site passes gives
# nothing, and the other keywords stay apart.
class StreamHandler:
    def set_formatter(self, fmt):
        self.fmt = fmt


class FileHandler(StreamHandler):
    def set_formatter(self, fmt):
        self.fmt = "file " + fmt


def default_filter(record):
    return True


def short_format(record):
    return record[:10]


def basic_config(**kwargs):
    handlers = kwargs.pop("handlers", None)
    keep = kwargs.get("filter") or default_filter
    formatter = kwargs["formatter"]
    for h in handlers:
        h.set_formatter(formatter("record"))
    callback = kwargs.get("on_done")
    if callback:
        callback()
    return keep("record")


basic_config(handlers=[FileHandler()], formatter=short_format)
