import asyncio


async def fetch():
    return 1


async def main():
    value = await fetch()
    return value


asyncio.run(main())
