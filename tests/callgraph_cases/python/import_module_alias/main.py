import mod as m


def run():
    return m.func()


run()
