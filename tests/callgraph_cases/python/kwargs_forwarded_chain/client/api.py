from .sessions import Client


def perform(method, url, **options):
    client = Client()
    return client.perform(method, url, **options)


def fetch(url, params=None, **options):
    return perform("GET", url, params=params, **options)


def post(url, data=None, **options):
    return perform("POST", url, data=data, **options)
