# sched.scheduler.enter(delay, priority, action, argument): a callable and its arguments kept
# in a queue entry and called later by run()
import heapq


class Scheduler:
    def __init__(self):
        self._queue = []

    def enter(self, priority, action, argument=()):
        heapq.heappush(self._queue, (priority, id(action), action, argument))

    def run(self):
        while self._queue:
            _, _, action, argument = heapq.heappop(self._queue)
            action(*argument)


def tick(n):
    return n + 1


def tock(n, m):
    return n * m


def main():
    s = Scheduler()
    s.enter(2, tock, (2, 3))
    s.enter(1, tick, (1,))
    s.run()


main()
