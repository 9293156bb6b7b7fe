def getregentry():
    return make_entry("utf-x")


def make_entry(name):
    return (name, None)
