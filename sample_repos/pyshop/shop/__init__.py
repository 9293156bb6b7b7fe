"""Backend for a small online shop.

The most commonly used helpers are re-exported here so that callers can
simply write ``from shop import compute_total``.
"""

from .pricing import compute_total
from .models import Customer, Product

__version__ = "0.3.1"

__all__ = ["compute_total", "Customer", "Product", "__version__"]
