"""Price calculations: totals, discounts, taxes and bundles.

All amounts are plain floats in the shop's default currency. Rounding
happens once, at the very end of :func:`compute_total`.
"""

from .models import DEFAULT_CURRENCY, Bundle

TAX_RATES = {"DE": 0.19, "FR": 0.20, "NL": 0.21, "CH": 0.081}
DISCOUNT_CAP = 0.5
PRICE_DIGITS = 2


def compute_total(items, discount=0.0, country="DE"):
    """Compute the gross total of a list of line items.

    The discount is applied to the net sum first, then the VAT of the
    customer's country is added and the result is rounded to cents.
    """
    net = sum(item.subtotal for item in items)
    discounted = apply_discount(net, discount)
    return round_price(add_tax(discounted, country))


def apply_discount(amount, rate):
    """Return *amount* reduced by *rate*, never by more than DISCOUNT_CAP."""
    rate = clamp_rate(rate)
    return amount * (1 - rate)


def clamp_rate(rate):
    return max(0.0, min(float(rate), DISCOUNT_CAP))


def add_tax(amount, country):
    """Add the value added tax for *country* to a net amount."""
    return amount * (1 + TAX_RATES.get(country, 0.0))


def round_price(amount):
    return round(amount, PRICE_DIGITS)


def format_price(amount, currency=DEFAULT_CURRENCY):
    """Format an amount for display, e.g. ``12.50 EUR``."""
    return f"{round_price(amount):.{PRICE_DIGITS}f} {currency}"


def tiered_discount(amount, tiers):
    """Pick the discount rate for *amount* from a list of (threshold, rate) tiers.

    Tiers may be given in any order; the highest threshold that the amount
    reaches wins.
    """

    def rate_for(value):
        best = 0.0
        for threshold, rate in sorted(tiers):
            if value >= threshold:
                best = rate
        return best

    return apply_discount(amount, rate_for(amount))


def price_of(entry):
    """Return the net price of a catalogue entry, which may itself be a bundle."""
    if isinstance(entry, Bundle):
        return bundle_price(entry)
    return entry.price


def bundle_price(bundle):
    """Price a bundle as the discounted sum of its parts.

    Parts can be products or nested bundles, so this function and
    :func:`price_of` call each other.
    """
    raw = sum(price_of(part) for part in bundle.parts)
    return apply_discount(raw, bundle.discount)
