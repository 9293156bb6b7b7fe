from .api import fetch, post
from .sessions import Client
