from . import sessions


def request(method, url):
    with_session = sessions.Session()
    return with_session.request(method, url)


def get(url):
    return request("get", url)
