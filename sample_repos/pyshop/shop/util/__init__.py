"""Helpers shared across the shop package.

Besides generic utilities this module re-exports the pricing entry point
under the name the old reporting code used, ``total_price``.
"""

import functools
import time

from shop.pricing import compute_total as total_price

RETRY_DELAY_SECONDS = 0.0


def retry(times=3, exceptions=(ConnectionError, TimeoutError)):
    """Retry the decorated function when it raises one of *exceptions*.

    The wrapped function is called at most *times* times; the last error is
    re-raised if every attempt fails.
    """

    def decorator(func):
        @functools.wraps(func)
        def wrapper(*args, **kwargs):
            last_error = None
            for attempt in range(times):
                try:
                    return func(*args, **kwargs)
                except exceptions as exc:
                    last_error = exc
                    time.sleep(RETRY_DELAY_SECONDS * (attempt + 1))
            raise last_error

        return wrapper

    return decorator


__all__ = ["retry", "total_price"]
