from base import Base


class Child(Base):
    def __init__(self):
        super().__init__()
        self.setup()


Child()
