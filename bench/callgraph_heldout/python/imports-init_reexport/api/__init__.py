from .functions import get, request
from .sessions import Session as Session
