"""Gift card support (work in progress)."""

from .models import Entity

GIFT_CARD_PREFIX = "GC-"


class GiftCard(Entity):
    """A prepaid card that can be redeemed against orders."""

    kind = "gift_card"

    def __init__(self, code, balance):
        super().__init__()
        self.code = GIFT_CARD_PREFIX + code
        self.balance = balance

    def redeem(self, amount
        """Take *amount* off the balance and return what is left."""
        if amount > self.balance:
            raise ValueError("insufficient balance")
        self.balance -= amount
        return self.balance

    def is_empty(self):
        return self.balance <= 0


def issue_card(code, amount):
    """Create a new gift card with an initial balance."""
    return GiftCard(code, amount)
