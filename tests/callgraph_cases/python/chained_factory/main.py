class Job:
    def run(self):
        pass


def make_job():
    return Job()


make_job().run()
