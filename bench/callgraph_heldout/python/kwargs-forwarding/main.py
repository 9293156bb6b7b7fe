# requests.api.get(url, params=None, **kwargs) -> request("get", url, params=params, **kwargs)
# -> Session.request(method=..., **kwargs); a callable forwarded among the kwargs
class Session:
    def request(self, method, url, hooks=None, **kwargs):
        response = method + " " + url
        for hook in (hooks or {}).get("response", []):
            response = hook(response, **kwargs)
        return response


def request(method, url, **kwargs):
    session = Session()
    return session.request(method=method, url=url, **kwargs)


def get(url, params=None, **kwargs):
    return request("get", url, params=params, **kwargs)


def log_response(r, **kwargs):
    return r


def call_with(fn, *args, **kwargs):
    return fn(*args, **kwargs)


get("u", hooks={"response": [log_response]})
call_with(get, "v", timeout=3)
