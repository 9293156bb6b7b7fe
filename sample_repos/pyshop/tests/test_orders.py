import asyncio

import pytest

from shop import compute_total
from shop.inventory import Inventory, OutOfStock, flatten_categories
from shop.models import Bundle, Category, Customer, LineItem, Product
from shop.notify.email import EmailNotifier, broadcast
from shop.orders import Order, cancel_order, place_order
from shop.pricing import bundle_price
from shop.util import legacy


@pytest.fixture
def stocked():
    stock = Inventory(data_dir="/tmp")
    beans = Product("Beans", 10.0)
    mug = Product("Mug", 5.0)
    stock.add(beans, 2)
    stock.add(mug, 1)
    return stock, beans, mug


def test_place_order_reserves_stock_and_prices(stocked):
    stock, beans, mug = stocked
    customer = Customer("Ada", "ada@example.org", country="DE")
    notifier = EmailNotifier()
    order = place_order(stock, customer, [LineItem(beans, 2), LineItem(mug, 1)], notifier=notifier)
    assert order.status == "placed"
    assert order.total == compute_total(order.items)
    assert stock.available(beans) == 0
    assert notifier.outbox[0]["to"] == "ada@example.org"


def test_out_of_stock_leaves_levels_untouched(stocked):
    stock, beans, mug = stocked
    customer = Customer("Bob", "bob@example.org")
    with pytest.raises(OutOfStock):
        place_order(stock, customer, [LineItem(beans, 1), LineItem(mug, 5)])
    assert stock.available(beans) == 2


def test_cancel_order_resets_total():
    order = Order(Customer("Eve", "eve@example.org"))
    order.add_item(Product("Tea", 4.0), 3)
    order.recalculate()
    order.status = "placed"
    assert cancel_order(order).total == 0.0


def test_nested_bundle_price():
    inner = Bundle("starter", [Product("Cup", 10.0), Product("Saucer", 10.0)], discount=0.5)
    outer = Bundle("deluxe", [inner, Product("Spoon", 10.0)], discount=0.0)
    assert bundle_price(outer) == pytest.approx(20.0)


def test_flatten_categories():
    root = Category("A", [Category("B", [Category("C")]), Category("D")])
    assert flatten_categories(root) == ["A", "A/B", "A/B/C", "A/D"]


def test_legacy_total_is_not_the_new_one():
    assert legacy.compute_total([100.0]) == pytest.approx(116.0)


def test_broadcast_queues_every_message():
    notifier = EmailNotifier()
    sent = asyncio.run(broadcast(notifier, ["a@x.org", "b@x.org"], "Hi", "Sale!"))
    assert [m["to"] for m in sent] == ["a@x.org", "b@x.org"]
