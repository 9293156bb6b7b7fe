class A:
    def __init__(self):
        self.x = 1


A()
