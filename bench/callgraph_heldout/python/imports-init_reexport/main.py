# requests/__init__.py re-exports `from .api import get, request`; api.request builds a
# sessions.Session with `from . import sessions` and calls it
import api

api.get("http://x")
api.request("post", "http://y")
