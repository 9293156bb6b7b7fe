class Worker:
    def __init__(self):
        pass


factory = Worker
factory()
