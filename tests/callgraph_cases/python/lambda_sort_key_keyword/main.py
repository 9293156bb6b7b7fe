def path_length(cookie):
    return len(cookie["path"])


def cookies_for_request(cookies):
    cookies = list(cookies)
    cookies.sort(key=lambda a: path_length(a), reverse=True)
    return cookies


def newest(cookies):
    return max(cookies, key=lambda a: a["expires"], default=None)


cookies_for_request([{"path": "/a"}, {"path": "/"}])
newest([{"expires": 1}])
