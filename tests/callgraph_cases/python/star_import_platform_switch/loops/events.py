__all__ = ("AbstractPolicy", "get_policy")


class AbstractPolicy:
    def new_loop(self):
        raise NotImplementedError


_policy = None


def get_policy():
    return _policy
