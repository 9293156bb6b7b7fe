class Base:
    def __init__(self):
        pass


class Child(Base):
    def other(self):
        pass


Child()
