def fmt_value(v):
    return "<" + str(v) + ">"


def now_text():
    return fmt_value("now")
