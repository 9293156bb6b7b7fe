# mixins combined as socketserver does (ThreadingTCPServer(ThreadingMixIn, TCPServer)), here
# with cooperative super().method() along a diamond, resolved by the C3 order of the class
class Base:
    def __init__(self):
        self.log = []

    def process(self, req):
        self.log.append("base")
        return req


class ThreadingMixIn(Base):
    def process(self, req):
        self.log.append("thread")
        return super().process(req)


class LoggingMixIn(Base):
    def process(self, req):
        self.log.append("logging")
        return super().process(req)


class Server(ThreadingMixIn, LoggingMixIn):
    def serve(self, req):
        return self.process(req)


Server().serve("r")
