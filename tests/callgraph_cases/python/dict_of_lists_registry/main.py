# Written from flask.sansio.scaffold.Scaffold and flask.app.Flask.preprocess_request:
# hooks registered per blueprint name in dicts of lists, `before_request` through
# `self.before_request_funcs.setdefault(None, []).append(f)` and
# `url_value_preprocessor` through `self.url_value_preprocessors[None].append(f)` (a
# defaultdict(list)), then each list run with
# `for before_func in self.before_request_funcs[name]: before_func()`.
from collections import defaultdict


class Scaffold:
    def __init__(self):
        self.before_request_funcs = {}
        self.url_value_preprocessors = defaultdict(list)

    def before_request(self, f):
        self.before_request_funcs.setdefault(None, []).append(f)
        return f

    def url_value_preprocessor(self, f):
        self.url_value_preprocessors[None].append(f)
        return f

    def preprocess_request(self, endpoint, values):
        names = (None,)
        for name in names:
            if name in self.url_value_preprocessors:
                for url_func in self.url_value_preprocessors[name]:
                    url_func(endpoint, values)
        for name in names:
            if name in self.before_request_funcs:
                for before_func in self.before_request_funcs[name]:
                    rv = before_func()
                    if rv is not None:
                        return rv
        return None


app = Scaffold()


@app.url_value_preprocessor
def pull_lang(endpoint, values):
    return values.pop("lang", None)


@app.before_request
def load_user():
    return None


@app.before_request
def open_db():
    return None


app.preprocess_request("index", {"lang": "en"})
