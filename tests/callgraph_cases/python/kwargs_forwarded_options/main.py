# After `requests.api`: `get(url, **kwargs)` hands its options on to `request(method, url,
# **kwargs)`, which hands them to `Session.request(..., hooks=None, **kwargs)`; the hooks
# arrive as a dict literal of lists (`hooks={"response": [log]}`) and are looked up with
# `(hooks or {}).get(...)`. A function taking the option itself keeps it: `send` names
# `hooks` as its own parameter, so what `request` forwards to it under `**kwargs` never
# holds hooks, and `send` calls none of them.
class Session:
    def request(self, method, url, hooks=None, **kwargs):
        response = self.send(method + " " + url, **kwargs)
        for hook in (hooks or {}).get("response", []):
            response = hook(response)
        return response

    def send(self, prepared, hooks=None, **kwargs):
        for hook in (hooks or {}).get("sent", []):
            hook(prepared)
        return prepared


def request(method, url, **kwargs):
    with_session = Session()
    return with_session.request(method, url, **kwargs)


def get(url, **kwargs):
    return request("get", url, **kwargs)


def log_response(response):
    return response


def check_direct(response):
    return response


get("u", hooks={"response": [log_response]})
Session().request("post", "v", hooks={"response": [check_direct]})
