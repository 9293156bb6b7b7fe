import executors


def square(x):
    return x * x


def run():
    pool = executors.ThreadPool(2)
    return pool.submit(square, 3)


run()
