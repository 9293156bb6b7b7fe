def process():
    pass
