class Engine:
    def start(self):
        pass


class Car:
    def __init__(self):
        self.engine = Engine()

    def drive(self):
        self.engine.start()


Car().drive()
