# After `cmd.Cmd.onecmd` and `http.server`'s `mname = "do_" + self.command`, when the
# command is one of a few texts the code itself writes: `getattr(self, "do_" + cmd)` in a
# `for cmd in ("open", "close")` finds `do_open` and `do_close`, not every `do_*` method;
# `f"dump_{kind}"` with `kind` assigned "json" or "binary" the same, and the default for
# the name no method has. A command read from outside (`line.split()[0]`) still gives
# every method of the prefix.


class Shell:
    def startup(self):
        for cmd in ("open", "close"):
            getattr(self, "do_" + cmd)("")

    def dump(self, fancy):
        kind = "json" if fancy else "binary"
        writer = getattr(self, f"dump_{kind}", self.dump_raw)
        return writer()

    def onecmd(self, line):
        cmd = line.split()[0]
        handler = getattr(self, "do_" + cmd, None)
        if handler is not None:
            return handler(line)
        return None

    def do_open(self, arg):
        return "open " + arg

    def do_close(self, arg):
        return "close " + arg

    def do_debug(self, arg):
        return "debug " + arg

    def dump_json(self):
        return "{}"

    def dump_text(self):
        return ""

    def dump_xml(self):
        return "<x/>"

    def dump_raw(self):
        return b""


shell = Shell()
shell.startup()
shell.dump(True)
shell.dump(False)
shell.onecmd("debug now")
shell.onecmd("open file")
shell.onecmd("close file")
