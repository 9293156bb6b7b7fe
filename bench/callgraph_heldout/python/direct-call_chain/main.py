# textwrap.dedent / shlex.quote style: plain module functions calling each other, calls
# nested in arguments, in return expressions, in f-strings and conditions
def _whitespace(line):
    return line[: len(line) - len(line.lstrip())]


def _common(a, b):
    n = 0
    while n < min(len(a), len(b)) and a[n] == b[n]:
        n += 1
    return a[:n]


def margin(lines):
    result = None
    for line in lines:
        ws = _whitespace(line)
        result = ws if result is None else _common(result, ws)
    return result or ""


def dedent(text):
    lines = text.split("\n")
    cut = len(margin(lines))
    return "\n".join(line[cut:] for line in lines)


def quote(s):
    if not needs_quotes(s):
        return s
    return f"'{escape(s)}'"


def needs_quotes(s):
    return " " in s


def escape(s):
    return s.replace("'", "\\'")


dedent("  a\n  b")
quote(dedent(" x y"))
