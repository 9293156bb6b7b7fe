class Worker:
    def __init__(self):
        self.jobs = []

    def run(self):
        return len(self.jobs)
