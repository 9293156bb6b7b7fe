def getregentry():
    return ("latin-x", None)
