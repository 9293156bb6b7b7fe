import sys


class CommandError(Exception):
    exit_code = 1

    def __init__(self, message):
        super().__init__(message)
        self.message = message

    def format_message(self):
        return self.message

    def show(self, file=None):
        print("Error: " + self.format_message(), file=file or sys.stderr)


class UsageError(CommandError):
    exit_code = 2

    def __init__(self, message, ctx=None):
        super().__init__(message)
        self.ctx = ctx


class Aborted(RuntimeError):
    def describe(self):
        return "aborted"


def invoke(args):
    if not args:
        raise UsageError("missing argument")
    if args[0] == "stop":
        raise Aborted()
    return len(args)


def main(args):
    try:
        return invoke(args)
    except UsageError as e:
        e.show()
        return e.exit_code
    except (Aborted, KeyboardInterrupt) as exc:
        print(exc.describe() if isinstance(exc, Aborted) else "interrupted")
        return 1


main([])
main(["stop"])
