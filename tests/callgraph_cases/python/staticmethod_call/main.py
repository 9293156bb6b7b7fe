class Util:
    @staticmethod
    def clean(s):
        return s.strip()

    def run(self, s):
        return self.clean(s)


Util.clean(" x ")
Util().run(" y ")
