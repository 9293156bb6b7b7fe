# flask.sansio.scaffold.Scaffold.route: a decorator factory that records the view in a dict
# and returns it unchanged; dispatch looks it up later
class App:
    def __init__(self):
        self.view_functions = {}

    def route(self, rule):
        def decorator(f):
            self.add_url_rule(rule, f)
            return f
        return decorator

    def add_url_rule(self, rule, view_func):
        self.view_functions[rule] = view_func

    def dispatch(self, rule):
        return self.view_functions[rule]()


app = App()


@app.route("/")
def index():
    return "index"


@app.route("/about")
def about():
    return index() + "about"


app.dispatch("/about")
