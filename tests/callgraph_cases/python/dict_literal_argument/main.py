# After `requests.Session.request(method, url, ..., hooks=None)`: the hooks arrive as a
# dict literal of lists (`hooks={"response": [log]}`) and are looked up with
# `(hooks or {}).get(...)`; and an event table handed over positionally and indexed.
class Session:
    def request(self, method, url, hooks=None):
        response = method + " " + url
        for hook in (hooks or {}).get("response", []):
            response = hook(response)
        return response


def dispatch(table, event):
    for handler in table[event]:
        handler(event)


def check_direct(response):
    return response


def on_saved(event):
    return event


Session().request("post", "v", hooks={"response": [check_direct]})
dispatch({"saved": [on_saved]}, "saved")
