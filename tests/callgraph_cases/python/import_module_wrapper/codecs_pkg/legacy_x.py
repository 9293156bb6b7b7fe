def getregentry():
    return ("legacy-x", None)
