"""Customer notifications.

Concrete channels live in submodules (currently only :mod:`shop.notify.email`)
and subclass :class:`Notifier`.
"""

import importlib

CHANNEL_MODULES = {"email": "shop.notify.email"}


class Notifier:
    """Interface for anything that tells a customer about their order."""

    channel = "none"
    enabled: bool = True

    def __init__(self):
        self.sent_count = 0

    def order_placed(self, order):
        raise NotImplementedError

    def order_shipped(self, order):
        """Tell the customer the parcel is on its way; optional for channels."""
        return None


def load_channel(name):
    """Import the module for channel *name* and return its notifier factory.

    The factory's name is only known at runtime, so static analysis cannot
    tell which class ends up being instantiated.
    """
    module = importlib.import_module(CHANNEL_MODULES[name])
    factory_name = getattr(module, "NOTIFIER_FACTORY")
    return getattr(module, factory_name)()
