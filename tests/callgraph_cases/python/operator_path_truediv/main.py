# Written from pathlib.PurePath: `/` runs __truediv__ (the path on the left) or
# __rtruediv__ (a string on the left), both making a child through _make_child /
# _from_parts; str(p) runs __str__; the result of `/` is a path again.
class PurePath:
    def __init__(self, *parts):
        self._parts = list(parts)

    @classmethod
    def _from_parts(cls, parts):
        return cls(*parts)

    def _make_child(self, args):
        return self._from_parts(self._parts + list(args))

    def __truediv__(self, key):
        try:
            return self._make_child((key,))
        except TypeError:
            return NotImplemented

    def __rtruediv__(self, key):
        try:
            return self._from_parts([key] + self._parts)
        except TypeError:
            return NotImplemented

    def __str__(self):
        return "/".join(self._parts)

    def with_suffix(self, suffix):
        return self._from_parts(self._parts[:-1] + [self._parts[-1] + suffix])


def config_path(home):
    base = PurePath(home) / ".config"
    conf = base / "app" / "settings"
    return str(conf.with_suffix(".toml"))


config_path("/home/u")
