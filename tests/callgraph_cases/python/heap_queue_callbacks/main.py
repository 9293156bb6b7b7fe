# Written from sched.scheduler and asyncio.base_events.BaseEventLoop: an entry holding a
# callback and its arguments is pushed on a heap (`heapq.heappush(self._queue, event)` in
# scheduler.enterabs, `heapq.heappush(self._scheduled, (when, id(timer), timer))` in call_at), taken back
# with `heapq.heappop` in run() / _run_once, and its callback called with the arguments
# (`action(*argument, **kwargs)`; the loop's TimerHandle runs through its _run method). The loop
# here keeps (when, id, timer) entries where asyncio's TimerHandle orders itself by __lt__.
import heapq
from heapq import heappop, heappush


class Timer:
    def __init__(self, when, callback, args):
        self.when = when
        self._callback = callback
        self._args = args

    def run(self):
        self._callback(*self._args)


class Loop:
    def __init__(self):
        self._scheduled = []

    def call_at(self, when, callback, *args):
        timer = Timer(when, callback, args)
        heappush(self._scheduled, (when, id(timer), timer))
        return timer

    def run_once(self):
        while self._scheduled:
            handle = heappop(self._scheduled)[2]
            handle.run()


class Scheduler:
    """Events ordered by (time, sequence) as sched.scheduler orders its Event tuples."""

    def __init__(self):
        self._queue = []
        self._sequence = 0

    def enterabs(self, time, action, argument=(), kwargs=None):
        self._sequence += 1
        event = (time, self._sequence, action, argument, kwargs or {})
        heapq.heappush(self._queue, event)
        return event

    def run(self):
        queue = self._queue
        while queue:
            time, sequence, action, argument, kwargs = heapq.heappop(queue)
            action(*argument, **kwargs)


def tick(n):
    return n + 1


def tock(n, m):
    return n * m


def wake():
    return "awake"


def main():
    s = Scheduler()
    s.enterabs(2, tock, (2,), {"m": 3})
    s.enterabs(1, tick, (1,))
    s.run()
    loop = Loop()
    loop.call_at(2.0, wake)
    loop.call_at(1.0, tick, 5)
    loop.run_once()


main()
