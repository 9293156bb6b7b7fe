# flask.App.before_request_funcs: functions appended by decorators to lists, then run in
# order with `for func in funcs: func()`
class App:
    def __init__(self):
        self.before_request_funcs = []
        self.teardown_funcs = []

    def before_request(self, f):
        self.before_request_funcs.append(f)
        return f

    def teardown(self, f):
        self.teardown_funcs.append(f)
        return f

    def full_dispatch(self):
        for func in self.before_request_funcs:
            func()
        result = "body"
        for func in reversed(self.teardown_funcs):
            func(result)
        return result


app = App()


@app.before_request
def open_db():
    return "db"


@app.before_request
def load_user():
    return "user"


@app.teardown
def close_db(result):
    return result


app.full_dispatch()
