"""Compatibility code kept for the 2019 invoice exporter.

The old exporter worked on raw price lists rather than line items and used
a single flat tax rate. Do not use it for new code; see :mod:`shop.pricing`.
"""

LEGACY_TAX = 0.16


def compute_total(prices, tax=LEGACY_TAX):
    """Sum a plain list of prices and add the flat legacy tax.

    Unlike :func:`shop.pricing.compute_total` this neither knows about
    discounts nor rounds the result.
    """
    return sum(prices) * (1 + tax)


def legacy_invoice(rows):
    """Build the old-style invoice dictionary from ``(label, price)`` rows."""
    prices = [price for _label, price in rows]
    return {
        "lines": [f"{label};{price}" for label, price in rows],
        "total": compute_total(prices),
    }
