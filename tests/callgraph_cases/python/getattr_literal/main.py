class Plugin:
    def run(self):
        pass


p = Plugin()
getattr(p, "run")()
