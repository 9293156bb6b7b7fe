class Job:
    def done(self):
        pass


def run(callback):
    callback()


job = Job()
run(job.done)
