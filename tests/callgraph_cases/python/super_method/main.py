class Base:
    def run(self):
        pass


class Child(Base):
    def run(self):
        super().run()


Child().run()
