def logged(fn):
    def wrapper(*args):
        print("call")
        return fn(*args)
    return wrapper


@logged
def work(x):
    return x


work(1)
