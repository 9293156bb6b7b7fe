# rich.style.Style.parse / rich.text.Text.from_markup / datetime.fromtimestamp: classmethods
# that build with cls(...), subclasses inheriting them, staticmethods via class and instance
class Style:
    def __init__(self, color=None, bold=False):
        self.color = color
        self.bold = bold

    @classmethod
    def parse(cls, text):
        words = cls.split(text)
        return cls(color=words[-1], bold="bold" in words)

    @staticmethod
    def split(text):
        return text.split()

    @classmethod
    def null(cls):
        return cls()


class RichStyle(Style):
    def __init__(self, color=None, bold=False):
        super().__init__(color, bold)
        self.link = None


Style.parse("bold red")
RichStyle.parse("green")
Style.null().split("a b")
