def func():
    return 1
