def double(x):
    return x * 2


f = lambda x: double(x)
f(1)
