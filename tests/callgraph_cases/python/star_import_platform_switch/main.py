import loops
from loops import SelectorLoop


def make():
    policy = loops.DefaultPolicy()
    return policy.new_loop()


def direct():
    return SelectorLoop().run()


make().run()
