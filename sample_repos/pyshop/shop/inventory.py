"""Stock keeping: levels, reservations, snapshots and the category tree."""

import json
import os
from collections import defaultdict

from .pricing import compute_total
from shop.util.text import slugify as make_slug

LOW_STOCK_THRESHOLD = 3
SNAPSHOT_NAME = "inventory.json"


class OutOfStock(Exception):
    """Raised when a reservation asks for more units than are available."""

    def __init__(self, products):
        names = ", ".join(p.name for p in products)
        super().__init__(f"out of stock: {names}")
        self.products = products


class Inventory:
    """In-memory stock levels keyed by product id."""

    def __init__(self, data_dir=None):
        self._levels = defaultdict(int)
        self._products = {}
        self.data_dir = data_dir or os.getcwd()

    def add(self, product, quantity):
        """Register *quantity* more units of *product*."""
        self._products[product.id] = product
        self._levels[product.id] += quantity
        return self._levels[product.id]

    def available(self, product):
        return self._levels[product.id]

    def take(self, product, quantity):
        """Remove units from stock; the caller must have checked availability."""
        if self.available(product) < quantity:
            raise OutOfStock([product])
        self._levels[product.id] -= quantity

    def low_stock(self):
        """List products whose level dropped to the warning threshold, by name."""
        running_low = [
            p for pid, p in self._products.items() if self._levels[pid] <= LOW_STOCK_THRESHOLD
        ]
        return sorted(running_low, key=lambda p: p.name.lower())

    def snapshot_path(self):
        return os.path.join(self.data_dir, SNAPSHOT_NAME)

    def save(self):
        """Write the current levels to a JSON file keyed by product slug."""
        payload = {make_slug(p.name): self._levels[pid] for pid, p in self._products.items()}
        path = self.snapshot_path()
        with open(path, "w", encoding="utf-8") as fh:
            fh.write(json.dumps(payload, indent=2, sort_keys=True))
        return path


def reserve(stock, items, discount=0.0, country="DE"):
    """Reserve stock for every line item and return the priced total.

    Either all items are reserved or none is: availability is checked for
    the whole basket before any level is changed.
    """
    missing = [i.product for i in items if stock.available(i.product) < i.quantity]
    if missing:
        raise OutOfStock(missing)
    for item in items:
        stock.take(item.product, item.quantity)
    return compute_total(items, discount=discount, country=country)


def flatten_categories(category, prefix=""):
    """Return the slash separated paths of a category and all its descendants."""
    path = f"{prefix}/{category.name}" if prefix else category.name
    paths = [path]
    for child in category.children:
        paths.extend(flatten_categories(child, path))
    return paths


def category_slugs(category):
    return [make_slug(path) for path in flatten_categories(category)]
