# Written from flask's App and its extensions: an extension's `init_app(app)` fills the
# application's registries from outside the class, a dict of views by endpoint
# (`app.view_functions[endpoint] = view`), a dict of lists of hooks
# (`app.before_request_funcs.setdefault(None, []).append(f)`), a dict updated with a
# literal (`app.error_handlers.update({...})`) and a list extended with another
# (`app.teardown_funcs.extend([...])`); the application's methods call them.


def index():
    return "index"


def load_user():
    return None


def not_found(error):
    return "404"


def server_error(error):
    return "500"


def close_db(exc):
    return None


def close_cache(exc):
    return None


class App:
    def __init__(self):
        self.view_functions = {}
        self.before_request_funcs = {}
        self.error_handlers = {}
        self.teardown_funcs = []

    def dispatch(self, endpoint):
        for func in self.before_request_funcs.get(None, ()):
            func()
        return self.view_functions[endpoint]()

    def handle_error(self, code, error):
        handler = self.error_handlers.get(code)
        return handler(error) if handler else None

    def teardown(self, exc):
        for func in reversed(self.teardown_funcs):
            func(exc)


def init_app(app):
    app.view_functions["index"] = index
    app.before_request_funcs.setdefault(None, []).append(load_user)
    app.error_handlers.update({404: not_found, 500: server_error})
    app.teardown_funcs.extend([close_db, close_cache])


application = App()
init_app(application)
application.dispatch("index")
application.handle_error(404, KeyError("x"))
application.teardown(None)
