# After the standard library's `ipaddress`: `_BaseV4` is a mixin without bases of its own.
# Its classmethod `_make_netmask` calls `cls._prefix_from_string(...)`, a classmethod the
# concrete classes get from their other base; `IPv4Network(_BaseV4, _AddressBase)` calls
# it as `self._make_netmask(mask)`, so inside it `cls` is `IPv4Network`.


class _AddressBase:
    @classmethod
    def _report_invalid(cls, text):
        raise ValueError(text)

    @classmethod
    def _prefix_from_string(cls, text):
        if not text.isdigit():
            cls._report_invalid(text)
        return int(text)


class _BaseV4:
    _netmask_cache = {}

    @classmethod
    def _make_netmask(cls, arg):
        if arg not in cls._netmask_cache:
            prefixlen = cls._prefix_from_string(arg)
            cls._netmask_cache[arg] = prefixlen
        return cls._netmask_cache[arg]


class IPv4Network(_BaseV4, _AddressBase):
    def __init__(self, address, mask):
        self.address = address
        self.netmask = self._make_netmask(mask)


mask = "24"
IPv4Network("10.0.0.0", mask)
