# asyncio: coroutines awaited in a chain, several gathered, the entry handed to asyncio.run
# (as in asyncio.runners and the httpx / aiohttp style of client code)
import asyncio


async def fetch(url):
    await asyncio.sleep(0)
    return parse(url)


def parse(url):
    return url.upper()


async def fetch_all(urls):
    return await asyncio.gather(*(fetch(u) for u in urls))


async def main():
    first = await fetch("a")
    rest = await fetch_all(["b", "c"])
    return [first] + rest


asyncio.run(main())
