def one():
    pass


def two():
    pass


def run_all():
    for step in [one, two]:
        step()


run_all()
