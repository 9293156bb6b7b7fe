class Outer:
    class Inner:
        def ping(self):
            pass


Outer.Inner().ping()
