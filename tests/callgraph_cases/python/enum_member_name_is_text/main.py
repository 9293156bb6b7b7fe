# After `inspect._ParameterKind.description` (`_PARAM_NAME_MAPPING[self]`, and
# `self.name.replace(...)` in code like it) and `http.HTTPStatus`: an enum member's `name`
# is a `str`, so its methods are the text's, not attributes of the `enum` module.
import enum


class Kind(enum.Enum):
    POSITIONAL_ONLY = 0
    KEYWORD_ONLY = 3

    def description(self):
        return self.name.replace("_", " ").lower()

    def label(self):
        return pretty(self.name)


def pretty(text):
    return text.title()


Kind.KEYWORD_ONLY.description()
Kind.POSITIONAL_ONLY.label()
