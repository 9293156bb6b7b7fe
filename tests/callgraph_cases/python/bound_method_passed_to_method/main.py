# After `threading.Thread(target=self._bootstrap)` and `multiprocessing.resource_sharer`'s
# `threading.Thread(target=self._serve)`: an object hands its own bound methods to one of
# its methods, which calls the first with the second (`self._start(self._serve,
# self._on_done)`), and the method called calls the bound method it was given.


class Server:
    def _on_done(self):
        return None

    def _serve(self, notify):
        notify()

    def _start(self, target, arg):
        target(arg)

    def run(self):
        self._start(self._serve, self._on_done)


server = Server()
server.run()
