class Box:
    def __init__(self, w):
        self.w = w

    @property
    def area(self):
        return compute(self.w)


def compute(w):
    return w * w


b = Box(2)
b.area
