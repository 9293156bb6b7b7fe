# After the timing helpers of the standard library's `test/time_hashlib.py`
# (`creatorFunc = lambda x=hashlib.new : x(...)`): a lambda bound to a name calls the
# function it is given; here the function comes as the argument of each call through that
# name, so the lambda calls each function passed to it.


def new_md5():
    return "md5"


def new_sha1():
    return "sha1"


creator = lambda make: make()

creator(new_md5)
creator(new_sha1)
