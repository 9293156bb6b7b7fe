# Written from pkgutil.iter_zipimport_modules and zipimport._read_directory: a directory is
# read into a dict of entries by name (`files[name] = toc`), then iterated sorted
# (`for fn in sorted(files)`, then `fn.startswith(prefix)`): iterating a dict gives its keys
# (here texts), not its values; indexing it and `.values()` give its values, `.items()`
# (key, value) pairs and `.keys()` the keys.


class Entry:
    def __init__(self, path, size):
        self.path = path
        self.size = size

    def startswith(self, prefix):
        return self.path.startswith(prefix)

    def split(self, sep):
        return self.path.split(sep)

    def lower(self):
        return self.path.lower()

    def describe(self):
        return f"{self.path} {self.size}"


def read_directory(archive):
    files = {}
    for i, name in enumerate(archive):
        files[name] = Entry(name, i)
    return files


def names_under(files, prefix):
    found = []
    for fn in sorted(files):
        if not fn.startswith(prefix):
            continue
        found.append(fn[len(prefix):].split("/"))
    return found


def keys_lowered(files):
    out = [n.lower() for n in files]
    for key in files.keys():
        out.append(key.lower())
    for name, entry in files.items():
        out.append(name.lower())
    return out


def describe_all(files, prefix):
    out = []
    for name, entry in files.items():
        out.append(entry.describe())
    for entry in files.values():
        entry.startswith(prefix)
    files[prefix + "a.py"].split("/")
    return out


def main():
    files = read_directory(["pkg/a.py", "pkg/b.py", "other.py"])
    names_under(files, "pkg/")
    keys_lowered(files)
    describe_all(files, "pkg/")


main()
