# Written from ensurepip._find_packages: a directory's entries are read into a name (or an
# empty tuple when reading fails), sorted back into the same name (`filenames =
# sorted(filenames)`), then iterated: the elements of the name are those of its earlier
# values, the sorted name among them being its own elements.


class Wheel:
    def __init__(self, name):
        self.name = name

    def matches(self, prefix):
        return self.name.startswith(prefix)


class Pattern:
    def matches(self, prefix):
        return False


def by_name(wheel):
    return wheel.name


def listing(path):
    if not path:
        raise OSError(path)
    return [Wheel("setuptools-1.whl"), Wheel("pip-2.whl")]


def find_packages(path):
    found = {}
    try:
        wheels = listing(path)
    except OSError:
        wheels = ()
    wheels = sorted(wheels, key=by_name)
    for wheel in wheels:
        if wheel.matches("pip-"):
            found["pip"] = wheel
    return found


def main():
    find_packages("dist")
    find_packages("")
    Pattern().matches("x")


main()
