"""E-mail notifications for order events.

Messages are queued in an in-memory outbox; a separate worker process
delivers them through the company's mail relay.
"""

import asyncio

from shop.notify import Notifier
from shop.util import retry, total_price
from shop.util.text import pluralize, truncate

SENDER = "orders@pyshop.example"
SUBJECT_MAX = 78
NOTIFIER_FACTORY = "EmailNotifier"


class EmailNotifier(Notifier):
    """Queue plain-text e-mails describing order events."""

    channel = "email"
    outbox: list

    def __init__(self, sender=SENDER):
        super().__init__()
        self.sender = sender
        self.outbox = []

    def order_placed(self, order):
        count = order.item_count
        subject = f"Order #{order.id} confirmed ({count} {pluralize('item', count)})"
        return self.send(order.customer.email, subject, self.render_body(order))

    def order_shipped(self, order):
        return self.send(order.customer.email, f"Order #{order.id} shipped", "It is on its way.")

    def render_body(self, order):
        """Build the message body listing items, list price and amount charged."""
        lines = order.summary_lines()
        lines.append(f"List price: {total_price(order.items, country=order.customer.country):.2f}")
        lines.append(f"Charged: {order.total:.2f}")
        return "\n".join(lines)

    @retry(times=3)
    def send(self, to, subject, body):
        """Queue one message and return it."""
        message = {
            "from": self.sender,
            "to": to,
            "subject": truncate(subject, SUBJECT_MAX),
            "body": body,
        }
        self.outbox.append(message)
        self.sent_count += 1
        return message

    async def send_async(self, to, subject, body):
        await asyncio.sleep(0)
        return self.send(to, subject, body)


async def broadcast(notifier, recipients, subject, body):
    """Send the same message to many recipients concurrently.

    Returns the queued messages in the order of *recipients*.
    """
    tasks = [notifier.send_async(rcpt, subject, body) for rcpt in recipients]
    return await asyncio.gather(*tasks)
