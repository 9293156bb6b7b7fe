"""Command-line entry point for the shop backend.

Installed as the ``pyshop`` console script (see ``pyproject.toml``).
"""

import argparse
import importlib
import json
import os
import sys

import shop.pricing as pr
from shop import orders
from shop.inventory import Inventory, category_slugs
from shop.models import Category, Customer, LineItem, Product
from shop.notify.email import EmailNotifier
from shop.util import legacy
from shop.util.text import slugify as make_slug

LOG_FILE = os.path.join(os.path.expanduser("~"), ".pyshop", "pyshop.log")


def build_parser():
    parser = argparse.ArgumentParser(prog="pyshop", description="Shop backend tools")
    sub = parser.add_subparsers(dest="command", required=True)

    order = sub.add_parser("order", help="place a demo order")
    order.add_argument("--discount", type=float, default=0.0)

    quote = sub.add_parser("quote", help="apply a discount to an amount")
    quote.add_argument("amount", type=float)
    quote.add_argument("--discount", type=float, default=0.0)

    old = sub.add_parser("legacy-total", help="total a price list the 2019 way")
    old.add_argument("prices", type=float, nargs="+")

    sub.add_parser("categories", help="print the demo category tree")

    plugin = sub.add_parser("plugin", help="run module:function with a JSON payload")
    plugin.add_argument("spec")
    plugin.add_argument("payload", nargs="?", default="{}")
    return parser


def demo_inventory():
    """Create a small stocked inventory and a customer for demos."""
    stock = Inventory()
    products = [Product("Espresso Beans", 12.5), Product("Milk Frother", 39.0)]
    for product in products:
        stock.add(product, 10)
    customer = Customer("Ada", "ada@example.org", country="DE")
    return stock, customer, products


def demo_categories():
    root = Category("Coffee")
    beans = root.add(Category("Beans"))
    beans.add(Category("Single Origin"))
    root.add(Category("Gear"))
    return root


def run_plugin(spec, payload):
    """Run a plugin given as ``module:function`` and return its result.

    The callee is looked up by name at runtime.
    """
    module_name, _, func_name = spec.partition(":")
    mod = importlib.import_module(module_name)
    return getattr(mod, func_name)(json.loads(payload))


def main(argv=None):
    """Parse *argv* and dispatch to the requested sub-command.

    Returns the process exit status so the function can be tested directly.
    """
    args = build_parser().parse_args(argv)

    if args.command == "order":
        stock, customer, products = demo_inventory()
        items = [LineItem(p, 1) for p in products]
        order = orders.place_order(stock, customer, items, discount=args.discount, notifier=EmailNotifier())
        print(json.dumps({"id": order.id, "status": order.status, "total": order.total}))
    elif args.command == "quote":
        print(pr.format_price(pr.apply_discount(args.amount, args.discount)))
    elif args.command == "legacy-total":
        print(legacy.compute_total(args.prices))
    elif args.command == "categories":
        for slug in sorted(category_slugs(demo_categories()), key=len):
            print(make_slug(slug))
    elif args.command == "plugin":
        print(json.dumps(run_plugin(args.spec, args.payload)))
    return 0


if __name__ == "__main__":
    sys.exit(main())
