def pad(s):
    return " " + upper(s) + " "


def upper(s):
    return s.upper()
