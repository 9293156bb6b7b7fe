class A:
    def method(self):
        pass


a = A()
a.method()
