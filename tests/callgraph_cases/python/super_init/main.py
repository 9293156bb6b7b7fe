class Base:
    def __init__(self, x):
        self.x = x


class Child(Base):
    def __init__(self):
        super().__init__(1)


Child()
