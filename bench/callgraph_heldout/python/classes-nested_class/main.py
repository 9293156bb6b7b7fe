# argparse.HelpFormatter._Section: a helper class defined in a class body and instantiated
# through self (self._Section(...)); a staticmethod of a nested class
class Table:
    class Row:
        def __init__(self, cells):
            self.cells = cells

        def width(self):
            return len(self.cells)

    def __init__(self):
        self.rows = []

    def add_row(self, *cells):
        row = self.Row(cells)
        self.rows.append(row)
        return row.width()


class Outer:
    class Inner:
        @staticmethod
        def make():
            return Table()


t = Outer.Inner.make()
t.add_row(1, 2)
