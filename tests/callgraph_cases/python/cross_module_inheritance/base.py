class Base:
    def __init__(self):
        pass

    def setup(self):
        pass
