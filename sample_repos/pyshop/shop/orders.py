"""Order lifecycle: creating, pricing, transitioning and summarising orders."""

import asyncio
from functools import partial

from shop import compute_total as ct
from shop.util import retry

from . import inventory
from .models import Entity, LineItem

MAX_ITEMS = 50
STAFF_DISCOUNT = 0.3
_audit_log = []


class Order(Entity):
    """A customer's order together with its line items and status.

    The status moves through ``new -> placed -> paid -> shipped``; an order
    can be cancelled at any point before it is shipped.
    """

    kind = "order"
    status: str = "new"
    total: float = 0.0
    customer: object

    def __init__(self, customer, items=None, id=None):
        super().__init__(id=id)
        self.customer = customer
        self.items = list(items or [])

    def add_item(self, product, quantity=1):
        """Append a line item, refusing to grow beyond MAX_ITEMS lines."""
        if len(self.items) >= MAX_ITEMS:
            raise ValueError(f"an order holds at most {MAX_ITEMS} lines")
        self.items.append(LineItem(product, quantity))
        return self

    @property
    def item_count(self):
        return sum(item.quantity for item in self.items)

    def recalculate(self, discount=0.0):
        """Recompute and store the total from the current line items."""
        self.total = ct(self.items, discount=discount, country=self.customer.country)
        return self.total

    def summary_lines(self):
        """Render one human readable line per item."""

        def describe(item):
            return f"{item.quantity} x {item.product.name} @ {item.product.price:.2f}"

        return [describe(item) for item in self.items]

    def transition(self, new_status):
        """Move the order to *new_status* and run the matching handler."""
        handler = STATUS_HANDLERS.get(new_status)
        if handler is None:
            raise ValueError(f"unknown status {new_status!r}")
        handler(self)
        self.status = new_status
        self._log(f"order {self.id} -> {new_status}")

    def _log(self, message):
        _audit_log.append(message)


def _on_paid(order):
    if order.status != "placed":
        raise ValueError("only placed orders can be paid")


def _on_shipped(order):
    if order.status != "paid":
        raise ValueError("only paid orders can be shipped")


def _on_cancelled(order):
    if order.status == "shipped":
        raise ValueError("shipped orders cannot be cancelled")
    order.total = 0.0


STATUS_HANDLERS = {
    "paid": _on_paid,
    "shipped": _on_shipped,
    "cancelled": _on_cancelled,
}


@retry(times=2)
def place_order(stock, customer, items, discount=0.0, notifier=None):
    """Place an order: reserve the stock, store the total and notify the customer.

    Raises :class:`shop.inventory.OutOfStock` if any item is unavailable; in
    that case no stock is touched.
    """
    order = Order(customer, items)
    order.total = inventory.reserve(stock, order.items, discount=discount, country=customer.country)
    order.status = "placed"
    if notifier is not None:
        notifier.order_placed(order)
    return order


staff_order = partial(place_order, discount=STAFF_DISCOUNT)


async def place_order_async(stock, customer, items, notifier=None):
    """Place an order without blocking the event loop of the web frontend."""
    loop = asyncio.get_running_loop()
    return await loop.run_in_executor(None, lambda: place_order(stock, customer, items, notifier=notifier))


def cancel_order(order):
    order.transition("cancelled")
    return order


def largest_orders(orders, n=3):
    """Return the *n* orders with the highest undiscounted total."""
    return sorted(orders, key=lambda o: ct(o.items), reverse=True)[:n]


def audit_trail():
    return list(_audit_log)
