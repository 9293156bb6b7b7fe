class Greeter:
    def greet(self, name):
        return self.format(name)

    def format(self, name):
        return name.title()


def main():
    g = Greeter()
    g.greet("x")


main()
