"""Small text helpers used for URLs, e-mail subjects and reports."""

import re
import unicodedata

_NON_WORD = re.compile(r"[^a-z0-9]+")
ELLIPSIS = "..."


def slugify(text):
    """Turn arbitrary text into a lowercase, dash separated URL fragment.

    Accents are stripped, so ``"Crème Brûlée"`` becomes ``"creme-brulee"``.
    """
    normalized = unicodedata.normalize("NFKD", text)
    ascii_text = normalized.encode("ascii", "ignore").decode("ascii")
    return _NON_WORD.sub("-", ascii_text.lower()).strip("-")


def truncate(text, limit):
    """Shorten *text* to at most *limit* characters, marking the cut."""
    if len(text) <= limit:
        return text
    return text[: max(0, limit - len(ELLIPSIS))] + ELLIPSIS


def pluralize(word, count):
    if count == 1:
        return word
    if word.endswith("y") and not word.endswith("ey"):
        return word[:-1] + "ies"
    return word + "s"


def title_case(words):
    return " ".join(w.capitalize() for w in words.split())
