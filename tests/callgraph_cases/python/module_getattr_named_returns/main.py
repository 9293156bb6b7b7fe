import compat


def main():
    q = compat.Quoter("/")
    compat.OldHelper().run()
    return compat.quote("a b"), q.quote("c d")


main()
