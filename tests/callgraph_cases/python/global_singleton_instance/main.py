import registry


def main():
    registry.add("py", "text/x-python")
    registry.guess("a.py")
    return registry._db.guess("b.txt")


main()
