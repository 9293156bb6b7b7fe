# cmd.Cmd.onecmd: getattr(self, 'do_' + cmd) picks the handler from the command text;
# a sound static tool can only say "one of the do_* methods" (Python called do_greet)
class Shell:
    def onecmd(self, line):
        cmd, _, arg = line.partition(" ")
        try:
            func = getattr(self, "do_" + cmd)
        except AttributeError:
            return self.default(line)
        return func(arg)

    def default(self, line):
        return "unknown: " + line

    def do_greet(self, arg):
        return "hello " + arg

    def do_quit(self, arg):
        return True


Shell().onecmd("greet world")
