"""Python extraction (workbench/languages/python.scm) on sample_repos/pyshop: expected rows
checked by hand against the source."""
from __future__ import annotations

import pytest

from extract_expect import sample

MODELS = "shop/models.py"
ORDERS = "shop/orders.py"
UTIL = "shop/util/__init__.py"
EMAIL = "shop/notify/email.py"
PRICING = "shop/pricing.py"
INIT = "shop/__init__.py"
BROKEN = "shop/broken.py"


def py(path):
    return sample("pyshop", path, "python")


# (file, kind, qualname, start_line, end_line, signature, doc)
EXPECTED = [
    (MODELS, "variable", "shop.models.DEFAULT_CURRENCY", 10, 10, 'DEFAULT_CURRENCY: str = "EUR"', None),
    (MODELS, "class", "shop.models.Entity", 14, 51, "class Entity", "Base class for everything the shop persists."),
    (MODELS, "field", "shop.models.Entity.schema_version", 22, 22, "schema_version: int = 1", None),
    (MODELS, "field", "shop.models.Entity.id", 23, 23, "id: int", None),
    # decorators are part of the range
    (MODELS, "method", "shop.models.Entity._allocate_id", 32, 36, "def _allocate_id() -> int", None),
    (MODELS, "method", "shop.models.Entity.from_dict", 38, 42, 'def from_dict(cls, data: dict) -> "Entity"',
     "Build an instance from a dictionary produced by :meth:`to_dict`."),
    (MODELS, "class", "shop.models.Product", 54, 73, "class Product(Entity)",
     "Something that can be put into a basket and sold."),
    (MODELS, "method", "shop.models.Customer.display_name", 88, 91, "def display_name(self) -> str",
     "Return the name shown in e-mails and on invoices."),
    (MODELS, "class", "shop.models.LineItem", 94, 103, "class LineItem",
     "A product together with the quantity ordered."),
    (ORDERS, "method", "shop.orders.Order.item_count", 41, 43, "def item_count(self)", None),
    (ORDERS, "method", "shop.orders.Order.summary_lines", 50, 56, "def summary_lines(self)",
     "Render one human readable line per item."),
    (ORDERS, "function", "shop.orders.Order.summary_lines.describe", 53, 54, "def describe(item)", None),
    (ORDERS, "variable", "shop.orders.STATUS_HANDLERS", 87, 91, "STATUS_HANDLERS = {", None),
    (ORDERS, "function", "shop.orders.place_order", 94, 106,
     "def place_order(stock, customer, items, discount=0.0, notifier=None)",
     "Place an order: reserve the stock, store the total and notify the customer."),
    (ORDERS, "function", "shop.orders.place_order_async", 112, 115,
     "async def place_order_async(stock, customer, items, notifier=None)",
     "Place an order without blocking the event loop of the web frontend."),
    (UTIL, "function", "shop.util.retry", 15, 36, "def retry(times=3, exceptions=(ConnectionError, TimeoutError))",
     "Retry the decorated function when it raises one of *exceptions*."),
    (UTIL, "function", "shop.util.retry.decorator.wrapper", 23, 32, "def wrapper(*args, **kwargs)", None),
    (EMAIL, "field", "shop.notify.email.EmailNotifier.outbox", 22, 22, "outbox: list", None),
    (EMAIL, "method", "shop.notify.email.EmailNotifier.send", 44, 55, "def send(self, to, subject, body)",
     "Queue one message and return it."),
    (EMAIL, "method", "shop.notify.email.EmailNotifier.send_async", 57, 59,
     "async def send_async(self, to, subject, body)", None),
    (EMAIL, "function", "shop.notify.email.broadcast", 62, 68,
     "async def broadcast(notifier, recipients, subject, body)",
     "Send the same message to many recipients concurrently."),
    (PRICING, "function", "shop.pricing.tiered_discount.rate_for", 56, 61, "def rate_for(value)", None),
]


@pytest.mark.parametrize("path,kind,qualname,start,end,sig,doc", EXPECTED,
                         ids=[e[2] for e in EXPECTED])
def test_symbol_rows(path, kind, qualname, start, end, sig, doc):
    assert py(path).row(qualname, start) == (kind, qualname, start, end, sig, doc)


def test_decorators_are_listed_and_counted_in_the_range():
    m = py(MODELS)
    assert m.find("shop.models.Entity._allocate_id")["decorators"] == ["@staticmethod"]
    assert m.find("shop.models.LineItem")["decorators"] == ["@dataclass"]
    assert py(ORDERS).find("shop.orders.place_order")["decorators"] == ["@retry(times=2)"]
    assert py(UTIL).find("shop.util.retry.decorator.wrapper")["decorators"] == ["@functools.wraps(func)"]
    assert py(EMAIL).find("shop.notify.email.EmailNotifier.send")["decorators"] == ["@retry(times=3)"]


def test_module_docstrings_and_package_init_naming():
    assert py(INIT).symbols[0]["qualname"] == "shop"
    assert py(INIT).symbols[0]["doc"] == "Backend for a small online shop."
    assert py(MODELS).symbols[0]["doc"] == "Domain objects shared by every part of the shop."
    assert py(UTIL).symbols[0]["qualname"] == "shop.util"


def test_visibility_by_underscore():
    o = py(ORDERS)
    assert o.find("shop.orders._audit_log")["visibility"] == "private"
    assert o.find("shop.orders.Order._log")["visibility"] == "private"
    assert o.find("shop.orders.Order.__init__")["visibility"] == "public"


def test_calls_and_bases():
    o = py(ORDERS)
    assert o.call_edges("shop.orders.place_order") == [
        ("Order", "shop.orders.Order", "local", 101),
        ("inventory.reserve", None, "unresolved", 102),
        ("notifier.order_placed", None, "unresolved", 105),
    ]
    assert ("self._log", "shop.orders.Order._log", "self", 65) in o.call_edges("shop.orders.Order.transition")
    assert o.call_edges("shop.orders.Order.summary_lines") == [
        ("describe", "shop.orders.Order.summary_lines.describe", "local", 56)]
    assert py(MODELS).bases("shop.models.Product") == ["Entity"]


def test_imports():
    assert py(ORDERS).import_rows() == [
        ("asyncio", None, None, 3),
        ("functools", "partial", None, 4),
        ("shop", "compute_total", "ct", 6),
        ("shop.util", "retry", None, 7),
        (".", "inventory", None, 9),
        (".models", "Entity", None, 10),
        (".models", "LineItem", None, 10),
    ]


def test_broken_file_is_partial_and_ranges_stay_inside_parents():
    b = py(BROKEN)
    assert b.rows.status == "partial"
    assert b.rows.error_count > 0
    assert [(s["qualname"], s["start_line"], s["end_line"]) for s in b.symbols[1:]
            if s["kind"] in ("class", "method", "function")] == [
        ("shop.broken.GiftCard", 8, 26),
        ("shop.broken.GiftCard.__init__", 13, 16),
        ("shop.broken.GiftCard.redeem", 18, 23),
        ("shop.broken.GiftCard.is_empty", 25, 26),
        ("shop.broken.issue_card", 29, 31),
    ]
    for s in b.symbols[1:]:
        parent = b.symbols[s["parent_local"]]
        assert parent["start_line"] <= s["start_line"] <= s["end_line"] <= parent["end_line"], s
        if s["is_truncated"]:            # clipped by error recovery: ends where its parent ends
            assert s["end_line"] == parent["end_line"], s


def test_broken_file_definitions_keep_signature_and_doc():
    got = {s["qualname"]: (s["kind"], s["signature"], s["doc"]) for s in py(BROKEN).symbols}
    assert got["shop.broken.GiftCard"] == (
        "class", "class GiftCard(Entity)", "A prepaid card that can be redeemed against orders.")
    # the half-edited header is shown as written, with the docstring under it
    assert got["shop.broken.GiftCard.redeem"] == (
        "method", "def redeem(self, amount",
        "Take *amount* off the balance and return what is left.")
    assert got["shop.broken.GiftCard.is_empty"] == ("method", "def is_empty(self)", None)
    assert got["shop.broken.issue_card"] == (
        "function", "def issue_card(code, amount)", "Create a new gift card with an initial balance.")
    assert got["shop.broken"] == ("module", None, "Gift card support (work in progress).")


def test_module_variables_set_in_module_level_if_and_try():
    from extract_expect import snippet
    ex = snippet("compat.py", """\
try:
    import fastjson as json
    HAVE_FAST = True
except ImportError:
    import json
    HAVE_FAST = False
if HAVE_FAST:
    LOADS = json.loads
else:
    LOADS = None

def f():
    if True:
        local = 1
""", "python")
    rows = [(s["kind"], s["qualname"], s["start_line"]) for s in ex.symbols if s["kind"] == "variable"]
    assert rows == [("variable", "compat.HAVE_FAST", 3), ("variable", "compat.HAVE_FAST", 6),
                    ("variable", "compat.LOADS", 8), ("variable", "compat.LOADS", 10)]


def test_bindings_of_for_tuple_targets_and_extend():
    """`for fn, args in calls:` binds each name to its item of every element
    (`iter_unpack`, named `fn#0` as `unpack` names it; a nested target names each step,
    `a#0.0`, a starred one the items it takes, `rest#1*0`: from 1 to the end), and
    `xs.extend(v)` / `xs.extendleft(v)` add the elements of `v` to `xs` (`extend`)."""
    from workbench.extract import extract_file
    from workbench.languages import SPECS
    src = (b"def run(calls, more, q):\n"
           b"    for fn, args in calls:\n"
           b"        fn(*args)\n"
           b"    for (a, b), *rest in calls:\n"
           b"        pass\n"
           b"    calls.extend(more)\n"
           b"    q.extendleft([run])\n"
           b"    return [f(*x) for f, x in calls]\n")
    rows = extract_file("m.py", src, SPECS["python"])
    got = sorted((b[1], b[2], b[3], b[6]) for b in rows.bindings if b[1] in ("iter_unpack", "extend"))
    assert got == [("extend", "calls", "more", 6), ("extend", "q", "[run]", 7),
                   ("iter_unpack", "a#0.0", "calls", 4), ("iter_unpack", "args#1", "calls", 2),
                   ("iter_unpack", "b#0.1", "calls", 4), ("iter_unpack", "f#0", "calls", 8),
                   ("iter_unpack", "fn#0", "calls", 2), ("iter_unpack", "rest#1*0", "calls", 4),
                   ("iter_unpack", "x#1", "calls", 8)]


def test_bindings_of_slice_assignment_are_extend_rows():
    """`xs[:0] = [f]` puts the elements of the value in (`extend`, as `inspect.getcomments`
    gathers lines); `d[k] = f` stays one element, a `:` inside a string key too."""
    from workbench.extract import extract_file
    from workbench.languages import SPECS
    src = (b"def fill(d, xs, k, f, g, ys):\n"
           b"    d[k] = f\n"
           b"    d['a:b'] = g\n"
           b"    xs[:0] = [f]\n"
           b"    xs[1:] = ys\n"
           b"    d.t[::2] = ys\n"
           b"    d.t[k] = g\n")
    rows = extract_file("m.py", src, SPECS["python"])
    got = sorted((b[1], b[2], b[3], b[6]) for b in rows.bindings if b[1] in ("element", "extend"))
    assert got == [("element", "d", "f", 2), ("element", "d", "g", 3), ("element", "d.t", "g", 7),
                   ("extend", "d.t", "ys", 6), ("extend", "xs", "[f]", 4), ("extend", "xs", "ys", 5)]


def test_unpack_slots_nested_starred_and_bracketed():
    """Each target of an unpacking assignment is named by where it sits: one step per
    nesting level (`c#1.1`), a step after a starred sibling counted from the end (`z#-1`),
    the starred target by the items it takes (`y#1*1`); parenthesised and bracketed
    targets too; comments between targets do not count."""
    from workbench.extract import extract_file
    from workbench.languages import SPECS
    src = (b"def f(t):\n"
           b"    a, (b, c) = t\n"
           b"    x, *y, z = t\n"
           b"    (p, q) = t\n"
           b"    [r, (s, *u)] = t\n"
           b"    (v,  # the first\n"
           b"     w) = t\n")
    rows = extract_file("m.py", src, SPECS["python"])
    got = sorted(b[2] for b in rows.bindings if b[1] == "unpack")
    assert got == sorted(["a#0", "b#1.0", "c#1.1", "x#0", "y#1*1", "z#-1", "p#0", "q#1",
                          "r#0", "s#1.0", "u#1.1*0", "v#0", "w#1"])


def test_argument_slots_count_every_named_argument_but_comments():
    """A positional argument's name is `callee#N`, N its place among the call's named
    arguments (literals and keyword arguments count, comments do not), however many of
    them are captured and whatever other rows of the same call come between."""
    from workbench.extract import extract_file
    from workbench.languages import SPECS
    src = (b"def run(a, b, c, d, xs):\n"
           b"    f(a, 'lit', b,  # note\n"
           b"      # more\n"
           b"      c, k=d, *xs)\n"
           b"    g(1, 2, a, h(b, c), 3, d)\n"
           b"    xs.append(a)\n"
           b"    xs.insert(0, b)\n"
           b"    heapq.heappush(xs, c)\n")
    rows = extract_file("m.py", src, SPECS["python"])
    got = [(b[1], b[2], b[3], b[6]) for b in rows.bindings if b[1] in ("arg", "element")]
    assert got == [("arg", "f#0", "a", 2), ("arg", "f#2", "b", 2), ("arg", "f#3", "c", 2),
                   ("arg", "f#k", "d", 2),
                   ("arg", "g#2", "a", 5), ("arg", "g#3", "h(b, c)", 5), ("arg", "g#5", "d", 5),
                   ("arg", "h#0", "b", 5), ("arg", "h#1", "c", 5),
                   ("element", "xs", "a", 6), ("arg", "xs.append#0", "a", 6),
                   ("element", "xs", "b", 7), ("arg", "xs.insert#1", "b", 7),
                   ("arg", "heapq.heappush#0", "xs", 8), ("element", "xs", "c", 8),
                   ("arg", "heapq.heappush#1", "c", 8)]


def test_callee_text_is_the_member_substitution_of_the_collapsed_text():
    """`_callee` skips the member-separator substitution where it could change nothing; its
    text is always the substitution's, on hand-picked and random texts."""
    import random
    import re

    from workbench.extract import _MEMBER_WS, _callee
    def plain(s):
        if not re.search(r"\s", s):
            return s
        s = " ".join(s.split())
        return _MEMBER_WS.sub(lambda m: m.group(1), s) if " " in s else s
    texts = ["self.run", "s\n  .normalize", "a . b", "a ?. b", "x :: y", "p -> q", "a::: b",
             "lambda x: y", "f(a, b)", "Hello. World", "a- >b", "o ?.p", "x\t->\ty", "n:\u00a0m",
             "a\u2028.b", "[1, 2]", "d[k] .get"]
    rng = random.Random(7)
    texts += ["".join(rng.choice("ab.:->? \n\t(),\u00a0") for _ in range(rng.randrange(1, 14)))
              for _ in range(20000)]
    for s in texts:
        assert _callee(s) == plain(s), repr(s)
