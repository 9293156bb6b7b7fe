# dataclasses.field(default_factory=...) and __post_init__ (attrs: Factory and
# __attrs_post_init__): called by the generated __init__
from dataclasses import dataclass, field


def new_tags():
    return ["default"]


@dataclass
class Item:
    name: str
    tags: list = field(default_factory=new_tags)
    slug: str = ""

    def __post_init__(self):
        self.slug = slugify(self.name)

    def label(self):
        return self.slug + str(len(self.tags))


def slugify(s):
    return s.lower().replace(" ", "-")


Item("Big Box").label()
