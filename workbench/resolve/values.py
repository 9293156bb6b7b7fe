"""What the evaluator computes with: values, and the parameters of a function.

A value is a plain tuple whose first item is one of the tags below (tuples are hashable
and cheap, and millions are made on a large repository); the names make the code say what
it handles. Sets of values are walked in `ordered` order, never in hash order.

=================  ====================  ==============================================
tag                shape                 what it stands for
=================  ====================  ==============================================
``SYM``            (SYM, id)             a symbol: function, method, class, module, lambda,
                                         a variable holding an object literal
``BOUND``          (BOUND, id)           a method reached through an instance (its first
                                         parameter is implicit)
``INST``           (INST, id)            an instance of the class `id`
``MODULE``         (MODULE, id)          an ES / CommonJS module object (`import * as ns`,
                                         `require`)
``SUPER``          (SUPER, cls, bound)   `super()` inside class `cls`
``EXT``            (EXT, name)           something outside the repository, by dotted path
``EXT_RESULT``     (EXT_RESULT, name)    what calling that external thing returned
``BUILTIN``        (BUILTIN, name)       a builtin (`len`, `list.append`)
``BUILTIN_INST``   (BUILTIN_INST, name)  an instance of a builtin type (`list`, `str`)
``CONTAINER``      (CONTAINER, scope,    the elements stored in the container `name` of
                   name[, first, next])  `scope` (`"<yield>"`: what a generator yields);
                                         with lines: those put in from line `first` up
                                         to `next` (None: the end), `t = d = {}`
``LITERAL``        (LITERAL, scope,      the elements of a literal written `text` in `scope`
                   text)
``ELEMENTS``       (ELEMENTS, scope,     the elements of the value of expression `text`
                   text)                 (`list(x)`, `sorted(x)`, `iter(x)`)
``ARGS``           (ARGS, fn, index)     `*args` of function `fn`: its positional arguments
                                         from `index` on
``KWARGS``         (KWARGS, fn)          `**kwargs` of function `fn`: what its call sites
                                         pass under a key (`kwargs.get("k")`, `kwargs["k"]`)
``CONTAINER_CALL`` (CONTAINER_CALL,      a method of a container value (`d.get`, `l.pop`)
                   value, method)        not called yet
``VIEW``           (VIEW, value, what)   what a mapping's `keys()` / `values()` / `items()`
                                         returned (`what`: keys | values | items), or one
                                         (key, value) pair of it (`what`: pair)
=================  ====================  ==============================================
"""
from __future__ import annotations

import itertools
import re
from collections.abc import Iterable
from dataclasses import dataclass

from .exprs import split_top


SYM = "s"
BOUND = "b"
INST = "i"
MODULE = "m"
SUPER = "S"
EXT = "x"
EXT_RESULT = "xi"
BUILTIN = "B"
BUILTIN_INST = "Bi"
CONTAINER = "c"
LITERAL = "L"
ELEMENTS = "E"
ARGS = "A"
KWARGS = "K"
CONTAINER_CALL = "CM"
VIEW = "V"

#: values that stand for code or a type of the repository
REPO_CODE = frozenset({SYM, BOUND})
#: values outside the repository, named by a dotted path
OUTSIDE = frozenset({EXT, BUILTIN})
#: values whose elements the evaluator can list
CONTAINERS = frozenset({CONTAINER, LITERAL, ELEMENTS})
#: values the repository makes: its code, its modules, instances of its classes, the
#: containers and builtin-type instances its code builds; not an outside function,
#: module or name, nor what one returns (`EXT`, `EXT_RESULT`, `BUILTIN`)
MADE_HERE = frozenset({SYM, BOUND, INST, MODULE, BUILTIN_INST}) | CONTAINERS

EMPTY = frozenset()


# symbol id -> its place in the canonical order of symbols (by path, then source order):
# set by `Model`. Ids are not canonical: an incremental run gives an edited file new ids,
# so walking values by id would make its edges differ from a fresh index's.
_RANK: dict[int, int] = {}


# value -> its sort key (`ordered`): the same values are ordered again and again
_KEYS: dict = {}


# who set `_RANK` last (a model's token): only that model may patch it (`patch_rank`)
_RANK_OWNER: object | None = None


def set_rank(rank: Iterable[tuple[int, int]], owner: object | None = None) -> None:
    """Use `rank` ((symbol id, canonical place) pairs, or a dict of them) to order values
    from now on; `owner`: the token of the model it comes from. Pairs are taken as they
    come (`zip(sids, range(len(sids)))`): no dict of 91k entries made first and copied."""
    global _RANK_OWNER
    _RANK.clear()
    _RANK.update(rank)
    _KEYS.clear()
    _RANK_OWNER = owner


def patch_rank(owner: object, sids: list[int], first: int, gone) -> None:
    """The ranks of `sids` (every symbol in the canonical order) when only its places from
    `first` on changed and the ids `gone` left: those places set again, the rest kept.
    Equals `set_rank` of the whole list; it is what is done when `owner` did not set the
    ranks in force (another model did since)."""
    if owner is None or owner is not _RANK_OWNER:
        set_rank(zip(sids, range(len(sids))), owner)
        return
    for i in gone:
        _RANK.pop(i, None)
    _RANK.update(zip(itertools.islice(sids, first, None), range(first, len(sids))))
    _KEYS.clear()


def clear_order_keys() -> None:
    """Forget the sort keys `ordered` computed (a full run, its evaluation over)."""
    _KEYS.clear()


def _value_key(v) -> str:
    got = _KEYS.get(v)
    if got is not None:
        return got
    x = v[1] if len(v) > 1 else None
    if x.__class__ is int:                # the symbol a value is about: by its place
        got = _KEYS[v] = repr((v[0], _RANK.get(x, x)) + v[2:])
    else:
        got = _KEYS[v] = repr(v)
    return got


def ordered(vals):
    """`vals` in a canonical order. Values are tuples holding strings, whose hashes (and so a
    set's iteration order) change from one process to the next; evaluation that walks a
    set in that order would enter value cycles at different points and label edges
    differently between runs. Sorting by `repr`, with symbol ids replaced by their
    canonical place, makes every run walk the same way, whatever ids the symbols got."""
    if len(vals) < 2:
        return vals
    return sorted(vals, key=_value_key)


def rank_of(sid: int) -> int:
    """The canonical place of symbol `sid` (later in a file: larger)."""
    return _RANK.get(sid, sid)


# ====================================================================== parameters

@dataclass(slots=True)
class Param:
    name: str
    annotation: str | None = None
    default: str | None = None
    kind: str = "pos"                   # pos | kwonly | var | varkw


def param_list_text(sig: str) -> str | None:
    """The text between the parentheses of the first parameter list in `sig` (generic
    arguments `<...>` inside it kept), or None when there is none."""
    i = sig.find("(")
    if i < 0:
        return None
    depth, j = 0, i
    while j < len(sig):
        if sig[j] in "([{<":
            depth += 1
        elif sig[j] in ")]}>":
            depth -= 1
            if depth == 0:
                break
        j += 1
    return sig[i + 1:j]


def param_parts(sig: str | None) -> list[str] | None:
    """The parameters of the first parameter list in `sig` as written, one text each."""
    inner = param_list_text(sig) if sig else None
    if inner is None:
        return None
    return [p for p in (part.strip() for part in split_top(inner, (",",))) if p]


def annotated_type(sig: str | None) -> str | None:
    """The type a `name: Type = value` declaration (Python, TypeScript) gives its name."""
    sig = (sig or "").split("=", 1)[0].strip().rstrip(";")
    if ":" in sig:
        return declared_type(sig.split(":", 1)[1])
    return None


def declared_type(text: str | None) -> str | None:
    """`*pkg.Store` / `List<Foo>` / `Promise<Bar>` / `Optional[Foo]` / `Foo[]` -> the base type
    name written."""
    if not text:
        return None
    t = text.strip().lstrip("*&").strip()
    t = re.sub(r"^(?:readonly|final|const)\s+", "", t)
    m = re.match(r"(?:Promise|Optional|Observable)<(.+)>$", t) or re.match(r"(?:typing\.)?Optional\[(.+)\]$", t)
    if m:
        t = m.group(1).strip()
    t = t.split("<", 1)[0].split("[", 1)[0].split("|", 1)[0].strip()
    if not re.fullmatch(r"[A-Za-z_$][\w$]*(?:\.[A-Za-z_$][\w$]*)*", t):
        return None
    return t
