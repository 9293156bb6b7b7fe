# packaging.markers._operators: a dict of lambdas keyed by operator text, looked up and
# called; a list of lambdas tried in turn
_operators = {
    "in": lambda lhs, rhs: lhs in rhs,
    "not in": lambda lhs, rhs: lhs not in rhs,
    "<": lambda lhs, rhs: compare(lhs, rhs) < 0,
}

_checks = [
    lambda v: v is not None,
    lambda v: len(v) > 0,
]


def compare(a, b):
    return (a > b) - (a < b)


def evaluate(lhs, op, rhs):
    oper = _operators.get(op)
    return oper(lhs, rhs)


def valid(v):
    return all(check(v) for check in _checks)


evaluate("a", "in", "abc")
evaluate(1, "<", 2)
valid("x")
