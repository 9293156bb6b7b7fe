# Written from the standard library's module-level registries (`atexit.exithandlers`,
# `codecs`' error handlers, `copyreg.dispatch_table`): another module adds its callbacks
# through the module object (`exitfuncs.exithandlers.append(f)`,
# `exitfuncs.error_handlers["strict"] = f`), and the module's own functions call them.
import exitfuncs


def close_files():
    return "closed"


def flush_logs():
    return "flushed"


def strict_errors(exc):
    raise exc


def ignore_errors(exc):
    return None


exitfuncs.exithandlers.append(close_files)
exitfuncs.exithandlers.insert(0, flush_logs)
exitfuncs.error_handlers["strict"] = strict_errors
exitfuncs.error_handlers.setdefault("ignore", ignore_errors)

exitfuncs.handle_error("strict", ValueError("x"))
exitfuncs.run_exitfuncs()
