# Written from unittest.suite.BaseTestSuite: the suite is made from a list of callables
# written in the call (`TestSuite([...])`), its __init__ hands them to addTests, which
# adds each with addTest (`self._tests.append(test)`), and run() calls every one of them
# (`for test in self: test(result)`, iterating through __iter__).


class Suite:
    def __init__(self, tests=()):
        self._tests = []
        self.add_tests(tests)

    def __iter__(self):
        return iter(self._tests)

    def add_test(self, test):
        self._tests.append(test)

    def add_tests(self, tests):
        for test in tests:
            self.add_test(test)

    def run(self, result):
        for test in self:
            test(result)
        return result


def check_open(result):
    result.append("open")


def check_close(result):
    result.append("close")


def check_flush(result):
    result.append("flush")


def main():
    suite = Suite([check_open, check_close])
    suite.add_tests((check_flush,))
    return suite.run([])


main()
