def main():
    helper()


def helper():
    pass


if __name__ == "__main__":
    main()
