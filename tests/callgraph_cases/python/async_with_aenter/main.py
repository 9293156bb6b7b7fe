# Written from asyncio.locks._ContextManagerMixin: `async with lock:` awaits __aenter__
# (which acquires) and __aexit__ (which releases); a plain `with` is not involved.
class _ContextManagerMixin:
    async def __aenter__(self):
        await self.acquire()
        return None

    async def __aexit__(self, exc_type, exc, tb):
        self.release()


class Lock(_ContextManagerMixin):
    def __init__(self):
        self._locked = False

    async def acquire(self):
        self._locked = True
        return True

    def release(self):
        self._locked = False

    def __enter__(self):
        raise RuntimeError("use async with")

    def __exit__(self, *args):
        pass


async def worker(lock):
    async with lock:
        return "done"


async def main():
    lock = Lock()
    return await worker(lock)
