# Mixins written without a base of their own that call `super().set_up()`, as test
# fixtures in the standard library do (`class TempdirManager:` ... `super().setUp()`,
# combined with `unittest.TestCase` by each test class), and a cooperative diamond as
# `socketserver.ThreadingMixIn` is combined: `super()` in a class goes to the next class
# defining the method in the MRO of the class itself and of each subclass combining it.
class Case:
    def set_up(self):
        return "case"


class TempdirMixin:
    def set_up(self):
        super().set_up()
        return "tempdir"


class EnvironMixin:
    def set_up(self):
        super().set_up()
        return "environ"


class BuildTest(TempdirMixin, EnvironMixin, Case):
    def run(self):
        return self.set_up()


class Base:
    def process(self, request):
        return request


class ThreadingMixIn(Base):
    def process(self, request):
        return super().process(request)


class LoggingMixIn(Base):
    def process(self, request):
        return super().process(request)


class Server(ThreadingMixIn, LoggingMixIn):
    pass


BuildTest().run()
Server().process("r")
