class Helper:
    def run(self):
        return "ran"
