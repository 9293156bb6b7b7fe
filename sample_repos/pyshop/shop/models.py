"""Domain objects shared by every part of the shop.

Nothing in here talks to storage or the network; the classes only hold
data and a little behaviour that is intrinsic to them.
"""

from dataclasses import dataclass, field
from typing import List, Optional

DEFAULT_CURRENCY: str = "EUR"
SUPPORTED_CURRENCIES = ("EUR", "USD", "GBP")


class Entity:
    """Base class for everything the shop persists.

    Subclasses get a process-wide unique integer id unless one is passed in
    explicitly, plus simple dictionary (de)serialisation.
    """

    kind = "entity"
    schema_version: int = 1
    id: int

    _next_id = 1

    def __init__(self, id: Optional[int] = None):
        if id is None:
            id = Entity._allocate_id()
        self.id = id

    @staticmethod
    def _allocate_id() -> int:
        value = Entity._next_id
        Entity._next_id += 1
        return value

    @classmethod
    def from_dict(cls, data: dict) -> "Entity":
        """Build an instance from a dictionary produced by :meth:`to_dict`."""
        payload = {k: v for k, v in data.items() if k != "kind"}
        return cls(**payload)

    def to_dict(self) -> dict:
        """Return a JSON-friendly representation of the public attributes."""
        data = {k: v for k, v in vars(self).items() if not k.startswith("_")}
        data["kind"] = self.kind
        return data

    def __repr__(self):
        return f"<{type(self).__name__} #{self.id}>"


class Product(Entity):
    """Something that can be put into a basket and sold."""

    kind = "product"
    name: str = "unnamed"
    price: float
    currency: str = DEFAULT_CURRENCY

    def __init__(self, name, price, category=None, currency=DEFAULT_CURRENCY, id=None):
        super().__init__(id=id)
        if currency not in SUPPORTED_CURRENCIES:
            raise ValueError(f"unsupported currency {currency!r}")
        self.name = name
        self.price = float(price)
        self.category = category
        self.currency = currency

    @property
    def is_free(self) -> bool:
        return self.price == 0


class Customer(Entity):
    """A registered customer with a delivery country."""

    kind = "customer"
    country: str = "DE"

    def __init__(self, name, email, country="DE", id=None):
        super().__init__(id=id)
        self.name = name
        self.email = email
        self.country = country

    @property
    def display_name(self) -> str:
        """Return the name shown in e-mails and on invoices."""
        return f"{self.name} <{self.email}>"


@dataclass
class LineItem:
    """A product together with the quantity ordered."""

    product: Product
    quantity: int = 1

    @property
    def subtotal(self) -> float:
        return self.product.price * self.quantity


@dataclass
class Bundle:
    """A set of products (or other bundles) sold together at a discount.

    Bundles may nest, so pricing one is naturally recursive.
    """

    name: str
    parts: List[object] = field(default_factory=list)
    discount: float = 0.1


@dataclass
class Category:
    """A node in the catalogue's category tree."""

    name: str
    children: List["Category"] = field(default_factory=list)

    def add(self, child: "Category") -> "Category":
        self.children.append(child)
        return child
