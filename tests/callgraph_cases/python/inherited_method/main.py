class Base:
    def helper(self):
        pass


class Child(Base):
    def run(self):
        self.helper()


c = Child()
c.run()
c.helper()
