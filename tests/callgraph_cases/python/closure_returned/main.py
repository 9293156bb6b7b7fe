def make_adder(n):
    def add(x):
        return x + n
    return add


adder = make_adder(2)
adder(3)
