# json.tool / http.server / zipapp: `def main(): ...` run under `if __name__ == "__main__":`
# and handed to SystemExit
import sys


def parse_args(argv):
    return list(argv[1:])


def run(args):
    return len(args)


def main(argv=None):
    args = parse_args(argv if argv is not None else sys.argv)
    return 0 if run(args) >= 0 else 1


if __name__ == "__main__":
    raise SystemExit(main())
