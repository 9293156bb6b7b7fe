class Service:
    def run(self):
        pass


svc = Service()


def handler():
    svc.run()


handler()
