# After the standard library's `cmd.Cmd.onecmd`, which picks its handler with
# `getattr(self, "do_" + cmd)` (the `do_*` methods of the class and of its subclasses),
# and `pickle._Pickler.save`: `getattr(self, "reducer_override", None)`, a method only
# a subclass defines, and `getattr(self, "dispatch_table", dispatch_table).get(t)`, the
# instance's table or else the module's (the default).


def _reduce_list(obj):
    return ("list", obj)


def _reduce_int(obj):
    return ("int", obj)


dispatch_table = {list: _reduce_list}


class Cmd:
    identchars = "abcdefghijklmnopqrstuvwxyz_"

    def parseline(self, line):
        line = line.strip()
        i, n = 0, len(line)
        while i < n and line[i] in self.identchars:
            i += 1
        return line[:i], line[i:].strip(), line

    def onecmd(self, line):
        cmd, arg, line = self.parseline(line)
        self.lastcmd = line
        if cmd:
            try:
                handler = getattr(self, "do_" + cmd)
            except AttributeError:
                handler = None
            if handler is not None:
                return handler(arg)
        return self.default(line)

    def default(self, line):
        return "*** Unknown syntax: " + line

    def do_help(self, arg):
        return "help " + arg


class Shell(Cmd):
    def do_greet(self, arg):
        return "hello " + arg


class Pickler:
    def save(self, obj):
        reduce = getattr(self, "reducer_override", None)
        if reduce is not None:
            rv = reduce(obj)
            if rv is not NotImplemented:
                return rv
        reduce = getattr(self, "dispatch_table", dispatch_table).get(type(obj))
        return reduce(obj)


class IntPickler(Pickler):
    dispatch_table = {int: _reduce_int}

    def reducer_override(self, obj):
        return NotImplemented


Shell().onecmd("greet world")
Shell().onecmd("help me")
Shell().onecmd("quit")
Pickler().save([1])
IntPickler().save(2)
